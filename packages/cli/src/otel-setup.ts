/**
 * OpenTelemetry traces of `openkyt serve` and `openkyt worker`, off unless the standard OTEL_*
 * variables ask for them: an OTLP endpoint (`OTEL_EXPORTER_OTLP_ENDPOINT` or
 * `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT`) or `OTEL_TRACES_EXPORTER=otlp`, and neither
 * `OTEL_SDK_DISABLED=true` nor `OTEL_TRACES_EXPORTER=none`. Only then is the SDK loaded; it
 * reads the rest itself (`OTEL_SERVICE_NAME`, `OTEL_RESOURCE_ATTRIBUTES`, `OTEL_TRACES_SAMPLER`,
 * `OTEL_BSP_*`, `OTEL_EXPORTER_OTLP_HEADERS`, ...). Spans: one per request of the interface (a
 * child of the caller's `traceparent`), one per job batch (linked to the requests its jobs came
 * from) and per chain lookup, one per job a traced request enqueued (a child of that request's
 * span: the job joins the request's trace), and one per store call made inside any of them.
 */

import type { Store, Tracer } from "@openkyt/core";
import type { RequestTracer } from "@openkyt/http";
import type { Span, SpanOptions } from "@opentelemetry/api";

type Env = Readonly<Record<string, string | undefined>>;

/** Tracing of a process. */
export interface ProcessTracing {
  /** The engine's tracer (job batches, chain lookups). */
  readonly engine: Tracer;
  /** The HTTP adapter's tracer (a span per request). */
  readonly requests: RequestTracer;
  /** `store` with each call made inside a span traced as its child. */
  traceStore(store: Store): Store;
  /** Sends the spans still buffered and stops. Idempotent. */
  shutdown(): Promise<void>;
}

/** True when the OTEL_* variables ask for traces (see the module comment). */
export function tracingConfigured(env: Env): boolean {
  if ((env.OTEL_SDK_DISABLED ?? "").trim().toLowerCase() === "true") return false;
  const exporter = (env.OTEL_TRACES_EXPORTER ?? "").trim().toLowerCase();
  if (exporter === "none") return false;
  return (
    exporter === "otlp" || Boolean(env.OTEL_EXPORTER_OTLP_ENDPOINT || env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT)
  );
}

/** Starts tracing when `env` asks for it (loading the SDK), else answers null. */
export async function startTracing(env: Env): Promise<ProcessTracing | null> {
  if (!tracingConfigured(env)) return null;
  const api = await import("@opentelemetry/api");
  const { NodeTracerProvider, BatchSpanProcessor } = await import("@opentelemetry/sdk-trace-node");
  const { OTLPTraceExporter } = await import("@opentelemetry/exporter-trace-otlp-http");
  const { defaultResource, detectResources, envDetector, resourceFromAttributes } = await import(
    "@opentelemetry/resources"
  );
  const resource = defaultResource()
    .merge(resourceFromAttributes({ "service.name": "openkyt" }))
    .merge(detectResources({ detectors: [envDetector] }));
  const provider = new NodeTracerProvider({
    resource,
    spanProcessors: [new BatchSpanProcessor(new OTLPTraceExporter())],
  });
  // The global provider, the W3C propagator and an AsyncLocalStorage context manager, so the
  // spans started inside a span's work are its children.
  provider.register();
  const tracer = api.trace.getTracer("openkyt");

  function inSpan<T>(
    name: string,
    options: SpanOptions,
    parent: ReturnType<typeof api.context.active>,
    fn: (span: Span) => Promise<T>,
  ): Promise<T> {
    return tracer.startActiveSpan(name, options, parent, async (span) => {
      try {
        return await fn(span);
      } catch (error) {
        span.recordException(error instanceof Error ? error : String(error));
        span.setStatus({
          code: api.SpanStatusCode.ERROR,
          message: error instanceof Error ? error.message : String(error),
        });
        throw error;
      } finally {
        span.end();
      }
    });
  }

  /** The context of a span of another process or request, given as a W3C traceparent. */
  const remoteContext = (traceparent: string) => api.propagation.extract(api.ROOT_CONTEXT, { traceparent });

  let stopped: Promise<void> | null = null;
  return {
    engine: {
      span(name, attributes, fn, context) {
        const links = (context?.links ?? []).flatMap((traceparent) => {
          const linked = api.trace.getSpanContext(remoteContext(traceparent));
          return linked ? [{ context: linked }] : [];
        });
        const parent = context?.parent === undefined ? api.context.active() : remoteContext(context.parent);
        return inSpan(name, { attributes, links }, parent, () => fn());
      },
    },
    requests: {
      request(request, handle) {
        const carrier: Record<string, string> = {};
        if (request.traceparent !== undefined) carrier.traceparent = request.traceparent;
        if (request.tracestate !== undefined) carrier.tracestate = request.tracestate;
        const parent = api.propagation.extract(api.ROOT_CONTEXT, carrier);
        const options: SpanOptions = {
          kind: api.SpanKind.SERVER,
          attributes: { "http.request.method": request.method },
        };
        return inSpan(request.method, options, parent, (span) => {
          const own: Record<string, string> = {};
          api.propagation.inject(api.trace.setSpan(parent, span), own);
          return handle((answer) => {
            span.updateName(`${request.method} ${answer.route}`);
            span.setAttribute("http.route", answer.route);
            span.setAttribute("http.response.status_code", answer.status);
            if (answer.requestId !== undefined) span.setAttribute("openkyt.request_id", answer.requestId);
            if (answer.status >= 500) span.setStatus({ code: api.SpanStatusCode.ERROR });
          }, own.traceparent);
        });
      },
    },
    traceStore(store) {
      const traced: Record<string, unknown> = {};
      const system = store.capabilities.dialect;
      for (const [name, value] of Object.entries(store)) {
        if (typeof value !== "function") {
          traced[name] = value;
          continue;
        }
        const call = value as (...args: unknown[]) => unknown;
        const options: SpanOptions = {
          kind: api.SpanKind.CLIENT,
          attributes: { "db.system": system, "db.operation.name": name },
        };
        traced[name] = (...args: unknown[]) => {
          // Only inside a request or a job batch: the idle poll for due jobs is no trace.
          if (api.trace.getSpan(api.context.active()) === undefined) return call.apply(store, args);
          return inSpan(`store ${name}`, options, api.context.active(), async () => call.apply(store, args));
        };
      }
      return traced as unknown as Store;
    },
    shutdown() {
      stopped ??= provider.shutdown();
      return stopped;
    },
  };
}
