/**
 * The chain follower's side of the metrics (`openkyt follow`): its cursor, how far it is behind
 * the node's head in blocks and in seconds, blocks and rows written, reorganisations undone and
 * failed steps, and address-cluster conflicts met (UTXO chains), each labelled by network. A process that follows nothing has none of them.
 */
import type { FollowStep, KytError } from "@openkyt/core";
import type { OpenKytMetrics } from "./metrics-registry.js";

/** What a follower tells the metrics. */
export interface FollowObserver {
  /** Hears each step of the follower. */
  step(step: FollowStep): void;
  /** Hears each failed step. */
  error(error: KytError): void;
  /** Sets the seconds gauge from the last written block's time; run before each exposition. */
  refresh(): void;
}

/** Registers the follow metrics for `network` and returns what feeds them. `now` is epoch ms (default Date.now). */
export function followMetrics(
  metrics: OpenKytMetrics,
  network: string,
  now: () => number = Date.now,
): FollowObserver {
  const all = [
    ["openkyt_follow_cursor_block", metrics.followCursor],
    ["openkyt_follow_head_lag_blocks", metrics.followLagBlocks],
    ["openkyt_follow_head_lag_seconds", metrics.followLagSeconds],
    ["openkyt_follow_blocks_total", metrics.followBlocks],
    ["openkyt_follow_rows_total", metrics.followRows],
    ["openkyt_follow_reorgs_total", metrics.followReorgs],
    ["openkyt_follow_source_errors_total", metrics.followSourceErrors],
    ["openkyt_follow_cluster_conflicts_total", metrics.followClusterConflicts],
  ] as const;
  // Registered once per process, however many networks it follows.
  for (const [name, metric] of all) {
    if (!metrics.registry.getSingleMetric(name)) metrics.registry.registerMetric(metric);
  }
  const labels = { network };
  metrics.followReorgs.inc(labels, 0);
  metrics.followSourceErrors.inc(labels, 0);
  metrics.followClusterConflicts.inc(labels, 0);
  let lastBlockTime: number | null = null;
  let caughtUp = false;
  return {
    step(step) {
      if (step.kind === "blocks") {
        metrics.followCursor.set(labels, step.to);
        metrics.followLagBlocks.set(labels, Math.max(0, step.head - step.to));
        metrics.followBlocks.inc(labels, step.to - step.from + 1);
        metrics.followRows.inc(labels, step.transfers);
        metrics.followClusterConflicts.inc(labels, step.clustering?.conflicts.length ?? 0);
        lastBlockTime = step.blockTime;
        caughtUp = step.to >= step.safeHead;
      } else if (step.kind === "reorg") {
        metrics.followReorgs.inc(labels);
        caughtUp = false;
      } else {
        if (step.cursor !== null) metrics.followCursor.set(labels, step.cursor);
        metrics.followLagBlocks.set(labels, Math.max(0, step.head - (step.cursor ?? step.head)));
        caughtUp = true;
      }
    },
    error() {
      metrics.followSourceErrors.inc(labels);
    },
    refresh() {
      // Caught up, the lag is the chain's own block interval plus confirmations: reported as
      // the age of the last block written, which is what a deposit waits for at most.
      if (lastBlockTime !== null)
        metrics.followLagSeconds.set(labels, Math.max(0, now() - lastBlockTime) / 1000);
      else if (caughtUp) metrics.followLagSeconds.set(labels, 0);
    },
  };
}
