/**
 * The one entry point from untrusted input to typed engine input: parse with a zod schema,
 * and turn every problem into a VALIDATION_ERROR whose `errors` maps wire field names
 * (snake_case, nested as `a.b`, root problems under `non_field_errors`) to messages.
 */
import type { z } from "zod";
import { type FieldErrors, KytError } from "../errors.js";

/** Key of problems that concern the whole body rather than one field. */
export const NON_FIELD_ERRORS = "non_field_errors";

type RawIssue = z.core.$ZodRawIssue;

function kindOf(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  if (typeof value === "number" && Number.isNaN(value)) return "NaN";
  return typeof value;
}

const EXPECTED_NAMES: Readonly<Record<string, string>> = Object.freeze({
  object: "a JSON object",
  string: "a string",
  number: "a number",
  int: "an integer",
  boolean: "a boolean",
  array: "an array",
});

/** Plain-language messages for zod's built-in issues; schema-level messages take precedence. */
export function inputErrorMessage(issue: RawIssue): string | undefined {
  switch (issue.code) {
    case "invalid_type": {
      if (issue.expected === "object") {
        return `expected a JSON object, got ${issue.input === undefined ? "nothing" : kindOf(issue.input)}`;
      }
      if (issue.input === undefined) return "required";
      if (issue.input === null) return "must not be null";
      const expected = EXPECTED_NAMES[issue.expected] ?? issue.expected;
      return `expected ${expected}, got ${kindOf(issue.input)}`;
    }
    case "too_big":
      if (issue.origin === "string") return `at most ${issue.maximum} characters`;
      return issue.inclusive === false
        ? `must be less than ${issue.maximum}`
        : `must be at most ${issue.maximum}`;
    case "too_small":
      if (issue.origin === "string")
        return issue.minimum === 1 ? "must not be empty" : `at least ${issue.minimum} characters`;
      return issue.inclusive === false
        ? `must be greater than ${issue.minimum}`
        : `must be at least ${issue.minimum}`;
    case "invalid_value":
      return `must be one of: ${issue.values.map(String).join(", ")}`;
    case "unrecognized_keys":
      return "unknown field";
    case "invalid_format":
      return "invalid format";
    default:
      return undefined;
  }
}

function fieldOf(path: ReadonlyArray<PropertyKey>): string {
  return path.length === 0 ? NON_FIELD_ERRORS : path.map(String).join(".");
}

/**
 * Groups zod issues by wire field name; each unknown key becomes its own field. Field names come
 * from the request (unknown keys), so they are collected in a Map: a key such as `__proto__` or
 * `constructor` is a field like any other, never a property of Object.prototype.
 */
export function fieldErrorsOf(issues: ReadonlyArray<z.core.$ZodIssue>): FieldErrors {
  const errors = new Map<string, string[]>();
  const add = (field: string, message: string): void => {
    const list = errors.get(field) ?? [];
    if (!list.includes(message)) list.push(message);
    errors.set(field, list);
  };
  for (const issue of issues) {
    if (issue.code === "unrecognized_keys") {
      for (const key of issue.keys) add(fieldOf([...issue.path, key]), "unknown field");
    } else {
      add(fieldOf(issue.path), issue.message);
    }
  }
  return Object.fromEntries(errors);
}

/** A VALIDATION_ERROR for field errors; the message names every field. */
export function validationError(what: string, errors: FieldErrors, cause?: unknown): KytError {
  const parts = Object.entries(errors).map(([field, messages]) => `${field}: ${messages.join(", ")}`);
  return new KytError("VALIDATION_ERROR", `invalid ${what}: ${parts.join("; ")}`, { errors, cause });
}

/**
 * Parses `value` with `schema`; throws `KytError("VALIDATION_ERROR")` naming every invalid
 * field. `what` names the input in the message (for example "register body").
 */
export function parseInput<T>(schema: z.ZodType<T>, value: unknown, what: string): T {
  const result = schema.safeParse(value, { error: inputErrorMessage });
  if (result.success) return result.data;
  throw validationError(what, fieldErrorsOf(result.error.issues), result.error);
}
