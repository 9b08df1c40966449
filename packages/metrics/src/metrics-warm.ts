/**
 * The warm ledger's side of the metrics: transfers held in memory and the catch-up lag. A warm
 * ledger catches up only when it is read, so each scrape asks it to catch up first (one indexed
 * read of the rows stored since, shared with any catch-up under way): the lag then measures a
 * copy that cannot follow the store (a failing or slow store), not a process that is idle.
 */
import type { WarmLedger } from "@openkyt/core";
import type { OpenKytMetrics } from "./metrics-registry.js";

/** Options of {@link warmLedgerGauges}. */
export interface WarmLedgerGaugesOptions {
  /** Epoch ms, the warm ledger's clock; default Date.now. */
  readonly now?: () => number;
  /** How long a scrape waits for the catch-up, ms; default 2,000 (then it reports the lag as it is). */
  readonly catchUpTimeoutMs?: number;
}

/**
 * Registers the warm-ledger gauges (a process without `--warm` has none) and returns their
 * refresher, to run before each exposition.
 */
export function warmLedgerGauges(
  metrics: OpenKytMetrics,
  ledger: Pick<WarmLedger, "size" | "caughtUpAt" | "catchUp">,
  options: WarmLedgerGaugesOptions = {},
): () => Promise<void> {
  const now = options.now ?? Date.now;
  const timeoutMs = options.catchUpTimeoutMs ?? 2_000;
  metrics.registry.registerMetric(metrics.warmLedgerTransfers);
  metrics.registry.registerMetric(metrics.warmLedgerLag);
  return async () => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const late = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, timeoutMs);
    });
    await Promise.race([
      ledger.catchUp().then(
        () => undefined,
        () => undefined,
      ),
      late,
    ]);
    clearTimeout(timer);
    metrics.warmLedgerTransfers.set(ledger.size);
    metrics.warmLedgerLag.set(Math.max(0, now() - ledger.caughtUpAt) / 1000);
  };
}
