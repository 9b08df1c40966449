/**
 * The request-metrics middleware: after each request, reports its route template (never the raw
 * path), method, status and duration, and why it was refused when authentication or a limit
 * refused it, to an observer (the metrics registry of @openkyt/metrics, or anything else). Every
 * value it reports comes from a closed set, so a client cannot grow the number of series.
 */
import { isKytError } from "@openkyt/core";
import type { Context, MiddlewareHandler } from "hono";
import type { AppEnv } from "./app-env.js";
import { ENDPOINTS, honoPath } from "./endpoint-table.js";

/** One answered request. */
export interface ObservedRequest {
  /**
   * The endpoint table's path (`/v1/transfers/{id}/`), else the template of the route that
   * answered (`/healthz`, `/console/*`), else `unmatched` (a 404 of no route).
   */
  readonly route: string;
  /** GET, POST, PATCH, PUT, DELETE, HEAD, OPTIONS, else `other`. */
  readonly method: string;
  readonly status: number;
  readonly seconds: number;
  /** Why authentication refused it (401), when it did; see {@link AUTH_REFUSAL_REASONS}. */
  readonly authRefusal?: string;
  /**
   * Which limit refused it: `requests` (the per-key or per-user rate, 429), `failed_auth` (the
   * budget of failed authentications, 429), `replay_guard` (the replay guard full, 503).
   */
  readonly limit?: string;
}

/** Options of {@link requestMetrics}. */
export interface RequestMetricsOptions {
  /** Hears each answered request; must not throw. */
  readonly observe: (request: ObservedRequest) => void;
  /** Seconds since an arbitrary origin, for durations; default performance.now() / 1000. */
  readonly monotonicSeconds?: () => number;
}

const METHODS = new Set(["GET", "POST", "PATCH", "PUT", "DELETE", "HEAD", "OPTIONS"]);

/** The table path of each endpoint route, by its Hono path. */
const TABLE_PATHS = new Map(ENDPOINTS.map((e) => [honoPath(e.path), e.path]));

/** The route template of an answered request, from the route that answered it (see ObservedRequest.route). */
export function routeOf(c: Context<AppEnv>): string {
  const matched = c.req.routePath;
  if (matched === "/*" || matched === "*" || matched === "") return "unmatched";
  return TABLE_PATHS.get(matched) ?? matched;
}

/** The request-metrics middleware; register it first, so its duration covers every other one. */
export function requestMetrics(options: RequestMetricsOptions): MiddlewareHandler<AppEnv> {
  const now = options.monotonicSeconds ?? (() => performance.now() / 1000);
  const { observe } = options;
  return async (c, next) => {
    const started = now();
    try {
      await next();
    } finally {
      const status = c.res.status;
      const method = METHODS.has(c.req.method) ? c.req.method : "other";
      const observed: { -readonly [K in keyof ObservedRequest]: ObservedRequest[K] } = {
        route: routeOf(c),
        method,
        status,
        seconds: now() - started,
      };
      const refusal = c.get("authRefusal");
      if (status === 401 && refusal !== undefined) observed.authRefusal = refusal;
      const error = c.error;
      if (isKytError(error, "RATE_LIMITED")) {
        observed.limit = c.get("accountId") === undefined ? "failed_auth" : "requests";
      } else if (isKytError(error, "REPLAY_GUARD_FULL")) observed.limit = "replay_guard";
      observe(observed);
    }
  };
}
