/**
 * The one place where error codes become HTTP statuses, and the error body every failed
 * request gets: `{"detail", "code", "errors"}`. Unexpected failures answer a generic 500 that
 * names the request id; their detail goes to the log only.
 */
import { type ErrorBody, type ErrorCode, type FieldErrors, isKytError, type KytError } from "@openkyt/core";

/** HTTP status of each error code. */
export const STATUS_OF_CODE: Readonly<Record<ErrorCode, number>> = Object.freeze({
  VALIDATION_ERROR: 400,
  UNAUTHORIZED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  ILLEGAL_TRANSITION: 409,
  CONFLICT: 409,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  REQUEST_ABORTED: 400,
  RATE_LIMITED: 429,
  REPLAY_GUARD_FULL: 503,
  NOT_CONFIGURED: 503,
  ENGINE_STOPPED: 503,
  RUNNER_NOT_STARTED: 503,
  STORE_ERROR: 500,
  CHAIN_ERROR: 500,
  INTERNAL_ERROR: 500,
});

/** Codes only the HTTP adapter raises (routing), beyond core's registry. */
export const HTTP_ONLY_CODES = Object.freeze({
  METHOD_NOT_ALLOWED: "The path exists but not with this method (405, with an Allow header).",
  NOT_READY:
    "The server is starting and serves only /healthz, /readyz and /metrics yet (503, with Retry-After).",
});

/** An error body. */
export function errorBody(detail: string, code: string, errors: FieldErrors = {}): ErrorBody {
  return { detail, code, errors: Object.fromEntries(Object.entries(errors).map(([k, v]) => [k, [...v]])) };
}

/** An error body, with `allowed` when the error is a refused transition that has next states. */
export type AnsweredErrorBody = ErrorBody & { allowed?: string[] };

/**
 * The body of a KytError. A refused transition whose machine names allowed next states (the
 * alert workflow) answers them as `allowed` and names the machine's field (`alert_status`)
 * under `errors`; refusals with no way forward (binding twice, rechecks) keep the plain body.
 */
function bodyOf(error: KytError): AnsweredErrorBody {
  const { allowed, machine } = error.details;
  if (
    error.code !== "ILLEGAL_TRANSITION" ||
    !Array.isArray(allowed) ||
    allowed.length === 0 ||
    typeof machine !== "string"
  ) {
    return errorBody(error.message, error.code, error.errors);
  }
  const errors = { [machine]: [error.message], ...error.errors };
  return { ...errorBody(error.message, error.code, errors), allowed: allowed.map(String) };
}

/** How an error is answered. */
export interface ErrorAnswer {
  readonly status: number;
  readonly body: AnsweredErrorBody;
  /** True when the error was not expected and must be logged as such. */
  readonly unexpected: boolean;
  /** Milliseconds until a rate-limited client may retry. */
  readonly retryAfterMs?: number;
}

/** Maps a thrown value to its status and body. */
export function answerError(error: unknown, requestId: string): ErrorAnswer {
  if (isKytError(error)) {
    const status = STATUS_OF_CODE[error.code] ?? 500;
    if (status < 500 || status === 503) {
      const retry = error.details.retryAfterMs;
      return {
        status,
        body: bodyOf(error),
        unexpected: false,
        ...(typeof retry === "number" ? { retryAfterMs: retry } : {}),
      };
    }
  }
  return {
    status: 500,
    body: errorBody(`internal error (request id ${requestId})`, "INTERNAL_ERROR"),
    unexpected: true,
  };
}
