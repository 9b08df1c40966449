/** Asserts that a response has the exact wire shape of a core schema. */

import { expect } from "vitest";
import type { z } from "zod";

/** Parses `value` with `schema` (strict objects: no missing or extra field) and returns it. */
export function expectWire<T>(schema: z.ZodType<T>, value: unknown): T {
  const result = schema.safeParse(value);
  if (!result.success) expect.fail(`not a valid wire object: ${result.error.message}`);
  return result.data;
}
