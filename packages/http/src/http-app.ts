/**
 * `createHttpApp`: the published KYT interface over an engine, as a Hono app (a plain fetch
 * handler: `app.fetch(request)`), so it can be served by `serveHttp` or mounted elsewhere.
 * Paths are served with and without their trailing slash.
 */
import { type Clock, type Engine, systemClock } from "@openkyt/core";
import { Hono } from "hono";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import { type Logger, pino } from "pino";
import type { AppEnv } from "./app-env.js";
import { createAuthenticator } from "./auth-check.js";
import { type AuthFailureLimit, createAuthFailureBudget } from "./auth-failures.js";
import { consoleAssets } from "./console-assets.js";
import { createConsoleSessions } from "./console-sessions.js";
import { accountApis, endpointHandler } from "./endpoint-runner.js";
import { ENDPOINTS, honoPath } from "./endpoint-table.js";
import { answerError, errorBody } from "./http-errors.js";
import { openApiDocument } from "./openapi-document.js";
import { type OpsOptions, opsRoutes } from "./ops-routes.js";
import { createRateLimiter, DEFAULT_RATE_PER_KEY, type RateLimit } from "./rate-limiter.js";
import { createReplayGuard, type ReplayGuardSettings } from "./replay-guard.js";
import { type ReportSettings, reportSettings } from "./report-settings.js";
import { requestContext, requestIds } from "./request-context.js";
import { requestMetrics } from "./request-metrics.js";
import { requestTracing } from "./request-tracing.js";
import { responseHeaders } from "./response-headers.js";
import { sessionApiKeyRoutes } from "./session-api-keys.js";
import { sessionAuditRoutes } from "./session-audit.js";
import { sessionRoutes } from "./session-routes.js";
import { sessionUserRoutes } from "./session-users.js";
import { sessionViewRoutes } from "./session-views.js";

/** Authentication settings. */
export interface HttpAuthOptions {
  /** Accepted distance between API-TIMESTAMP and the server clock, both directions; default 5 minutes. */
  readonly windowMs?: number;
  /**
   * The replay guard: by default (`guard: "auto"`) the store's table when the store is shared
   * by several processes (Postgres), else a bounded guard in memory that answers 503
   * (REPLAY_GUARD_FULL) rather than forget a live entry. See `createReplayGuard`.
   */
  readonly replay?: ReplayGuardSettings;
  /**
   * How long (ms) a looked-up API key may be reused without reading the store again; default 0
   * (every request reads its key, so a revocation by another process counts at once). A
   * revocation through this engine always counts at once; one made by another process (the
   * CLI) is seen up to this late.
   */
  readonly keyCacheMs?: number;
}

/** Request limits. */
export interface HttpLimitOptions {
  /** Largest request body in bytes; default 64 KiB. */
  readonly bodyBytes?: number;
  /** Largest body of a batch endpoint (`POST /v1/transfers/register-batch/`); default 1 MiB. */
  readonly batchBodyBytes?: number;
  /** Per-key token bucket; default 50 requests/s with bursts of 100; null disables it. */
  readonly ratePerKey?: RateLimit | null;
  /**
   * Budget of failed authentications, per source address (an IPv6 /64) and per existing key id;
   * default 10/s with bursts of 20; null disables it. Past it, requests are refused with 429 and
   * Retry-After before their body is read or any HMAC computed. Behind a proxy every client has
   * the proxy's address: disable it there, or give it room for every client's mistakes.
   */
  readonly failedAuth?: AuthFailureLimit | null;
}

/** The console's sessions and files. */
export interface HttpConsoleOptions {
  /** How long a console session lives from sign-in; default 12 hours. */
  readonly sessionTtlMs?: number;
  /** Mark the session cookie Secure: always, never, or (`"auto"`, the default) over https. */
  readonly secureCookie?: boolean | "auto";
  /** The built console (a folder with index.html) to serve at /console/; default none. */
  readonly assetsDir?: string | null;
}

/** Options of {@link createHttpApp}. */
export interface HttpAppOptions {
  readonly engine: Engine;
  /** pino logger for request lines and errors; default silent. */
  readonly logger?: Logger;
  /** Clock of the timestamp window and the rate limiter; default the system clock. */
  readonly clock?: Clock;
  readonly auth?: HttpAuthOptions;
  readonly limits?: HttpLimitOptions;
  /**
   * Console sign-in (`/v1/session`, cookie sessions accepted on /v1 for the store's users) and
   * the console's files; null turns sessions off (signed requests only). Default: sessions on,
   * no files.
   */
  readonly console?: HttpConsoleOptions | null;
  /**
   * Report settings: block explorers per network and the goAML profile (see report-settings.ts);
   * default the built-in explorers and no goAML profile.
   */
  readonly reports?: ReportSettings;
  /** Version shown in the OpenAPI document; default "0.1.0". */
  readonly version?: string;
  /**
   * Operations: `/readyz`, `/metrics` and the request observer (see ops-routes.ts); default
   * none (only `/healthz`).
   */
  readonly ops?: OpsOptions;
}

