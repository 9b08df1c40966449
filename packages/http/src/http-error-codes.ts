/**
 * The error codes only the HTTP adapter raises (authentication, sessions, request limits), with
 * what they mean. They join core's registry by augmenting `ErrorCodeRegistry`, so a `KytError`
 * of this adapter carries them like any other code; core itself never raises them.
 */
export const HTTP_ERROR_CODES = Object.freeze({
  UNAUTHORIZED: "Authentication failed.",
  FORBIDDEN:
    "A console session may not do this: its user's role does not allow it, a write lacks its CSRF token, or a sign-in came from another site.",
  RATE_LIMITED: "Too many requests.",
  REPLAY_GUARD_FULL: "The replay guard holds as many signed requests as it may; retry later.",
  PAYLOAD_TOO_LARGE: "The request body is too large.",
  REQUEST_ABORTED: "The client closed the connection before sending the whole request body.",
  UNSUPPORTED_MEDIA_TYPE: "The request body is not of the content type the endpoint takes.",
});

declare module "@openkyt/core" {
  /** The HTTP adapter's codes (see HTTP_ERROR_CODES). */
  interface ErrorCodeRegistry {
    UNAUTHORIZED: string;
    FORBIDDEN: string;
    RATE_LIMITED: string;
    REPLAY_GUARD_FULL: string;
    PAYLOAD_TOO_LARGE: string;
    REQUEST_ABORTED: string;
    UNSUPPORTED_MEDIA_TYPE: string;
  }
}
