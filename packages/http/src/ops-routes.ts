/**
 * The operations routes: `/healthz` (liveness: the process answers), `/readyz` (readiness, see
 * readiness.ts: 200 or 503 with the reason) and `/metrics` (the Prometheus text format), none
 * of them authenticated. `createOpsApp` serves them alone: on a separate metrics address, in a
 * worker, and while a server starts (every other path then answers 503 NOT_READY).
 */
import { Hono } from "hono";
import type { AppEnv } from "./app-env.js";
import { errorBody } from "./http-errors.js";
import type { Readiness } from "./readiness.js";
import { type ObservedRequest, requestMetrics } from "./request-metrics.js";
import type { RequestTracer } from "./request-tracing.js";

/** A rendered scrape: the registry's content type and text. */
export interface MetricsText {
  readonly contentType: string;
  readonly body: string;
}

/** Options of {@link opsRoutes} and {@link createOpsApp}. */
export interface OpsOptions {
  /** What `/readyz` answers; without it `/readyz` is not served. */
  readonly readiness?: Readiness;
  /** Renders `/metrics`; without it `/metrics` is not served (for example: served on another address). */
  readonly metrics?: () => Promise<MetricsText>;
  /** Hears each answered request (see `requestMetrics`); default none. */
  readonly observe?: (request: ObservedRequest) => void;
  /** Runs each request of the interface in a span (see `requestTracing`); default none. */
  readonly tracer?: RequestTracer;
}

/** Adds `/readyz` and `/metrics` to `app` (as `options` has them). */
export function opsRoutes(app: Hono<AppEnv>, options: OpsOptions): void {
  const { readiness, metrics } = options;
  if (readiness) {
    app.get("/readyz", async (c) => {
      const answer = await readiness.check();
      return c.json(answer, answer.ready ? 200 : 503, { "Cache-Control": "no-store" });
    });
  }
  if (metrics) {
    app.get("/metrics", async (c) => {
      const text = await metrics();
      return c.body(text.body, 200, { "Content-Type": text.contentType, "Cache-Control": "no-store" });
    });
  }
}

/**
 * An app of the operations routes only, with `/healthz`. Every other path answers 404, or,
 * with `starting: true`, 503 NOT_READY with Retry-After (a server whose engine is not built yet).
 */
export function createOpsApp(options: OpsOptions & { readonly starting?: boolean }): Hono<AppEnv> {
  const app = new Hono<AppEnv>({ strict: false });
  if (options.observe) app.use("*", requestMetrics({ observe: options.observe }));
  app.get("/healthz", (c) => c.json({ status: "ok" }));
  opsRoutes(app, options);
  app.notFound((c) =>
    options.starting
      ? c.json(errorBody("the server is starting; retry shortly", "NOT_READY"), 503, { "Retry-After": "1" })
      : c.json(errorBody(`no such endpoint: ${new URL(c.req.url).pathname}`, "NOT_FOUND"), 404),
  );
  return app;
}
