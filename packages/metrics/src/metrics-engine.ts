/**
 * The engine's side of the metrics, from its typed events (emitted after each change committed):
 * jobs claimed, settled and failed, bindings, checks, alerts, chain lookups and webhook
 * deliveries. Nothing on the engine's path changes: a listener only counts.
 */
import {
  CHECK_KINDS,
  type Engine,
  type EngineEvents,
  JOB_LANES,
  type JobKind,
  type JobLane,
  type TransferRecord,
} from "@openkyt/core";
import type { OpenKytMetrics } from "./metrics-registry.js";

/** The lane that claims each job kind. */
const LANE_OF = new Map<string, JobLane>(
  (Object.entries(JOB_LANES) as Array<[JobLane, ReadonlyArray<JobKind>]>).flatMap(([lane, kinds]) =>
    kinds.map((kind) => [kind, lane] as const),
  ),
);

/** The lane of a job kind ("other" for a kind no runner claims). */
export function laneOf(kind: string): string {
  return LANE_OF.get(kind) ?? "other";
}

/** Binding outcomes counted (the tx_status a binding ends in). */
const BINDING_OUTCOMES = new Set(["bound", "not_found", "error"]);

/** Options of {@link watchEngine}. */
export interface WatchEngineOptions {
  /** Epoch ms, for register -> checked; default Date.now. */
  readonly now?: () => number;
}

/** Counts what `engine` does into `metrics`; returns a function that stops listening. */
export function watchEngine(
  metrics: OpenKytMetrics,
  engine: Pick<Engine, "events">,
  options: WatchEngineOptions = {},
): () => void {
  const now = options.now ?? Date.now;
  // Every series of a closed set starts at 0, so rate() and absent() behave from the first scrape.
  for (const [kind, lane] of LANE_OF) {
    metrics.jobsRunning.set({ lane, kind }, 0);
    for (const outcome of ["done", "later", "retried", "gave_up"])
      metrics.jobsSettled.inc({ lane, kind, outcome }, 0);
    for (const final of ["true", "false"]) metrics.jobsFailed.inc({ lane, kind, final }, 0);
  }
  for (const kind of CHECK_KINDS)
    for (const outcome of ["checked", "error"]) metrics.checks.inc({ kind, outcome }, 0);
  for (const outcome of BINDING_OUTCOMES) metrics.bindings.inc({ outcome }, 0);
  for (const outcome of ["delivered", "failed"]) metrics.webhookDeliveries.inc({ outcome }, 0);

  const listeners: { [E in keyof EngineEvents]?: EngineEvents[E] } = {
    "jobs.claimed": ({ lane, jobs }) => {
      for (const job of jobs) metrics.jobsRunning.inc({ lane, kind: job.kind });
    },
    "job.settled": ({ lane, job, outcome }) => {
      metrics.jobsRunning.dec({ lane, kind: job.kind });
      metrics.jobsSettled.inc({ lane, kind: job.kind, outcome });
    },
    "jobs.batch_finished": ({ lane, ms }) => metrics.jobBatchDuration.observe({ lane }, ms / 1000),
    "job.failed": ({ kind, final }) =>
      metrics.jobsFailed.inc({
        lane: laneOf(kind),
        kind: LANE_OF.has(kind) ? kind : "other",
        final: String(final),
      }),
    "transfer.status_changed": (transfer: TransferRecord) => {
      if (BINDING_OUTCOMES.has(transfer.txStatus)) metrics.bindings.inc({ outcome: transfer.txStatus });
    },
    "check.completed": (transfer, kind) => {
      const state = transfer.checks[kind].state;
      metrics.checks.inc({ kind, outcome: state === "checked" ? "checked" : "error" });
    },
    "transfer.checked": (transfer) =>
      metrics.screeningSeconds.observe(Math.max(0, now() - transfer.registeredAt) / 1000),
    "alert.created": (alert) => metrics.alerts.inc({ level: alert.riskLevel }),
    "chain.looked_up": ({ outcome, ms }) => metrics.chainLookups.observe({ outcome }, ms / 1000),
    "webhook.delivered": ({ ok, paused }) => {
      metrics.webhookDeliveries.inc({ outcome: ok ? "delivered" : "failed" });
      if (paused) metrics.webhookPauses.inc();
    },
  };
  const entries = Object.entries(listeners) as Array<[keyof EngineEvents, (...args: never[]) => void]>;
  for (const [event, listener] of entries) engine.events.on(event, listener as never);
  return () => {
    for (const [event, listener] of entries) engine.events.off(event, listener as never);
  };
}
