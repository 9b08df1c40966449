/**
 * Per-request context: a request id (the client's X-Request-Id when it is a plain token of at
 * most 128 characters, else a new UUID), echoed in the response; a logger bound to it; one log
 * line per request with method, path (no query), status, duration, key id and account. Secrets,
 * signatures and bodies are never logged; the path and key id are capped (see log-fields.ts).
 * A request refused with a 4xx (an aborted body included) logs at info with the error's code,
 * a 5xx at error.
 */
import { isKytError } from "@openkyt/core";
import type { MiddlewareHandler } from "hono";
import type { Logger } from "pino";
import type { AppEnv } from "./app-env.js";
import { logValue } from "./log-fields.js";
import { nodeIncoming, readHeader } from "./node-incoming.js";

/** The request id header, read and written. */
export const REQUEST_ID_HEADER = "X-Request-Id";

const CLIENT_ID = /^[A-Za-z0-9._:-]{1,128}$/;

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

/** The request-context middleware. */
export function requestContext(options: RequestContextOptions): MiddlewareHandler<AppEnv> {
  const now = options.monotonicNow ?? (() => performance.now());
  const { logger } = options;
  return async (c, next) => {
    const started = now();
    const given = readHeader(c, nodeIncoming(c), REQUEST_ID_HEADER);
    const requestId = given !== undefined && CLIENT_ID.test(given) ? given : globalThis.crypto.randomUUID();
    c.set("requestId", requestId);
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
