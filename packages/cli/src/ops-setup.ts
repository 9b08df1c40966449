/**
 * The operations side of `openkyt serve` and `openkyt worker`: one metrics registry fed by the
 * engine's events, the store's queue counts, the warm ledger and the HTTP requests; the
 * process's readiness; with `--metrics-port`, a listener of its own for `/metrics`, `/readyz`
 * and `/healthz`; and OpenTelemetry traces when the OTEL_* variables ask for them (see
 * docs/operations.md).
 */
import type { Engine, Store, Tracer } from "@openkyt/core";
import {
  createOpsApp,
  createReadiness,
  type HttpServer,
  type MetricsText,
  type ObservedRequest,
  type OpsOptions,
  type Readiness,
  serveHttp,
} from "@openkyt/http";
import {
  countStoreErrors,
  createMetrics,
  exposition,
  httpRequestCounter,
  type OpenKytMetrics,
  storeGauges,
  warmLedgerGauges,
  watchEngine,
} from "@openkyt/metrics";
import type { MetricsAddress } from "./cli-args.js";
import type { CliWarmSources } from "./engine-setup.js";
import { startTracing } from "./otel-setup.js";

/** The key the readiness probe reads (a primary-key lookup that answers null). */
const PROBE_SETTING = "openkyt.readiness-probe";

/** A process's metrics, readiness and operations listener. */
export interface ProcessOps {
  readonly metrics: OpenKytMetrics;
  readonly readiness: Readiness;
  /** Counts each HTTP request. */
  readonly observe: (request: ObservedRequest) => void;
  /** The operations routes for an app on the main address (no /metrics when it has its own). */
  readonly mainRoutes: OpsOptions;
  /** The separate operations listener, when `--metrics-port` was given. */
  readonly server: HttpServer | null;
  /** The engine config members of tracing: the tracer when traces are on, else none. */
  readonly engineTracing: { readonly tracer?: Tracer };
  /** `store` with its failures counted (and its calls traced when traces are on). */
  countStore(store: Store): Store;
  /** Feeds the metrics from the engine, its store and its warm sources; the probe reads the store. */
  watch(engine: Engine, warm: CliWarmSources): void;
  /** Probes `store` for readiness and runs `refresh` before each exposition (a process without an engine: `follow`). */
  watchStore(store: Store, refresh: () => void | Promise<void>): void;
  /** Stops listening to the engine, closes the separate listener, flushes the traces. Idempotent. */
  close(): Promise<void>;
}

/** Starts the operations of a process that waits for `steps`; listens on `address` when given. */
export async function startProcessOps(
  steps: ReadonlyArray<string>,
  address: MetricsAddress | null,
  env: Readonly<Record<string, string | undefined>>,
  options: { readonly lagging?: () => string | null } = {},
): Promise<ProcessOps> {
  const tracing = await startTracing(env);
  const metrics = createMetrics();
  let store: Store | null = null;
  const readiness = createReadiness({
    steps,
    ...(options.lagging ? { lagging: options.lagging } : {}),
    probe: () => (store ? store.getSetting(PROBE_SETTING) : Promise.resolve(null)),
    onChange: (ready) => metrics.ready.set(ready ? 1 : 0),
  });
  // openkyt_ready shows what /readyz would answer at the scrape.
  const refreshers: Array<() => void | Promise<void>> = [() => readiness.check().then(() => undefined)];
  const observe = httpRequestCounter(metrics);
  const text = (): Promise<MetricsText> => exposition(metrics, refreshers);
  const server = address
    ? await serveHttp(createOpsApp({ readiness, metrics: text, observe }), {
        host: address.host,
        port: address.port,
        maxConnectionsPerAddress: 0,
      })
    : null;
  const unwatch: Array<() => void> = [];
  let closed: Promise<void> | null = null;
  return {
    metrics,
    readiness,
    observe,
    mainRoutes: {
      readiness,
      observe,
      ...(address ? {} : { metrics: text }),
      ...(tracing ? { tracer: tracing.requests } : {}),
    },
    server,
    engineTracing: tracing ? { tracer: tracing.engine } : {},
    countStore(given) {
      return countStoreErrors(tracing ? tracing.traceStore(given) : given, metrics);
    },
    watch(engine, warm) {
      store = engine.store;
      unwatch.push(watchEngine(metrics, engine));
      refreshers.push(storeGauges(metrics, engine.store));
      // A warm ledger (a cold process's hub-cached reader has no copy to report on).
      if (warm.ledger && "caughtUpAt" in warm.ledger) refreshers.push(warmLedgerGauges(metrics, warm.ledger));
    },
    watchStore(given, refresh) {
      store = given;
      refreshers.push(refresh);
    },
    close() {
      closed ??= (async () => {
        for (const stop of unwatch) stop();
        await server?.close();
        await tracing?.shutdown();
      })();
      return closed;
    },
  };
}
