/**
 * The request-tracing middleware: runs each request inside a server span of a tracer given by
 * the caller (OpenTelemetry in `openkyt serve` when configured), continuing the trace of a W3C
 * `traceparent` header, so the spans of the work the request causes (store calls) are its
 * children; the jobs it enqueues carry the span (`traceparent` variable) and join its trace. The span learns its route template and status once the request is answered.
 */
import type { MiddlewareHandler } from "hono";
import type { AppEnv } from "./app-env.js";
import { nodeIncoming, readHeader } from "./node-incoming.js";
import { routeOf } from "./request-metrics.js";

/** What a request span is told once the request is answered. */
export interface RequestSpanEnd {
  /** The route template (never the raw path), as the request metrics have it. */
  readonly route: string;
  readonly status: number;
  /** The request id of the request log. */
  readonly requestId: string | undefined;
}

/** A tracer of requests (structurally; the OpenTelemetry adapter lives in the CLI). */
export interface RequestTracer {
  /**
   * Runs `handle` inside a server span of the request (a child of `traceparent` when given);
   * `handle` calls `end` once with the answer before the span ends. `span` is the server span
   * as a W3C traceparent, for the jobs the request enqueues (they join its trace).
   */
  request<T>(
    request: { readonly method: string; readonly traceparent?: string; readonly tracestate?: string },
    handle: (end: (answer: RequestSpanEnd) => void, span: string | undefined) => Promise<T>,
  ): Promise<T>;
}

/** Options of {@link requestTracing}. */
export interface RequestTracingOptions {
  readonly tracer: RequestTracer;
}

/** The request-tracing middleware; register it after the request context (it reads the request id). */
export function requestTracing(options: RequestTracingOptions): MiddlewareHandler<AppEnv> {
  const { tracer } = options;
  return async (c, next) => {
    const incoming = nodeIncoming(c);
    const traceparent = readHeader(c, incoming, "traceparent");
    const tracestate = readHeader(c, incoming, "tracestate");
    await tracer.request(
      {
        method: c.req.method,
        ...(traceparent === undefined ? {} : { traceparent }),
        ...(tracestate === undefined ? {} : { tracestate }),
      },
      async (end, span) => {
        if (span !== undefined) c.set("traceparent", span);
        try {
          await next();
        } finally {
          end({ route: routeOf(c), status: c.res.status, requestId: c.get("requestId") });
        }
      },
    );
  };
}
