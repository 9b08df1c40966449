/**
 * The store's side of the metrics: the job queue by lane and kind, the oldest due job's age and
 * the paused webhooks, from one `operationalStats` read per scrape (reused for `cacheMs`, so
 * several scrapers cost one read); and the store calls that fail, counted by a wrapper.
 */
import { isKytError, JOB_LANES, type JobKind, type OperationalStats, type Store } from "@openkyt/core";
import { laneOf } from "./metrics-engine.js";
import type { OpenKytMetrics } from "./metrics-registry.js";

/** Options of {@link storeGauges}. */
export interface StoreGaugesOptions {
  /** How long a read is reused, ms; default 1,000. */
  readonly cacheMs?: number;
  /** Epoch ms; default Date.now. */
  readonly now?: () => number;
}

const ALL_KINDS: ReadonlyArray<JobKind> = Object.values(JOB_LANES).flat();

/**
 * A refresher of the queue gauges, to run before each exposition. A failed read sets
 * `openkyt_store_up` to 0 and leaves the gauges as they were; it does not fail the scrape (a
 * store wrapped by {@link countStoreErrors} also counts it).
 */
export function storeGauges(
  metrics: OpenKytMetrics,
  store: Pick<Store, "operationalStats">,
  options: StoreGaugesOptions = {},
): () => Promise<void> {
  const cacheMs = options.cacheMs ?? 1_000;
  const now = options.now ?? Date.now;
  let last: { at: number; read: Promise<void> } | null = null;

  /** Jobs of kinds no runner of this version claims, counted together as `other` once seen. */
  let otherSeen = false;

  function apply(stats: OperationalStats, at: number): void {
    const counts = new Map<
      string,
      { due: number; scheduled: number; leased: number; oldest: number | null }
    >();
    for (const kind of ALL_KINDS) counts.set(kind, { due: 0, scheduled: 0, leased: 0, oldest: null });
    if (otherSeen) counts.set("other", { due: 0, scheduled: 0, leased: 0, oldest: null });
    for (const count of stats.jobs) {
      const key = ALL_KINDS.includes(count.kind) ? count.kind : "other";
      if (key === "other") otherSeen = true;
      const sum = counts.get(key) ?? { due: 0, scheduled: 0, leased: 0, oldest: null };
      sum.due += count.due;
      sum.scheduled += count.scheduled;
      sum.leased += count.leased;
      if (count.oldestDueAt !== null && (sum.oldest === null || count.oldestDueAt < sum.oldest)) {
        sum.oldest = count.oldestDueAt;
      }
      counts.set(key, sum);
    }
    for (const [kind, count] of counts) {
      const labels = { lane: laneOf(kind), kind };
      metrics.jobsQueued.set(labels, count.due);
      metrics.jobsScheduled.set(labels, count.scheduled);
      metrics.jobsLeased.set(labels, count.leased);
      metrics.jobsOldestQueuedAge.set(
        labels,
        count.oldest === null ? 0 : Math.max(0, at - count.oldest) / 1000,
      );
    }
    metrics.webhooksPaused.set(stats.pausedWebhooks);
    metrics.storeUp.set(1);
  }

  return () => {
    const at = now();
    if (last === null || at - last.at >= cacheMs) {
      const read = store.operationalStats(at).then(
        (stats) => apply(stats, at),
        () => metrics.storeUp.set(0),
      );
      last = { at, read };
    }
    return last.read;
  };
}

/**
 * `store` with every call counted in `openkyt_store_errors_total` when it fails with anything but
 * a KytError (CONFLICT, NOT_FOUND and the like are answers, not faults). Calls made inside a
 * transaction count as the transaction's. Optional members stay optional; nothing else changes.
 */
export function countStoreErrors<S extends object>(store: S, metrics: OpenKytMetrics): S {
  const counted: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(store)) {
    if (typeof value !== "function") {
      counted[name] = value;
      continue;
    }
    const call = value as (...args: unknown[]) => unknown;
    counted[name] = (...args: unknown[]) => {
      const result = call.apply(store, args);
      if (!(result instanceof Promise)) return result;
      return result.catch((error: unknown) => {
        if (!isKytError(error)) metrics.storeErrors.inc({ operation: name });
        throw error;
      });
    };
  }
  return counted as S;
}
