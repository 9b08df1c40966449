/**
 * One error class with a stable UPPER_SNAKE code registry. Expected outcomes (not found on
 * chain, nothing fired) are result values, not errors. HTTP status mapping lives only in the
 * HTTP adapter.
 */

/** Every error code the core (engine, stores, schemas) raises, with what it means. */
export const ERROR_CODES = {
  VALIDATION_ERROR: "A request or record failed validation; `errors` names the fields.",
  NOT_FOUND: "The resource does not exist or belongs to another account.",
  ILLEGAL_TRANSITION: "A state machine refused the transition.",
  CONFLICT: "A concurrent change won; retry the request.",
  STORE_ERROR: "The store failed.",
  CHAIN_ERROR: "The chain source failed.",
  NOT_CONFIGURED: "A collaborator the operation needs was not configured.",
  ENGINE_STOPPED: "The engine was stopped.",
  RUNNER_NOT_STARTED:
    "A wait for results on an engine whose job runner is not started: start() it, drain() instead, or set jobs.runsElsewhere.",
  LIMIT_REACHED:
    "The account has as much long work queued as it may (backtests queued or running); retry when some ends.",
  INTERNAL_ERROR: "An unexpected failure.",
} as const;

/**
 * The codes a KytError may carry: core's, and those an adapter adds for what only it raises by
 * augmenting this interface (`declare module "@openkyt/core"`): the HTTP adapter adds its
 * authentication and limit codes (packages/http/src/http-error-codes.ts).
 */
export interface ErrorCodeRegistry {
  VALIDATION_ERROR: string;
  NOT_FOUND: string;
  ILLEGAL_TRANSITION: string;
  CONFLICT: string;
  STORE_ERROR: string;
  CHAIN_ERROR: string;
  NOT_CONFIGURED: string;
  ENGINE_STOPPED: string;
  RUNNER_NOT_STARTED: string;
  LIMIT_REACHED: string;
  INTERNAL_ERROR: string;
}

/** A stable error code. */
export type ErrorCode = keyof ErrorCodeRegistry;

/** Field name to the messages about it. */
export type FieldErrors = Readonly<Record<string, ReadonlyArray<string>>>;

/** Options of a {@link KytError}. */
export interface KytErrorOptions {
  readonly cause?: unknown;
  readonly errors?: FieldErrors;
  /** Extra machine-readable detail (for example the allowed next states). */
  readonly details?: Readonly<Record<string, unknown>>;
}

/** The one error class of OpenKYT. */
export class KytError extends Error {
  readonly code: ErrorCode;
  readonly errors: FieldErrors;
  readonly details: Readonly<Record<string, unknown>>;

  constructor(code: ErrorCode, message: string, options: KytErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = "KytError";
    this.code = code;
    this.errors = options.errors ?? {};
    this.details = options.details ?? {};
  }
}

/** True when `error` is a KytError, optionally of the given code. */
export function isKytError(error: unknown, code?: ErrorCode): error is KytError {
  return error instanceof KytError && (code === undefined || error.code === code);
}

/** A validation error naming one field. */
export function fieldError(field: string, message: string): KytError {
  return new KytError("VALIDATION_ERROR", `${field}: ${message}`, { errors: { [field]: [message] } });
}

/** The not-found error for a resource kind and id. */
export function notFound(kind: string, id: string): KytError {
  return new KytError("NOT_FOUND", `${kind} ${id} not found`);
}

/** Text of any thrown value, for keeping as a reason. */
export function describeError(error: unknown): string {
  if (error instanceof Error) return error.message || error.name;
  return String(error);
}
