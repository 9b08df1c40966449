/**
 * Headers every answer of the interface carries: `X-Content-Type-Options: nosniff` (a browser
 * never reads a JSON answer or a report as HTML or script), and on `/v1` and the operations
 * routes `Cache-Control: no-store` (answers hold an account's data, API key lists and
 * session tokens included: no browser or proxy may keep them). A handler that chose its own
 * Cache-Control keeps it. Register it first, so it also sees the error handler's answers.
 */
import type { MiddlewareHandler } from "hono";
import type { AppEnv } from "./app-env.js";

/** Options of {@link responseHeaders}. */
export interface ResponseHeaderOptions {
  /** Whether a path's answers are kept by no cache; default every path but the console's files. */
  readonly noStore?: (path: string) => boolean;
}

/**
 * The headers of a JSON answer of `/v1`, for a handler that builds its Response with plain
 * headers (the endpoint runner's fast path, which sets `requestIdSent`): the middleware then
 * leaves that answer as it is.
 */
export const API_ANSWER_HEADERS = Object.freeze({
  "cache-control": "no-store",
  "x-content-type-options": "nosniff",
});

/** Paths under the console's files, which a browser may cache (they hold no data). */
const CONSOLE_FILES = /^\/console(?:\/|$)/;

/** The middleware. */
export function responseHeaders(options: ResponseHeaderOptions = {}): MiddlewareHandler<AppEnv> {
  const noStore = options.noStore ?? ((path: string) => !CONSOLE_FILES.test(path));
  return async (c, next) => {
    await next();
    // The endpoint runner's fast answers carry API_ANSWER_HEADERS already (and reading their
    // headers here would make node-server build a Headers object for each).
    if (c.get("requestIdSent")) return;
    c.res.headers.set("X-Content-Type-Options", "nosniff");
    if (noStore(c.req.path) && !c.res.headers.has("Cache-Control")) {
      c.res.headers.set("Cache-Control", "no-store");
    }
  };
}