/** Defaults of the options. */
export const HTTP_DEFAULTS = Object.freeze({
  windowMs: 5 * 60_000,
  keyCacheMs: 0,
  bodyBytes: 64 * 1024,
  batchBodyBytes: 1024 * 1024,
  ratePerKey: DEFAULT_RATE_PER_KEY,
  failedAuth: Object.freeze({ perSecond: 10, burst: 20 }),
});

/** Builds the app. */
export function createHttpApp(options: HttpAppOptions): Hono<AppEnv> {
  const logger = options.logger ?? pino({ level: "silent" });
  const clock = options.clock ?? systemClock;
  const windowMs = options.auth?.windowMs ?? HTTP_DEFAULTS.windowMs;
  const ratePerKey =
    options.limits?.ratePerKey === undefined ? HTTP_DEFAULTS.ratePerKey : options.limits.ratePerKey;
  const failedAuth =
    options.limits?.failedAuth === undefined ? HTTP_DEFAULTS.failedAuth : options.limits.failedAuth;
  const sessions =
    options.console === null
      ? null
      : createConsoleSessions({
          store: options.engine.store,
          clock,
          ...(options.console?.sessionTtlMs === undefined ? {} : { ttlMs: options.console.sessionTtlMs }),
        });
  const deps = {
    accounts: accountApis(options.engine),
    settings: options.reports ?? reportSettings(),
    sessions,
    clock,
    bodyBytes: options.limits?.bodyBytes ?? HTTP_DEFAULTS.bodyBytes,
    batchBodyBytes: options.limits?.batchBodyBytes ?? HTTP_DEFAULTS.batchBodyBytes,
    limiter: ratePerKey === null ? null : createRateLimiter(ratePerKey),
    failures: failedAuth === null ? null : createAuthFailureBudget(failedAuth),
    auth: createAuthenticator({
      keys: options.engine.apiKeys,
      windowMs,
      keyMaxAgeMs: options.auth?.keyCacheMs ?? HTTP_DEFAULTS.keyCacheMs,
      replay: createReplayGuard({
        ...options.auth?.replay,
        store: options.engine.store,
        windowMs,
        ratePerKey,
      }),
    }),
  };
  let openApi: object | null = null;

  const app = new Hono<AppEnv>({ strict: false });
  app.use("*", responseHeaders());
  if (options.ops?.observe) app.use("*", requestMetrics({ observe: options.ops.observe }));
  app.use("*", requestIds());
  app.use("*", requestContext({ logger }));
  if (options.ops?.tracer) app.use("*", requestTracing({ tracer: options.ops.tracer }));
  app.get("/healthz", (c) => c.json({ status: "ok" }));
  if (options.ops) opsRoutes(app, options.ops);
  app.get("/v1/openapi.json", (c) => {
    openApi ??= openApiDocument(ENDPOINTS, options.version ?? "0.1.0");
    return c.json(openApi);
  });
  if (sessions) {
    sessionRoutes(app, {
      sessions,
      now: () => clock.now(),
      secureCookie: options.console?.secureCookie ?? "auto",
      audit: (accountId, entry) => deps.accounts(accountId).casework.recordAudit(entry),
    });
    sessionApiKeyRoutes(app, options.engine, sessions);
    sessionUserRoutes(app, options.engine, sessions, clock);
    sessionAuditRoutes(app, options.engine, sessions);
    sessionViewRoutes(app, options.engine, sessions, clock);
  }
  const assetsDir = options.console?.assetsDir;
  if (assetsDir) consoleAssets(app, assetsDir);
  // 405 with Allow per endpoint path. Not hono/method-not-allowed: it answers only when no route
  // matched, so GET /v1/transfers/register/ (shadowed by GET /v1/transfers/{id}/) would be a 404,
  // its Allow adds HEAD, and its 405s have no route template for the request metrics.
  const methodsOf = new Map<string, string[]>();
  for (const endpoint of ENDPOINTS) {
    const path = honoPath(endpoint.path);
    methodsOf.set(path, [...(methodsOf.get(path) ?? []), endpoint.method]);
  }
  for (const [path, methods] of methodsOf) {
    for (const endpoint of ENDPOINTS.filter((e) => honoPath(e.path) === path)) {
      app.on(endpoint.method, path, endpointHandler(endpoint, deps));
    }
    app.all(path, (c) => {
      const allowed = methods.join(", ");
      return c.json(
        errorBody(`method ${c.req.method} is not allowed here (allowed: ${allowed})`, "METHOD_NOT_ALLOWED"),
        405,
        { Allow: allowed },
      );
    });
  }
  app.notFound((c) =>
    c.json(errorBody(`no such endpoint: ${new URL(c.req.url).pathname}`, "NOT_FOUND"), 404),
  );
  app.onError((error, c) => {
    const answer = answerError(error, c.get("requestId") ?? "unknown");
    if (answer.unexpected) c.get("log")?.error({ err: error }, "request failed");
    const headers: Record<string, string> = {};
    if (answer.retryAfterMs !== undefined)
      headers["Retry-After"] = String(Math.max(1, Math.ceil(answer.retryAfterMs / 1000)));
    return c.json(answer.body, answer.status as ContentfulStatusCode, headers);
  });
  return app;
}
