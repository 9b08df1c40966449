/**
 * The HTTP side of the metrics: what the HTTP adapter's request observer (`requestMetrics` of
 * @openkyt/http) reports, counted by route template, method and status, with the refusals by
 * reason. The adapter already gives closed-set values; this only counts them.
 */
import type { OpenKytMetrics } from "./metrics-registry.js";

/** One answered request as the HTTP adapter reports it (structurally its `ObservedRequest`). */
export interface ObservedHttpRequest {
  /** A route template or a fixed name, never a raw path. */
  readonly route: string;
  readonly method: string;
  readonly status: number;
  readonly seconds: number;
  /** Why authentication refused it, when it did (a closed set). */
  readonly authRefusal?: string | undefined;
  /** Which limit refused it, when one did (a closed set). */
  readonly limit?: string | undefined;
}

/** The request observer that counts into `metrics`. */
export function httpRequestCounter(metrics: OpenKytMetrics): (request: ObservedHttpRequest) => void {
  return (request) => {
    const { route, method } = request;
    metrics.httpRequests.inc({ route, method, status: String(request.status) });
    metrics.httpDuration.observe({ route, method }, request.seconds);
    if (request.authRefusal !== undefined) metrics.authRefusals.inc({ reason: request.authRefusal });
    if (request.limit !== undefined) metrics.rateLimited.inc({ limit: request.limit });
  };
}
