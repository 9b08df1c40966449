import { expect } from "vitest";
import { isKytError, type KytError } from "../../src/errors.js";

/** Runs `fn`, expects a VALIDATION_ERROR, and returns it. */
export function validationErrorOf(fn: () => unknown): KytError {
  try {
    fn();
  } catch (error) {
    if (isKytError(error, "VALIDATION_ERROR")) return error;
    throw error;
  }
  return expect.unreachable("expected a VALIDATION_ERROR");
}

/** Expects a VALIDATION_ERROR whose `errors` has exactly `fields`, each named in the message. */
export function expectFieldErrors(fn: () => unknown, fields: ReadonlyArray<string>): KytError {
  const error = validationErrorOf(fn);
  expect(Object.keys(error.errors).sort()).toEqual([...fields].sort());
  for (const field of fields) expect(error.message).toContain(`${field}:`);
  return error;
}
