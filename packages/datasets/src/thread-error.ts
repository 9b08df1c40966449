/**
 * An error crossing threads. A structured clone keeps only an Error's name, message and stack,
 * so a KytError travels as its parts and is built again on the other side: same code, message,
 * details and field errors, its cause kept when it can be cloned (else its text, as for a detail
 * that cannot be cloned).
 */
import { describeError, type ErrorCode, type FieldErrors, isKytError, KytError } from "@openkyt/core";

/** An error as plain data. */
export interface ThreadError {
  readonly name: string;
  readonly message: string;
  readonly stack: string | undefined;
  /** Set for a KytError. */
  readonly kyt?: {
    readonly code: ErrorCode;
    readonly details: Readonly<Record<string, unknown>>;
    readonly errors: FieldErrors;
  };
  readonly cause?: unknown;
}

/** `value` when a structured clone can carry it, else its text. */
function cloneable(value: unknown): unknown {
  try {
    structuredClone(value);
    return value;
  } catch {
    return describeError(value);
  }
}

/** `error` as plain data. */
export function threadErrorOf(error: unknown): ThreadError {
  if (!(error instanceof Error)) return { name: "Error", message: describeError(error), stack: undefined };
  return {
    name: error.name,
    message: error.message,
    stack: error.stack,
    ...(isKytError(error)
      ? {
          kyt: {
            code: error.code,
            details: Object.fromEntries(Object.entries(error.details).map(([k, v]) => [k, cloneable(v)])),
            errors: error.errors,
          },
        }
      : {}),
    ...(error.cause === undefined ? {} : { cause: cloneable(error.cause) }),
  };
}

/** The error again, on this side: a KytError when it was one. */
export function errorOfThread(data: ThreadError): Error {
  const cause = data.cause === undefined ? {} : { cause: data.cause };
  const error = data.kyt
    ? new KytError(data.kyt.code, data.message, {
        ...cause,
        details: data.kyt.details,
        errors: data.kyt.errors,
      })
    : new Error(data.message, cause);
  if (!data.kyt) error.name = data.name;
  if (data.stack !== undefined) error.stack = data.stack;
  return error;
}
