/** The Hono environment of the app: per-request variables set by the middleware. */
import type { RequestLog } from "./request-context.js";

/** Variables every handler can read with `c.get`. */
export interface AppVariables {
  /** The request id (echoed from X-Request-Id or generated). */
  requestId: string;
  /** The request's logger (bound to the request id). */
  log: RequestLog;
  /** True once the response carries the request id header (set by whoever built it). */
  requestIdSent: boolean;
  /** The authenticated key id, once known. */
  keyId: string | undefined;
  /** The authenticated account, once known. */
  accountId: string | undefined;
  /** The request's span as a W3C traceparent, when requests are traced. */
  traceparent?: string;
  /** Why authentication refused the request, when it did (see `AUTH_REFUSAL_REASONS`). */
  authRefusal?: string;
}

/** The app's Hono environment. */
export interface AppEnv {
  Variables: AppVariables;
}
