/** The Hono environment of the app: per-request variables set by the middleware. */
import type { Logger } from "pino";

/** Variables every handler can read with `c.get`. */
export interface AppVariables {
  /** The request id (echoed from X-Request-Id or generated). */
  requestId: string;
  /** The request's logger (bound to the request id). */
  log: Logger;
  /** The authenticated key id, once known. */
  keyId: string | undefined;
  /** The authenticated account, once known. */
  accountId: string | undefined;
}

/** The app's Hono environment. */
export interface AppEnv {
  Variables: AppVariables;
}
