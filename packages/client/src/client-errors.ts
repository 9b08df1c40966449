/** Errors of the client: an HTTP error answer, and a wait that ran out of time. */

/** A non-2xx answer of the server, with the interface's error body. */
export class KytHttpError extends Error {
  /** HTTP status. */
  readonly status: number;
  /** Stable error code (e.g. VALIDATION_ERROR, NOT_FOUND, UNAUTHORIZED); HTTP_<status> without a body. */
  readonly code: string;
  /** The server's message. */
  readonly detail: string;
  /** Field name to messages (validation errors). */
  readonly errors: Readonly<Record<string, ReadonlyArray<string>>>;
  /** The X-Request-Id of the answer, to quote to the operator. */
  readonly requestId: string | null;
  /** Seconds the server asked to wait (429), else null. */
  readonly retryAfterSeconds: number | null;
  /** A refused alert transition (409 ILLEGAL_TRANSITION): the states allowed from the current one; else null. */
  readonly allowed: ReadonlyArray<string> | null;

  constructor(init: {
    status: number;
    code: string;
    detail: string;
    errors?: Readonly<Record<string, ReadonlyArray<string>>>;
    requestId?: string | null;
    retryAfterSeconds?: number | null;
    allowed?: ReadonlyArray<string> | null;
  }) {
    super(`${init.status} ${init.code}: ${init.detail}`);
    this.name = "KytHttpError";
    this.status = init.status;
    this.code = init.code;
    this.detail = init.detail;
    this.errors = init.errors ?? {};
    this.requestId = init.requestId ?? null;
    this.retryAfterSeconds = init.retryAfterSeconds ?? null;
    this.allowed = init.allowed ?? null;
  }
}

/** A polling helper gave up before the resource settled. */
export class KytWaitTimeoutError<T = unknown> extends Error {
  /** The last state seen. */
  readonly last: T;

  constructor(message: string, last: T) {
    super(message);
    this.name = "KytWaitTimeoutError";
    this.last = last;
  }
}

/** True when `error` is a KytHttpError, optionally with the given code. */
export function isKytHttpError(error: unknown, code?: string): error is KytHttpError {
  return error instanceof KytHttpError && (code === undefined || error.code === code);
}
