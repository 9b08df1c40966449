/**
 * The one place where error codes become HTTP statuses, and the error body every failed
 * request gets: `{"detail", "code", "errors"}`. Unexpected failures answer a generic 500 that
 * names the request id; their detail goes to the log only.
 */
import { type ErrorBody, type ErrorCode, type FieldErrors, isKytError } from "@openkyt/core";

/** HTTP status of each error code. */
export const STATUS_OF_CODE: Readonly<Record<ErrorCode, number>> = Object.freeze({
  VALIDATION_ERROR: 400,
  UNAUTHORIZED: 401,
  NOT_FOUND: 404,
  ILLEGAL_TRANSITION: 409,
  CONFLICT: 409,
  PAYLOAD_TOO_LARGE: 413,
  RATE_LIMITED: 429,
  NOT_CONFIGURED: 503,
  ENGINE_STOPPED: 503,
  STORE_ERROR: 500,
  CHAIN_ERROR: 500,
  INTERNAL_ERROR: 500,
});

/** Codes only the HTTP adapter raises (routing), beyond core's registry. */
export const HTTP_ONLY_CODES = Object.freeze({
  METHOD_NOT_ALLOWED: "The path exists but not with this method (405, with an Allow header).",
});

/** An error body. */
export function errorBody(detail: string, code: string, errors: FieldErrors = {}): ErrorBody {
  return { detail, code, errors: Object.fromEntries(Object.entries(errors).map(([k, v]) => [k, [...v]])) };
}

/** How an error is answered. */
export interface ErrorAnswer {
  readonly status: number;
  readonly body: ErrorBody;
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
        body: errorBody(error.message, error.code, error.errors),
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
