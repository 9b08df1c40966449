/**
 * Per-request context: a request id (the client's X-Request-Id when it is a plain token of at
 * most 128 characters, else a new UUID), echoed in the response; a logger bound to it; one log
 * line per request with method, path (no query), status, duration, key id and account. Secrets,
 * signatures and bodies are never logged.
 */
import type { MiddlewareHandler } from "hono";
import type { Logger } from "pino";
import type { AppEnv } from "./app-env.js";

/** The request id header, read and written. */
export const REQUEST_ID_HEADER = "X-Request-Id";

const CLIENT_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** Options of {@link requestContext}. */
export interface RequestContextOptions {
  readonly logger: Logger;
  /** Milliseconds since an arbitrary origin, for durations. */
  readonly monotonicNow?: () => number;
}

/** The request-context middleware. */
export function requestContext(options: RequestContextOptions): MiddlewareHandler<AppEnv> {
  const now = options.monotonicNow ?? (() => performance.now());
  return async (c, next) => {
    const started = now();
    const given = c.req.header(REQUEST_ID_HEADER);
    const requestId = given !== undefined && CLIENT_ID.test(given) ? given : globalThis.crypto.randomUUID();
    const log = options.logger.child({ requestId });
    c.set("requestId", requestId);
    c.set("log", log);
    c.set("keyId", undefined);
    c.set("accountId", undefined);
    await next();
    c.res.headers.set(REQUEST_ID_HEADER, requestId);
    const status = c.res.status;
    log[status >= 500 ? "error" : "info"](
      {
        method: c.req.method,
        path: new URL(c.req.url).pathname,
        status,
        ms: Math.round((now() - started) * 10) / 10,
        keyId: c.get("keyId"),
        account: c.get("accountId"),
      },
      "request",
    );
  };
}
