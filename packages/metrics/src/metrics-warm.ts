/** The warm ledger's side of the metrics: transfers held in memory and the catch-up lag. */
import type { WarmLedger } from "@openkyt/core";
import type { OpenKytMetrics } from "./metrics-registry.js";

/**
 * Registers the warm-ledger gauges (a process without `--warm` has none) and returns their
 * refresher, to run before each exposition. `now` is epoch ms, the warm ledger's clock.
 */
export function warmLedgerGauges(
  metrics: OpenKytMetrics,
  ledger: Pick<WarmLedger, "size" | "caughtUpAt">,
  now: () => number = Date.now,
): () => void {
  metrics.registry.registerMetric(metrics.warmLedgerTransfers);
  metrics.registry.registerMetric(metrics.warmLedgerLag);
  return () => {
    metrics.warmLedgerTransfers.set(ledger.size);
    metrics.warmLedgerLag.set(Math.max(0, now() - ledger.caughtUpAt) / 1000);
  };
}
