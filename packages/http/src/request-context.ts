/**
 * Per-request context: a request id (hono's request-id middleware: the client's X-Request-Id
 * when it is a plain token of at most 128 characters, else a new UUID), echoed in the response;
 * a logger bound to it; one log line per request with method, path (no query), status,
 * duration, key id and account. Secrets, signatures and bodies are never logged; the path and
 * key id are capped (see log-fields.ts). A request refused with a 4xx (an aborted body
 * included) logs at info with the error's code, a 5xx at error.
 */
import { isKytError } from "@openkyt/core";
import type { Context, MiddlewareHandler } from "hono";
import { requestId as honoRequestId } from "hono/request-id";
import type { Logger } from "pino";
import type { AppEnv } from "./app-env.js";
import { logValue } from "./log-fields.js";

/** The request id header, read and written. */
export const REQUEST_ID_HEADER = "X-Request-Id";

/** Longest client-sent request id kept. */
const MAX_CLIENT_ID = 128;

/**
 * A client's id hono refuses (it keeps letters, digits, `_`, `-` and `=`) that is kept all the
 * same, as it always was: one with `.` or `:` (`svc.api:42`).
 */
const CLIENT_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/**
 * The request-id middleware: hono's, reading and echoing X-Request-Id, keeping a client's id
 * of at most 128 characters of `A-Z a-z 0-9 . _ : - =` and otherwise generating a UUID. Its
 * id is `c.get("requestId")`. Register it before {@link requestContext}.
 */
export function requestIds(): MiddlewareHandler<AppEnv> {
  return honoRequestId({
    headerName: REQUEST_ID_HEADER,
    limitLength: MAX_CLIENT_ID,
    // Called when hono refused the client's id (or none was sent).
    generator: (c: Context) => {
      const given = c.req.header(REQUEST_ID_HEADER);
      return given !== undefined && CLIENT_ID.test(given) ? given : globalThis.crypto.randomUUID();
    },
  });
}

/** Options of {@link requestContext}. */
export interface RequestContextOptions {
  readonly logger: Logger;
  /** Milliseconds since an arbitrary origin, for durations. */
  readonly monotonicNow?: () => number;
}

/** The logger of one request: lines carry its request id. */
export interface RequestLog {
  warn(fields: object, message: string): void;
  error(fields: object, message: string): void;
}

/**
 * A request's logger whose pino child (bound to the request id) is only made when a line is
 * written: most requests write none besides the request line.
 */
class LazyRequestLog implements RequestLog {
  readonly #logger: Logger;
  readonly #requestId: string;
  #child: Logger | undefined;
  constructor(logger: Logger, requestId: string) {
    this.#logger = logger;
    this.#requestId = requestId;
  }
  #bound(): Logger {
    this.#child ??= this.#logger.child({ requestId: this.#requestId });
    return this.#child;
  }
  warn(fields: object, message: string): void {
    this.#bound().warn(fields, message);
  }
  error(fields: object, message: string): void {
    this.#bound().error(fields, message);
  }
}

/**
 * The request-context middleware: the request's logger and its log line, and the request id on
 * every answer (also one a handler built as a plain Response). Register it after {@link requestIds}.
 */
export function requestContext(options: RequestContextOptions): MiddlewareHandler<AppEnv> {
  const now = options.monotonicNow ?? (() => performance.now());
  const { logger } = options;
  return async (c, next) => {
    const started = now();
    const requestId = c.get("requestId");
    c.set("requestIdSent", false);
    c.set("log", new LazyRequestLog(logger, requestId));
    c.set("keyId", undefined);
    c.set("accountId", undefined);
    await next();
    if (!c.get("requestIdSent")) c.res.headers.set(REQUEST_ID_HEADER, requestId);
    const status = c.res.status;
    const level = status >= 500 ? "error" : "info";
    if (!logger.isLevelEnabled(level)) return;
    // The same line a child bound to the request id would write: its binding comes first.
    logger[level](
      {
        requestId,
        method: c.req.method,
        path: logValue(new URL(c.req.url).pathname),
        status,
        ms: Math.round((now() - started) * 10) / 10,
        keyId: logValue(c.get("keyId")),
        account: c.get("accountId"),
        // Which refusal it was (UNAUTHORIZED, RATE_LIMITED, REQUEST_ABORTED, ...), when one.
        code: isKytError(c.error) ? c.error.code : undefined,
      },
      "request",
    );
  };
}
