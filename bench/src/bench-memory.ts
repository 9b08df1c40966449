/**
 * Memory: the resident set of an engine over the SQLite file holding the generated ledger, then
 * with the ledger loaded warm into the same process (`createWarmLedger`).
 */
import { createEngine, createWarmLedger } from "@openkyt/core";
import { createSqliteStore } from "@openkyt/store-sqlite";
import { ledgerCopy, removeCopy } from "./bench-ledger-db.js";
import { type Figure, figure } from "./bench-stats.js";
import { sampleTransfers } from "./bench-tracing.js";

/** RSS after opening the engine on the ledger and screening a few hundred transfers. */
export async function benchMemory(ledgerSize: number, quick: boolean): Promise<Figure[]> {
  const file = await ledgerCopy(ledgerSize, "memory");
  try {
    const store = await createSqliteStore({ filename: file });
    const engine = createEngine({ store });
    const api = engine.forAccount("bench");
    for (const row of await sampleTransfers(store, ledgerSize, quick ? 50 : 300)) {
      await api.registerTransfer({
        direction: "incoming",
        network: row.network,
        tx_hash: row.txHash,
        output_address: row.to,
      });
    }
    await engine.drain();
    const rss = process.memoryUsage().rss / 1024 / 1024;
    const peak = process.resourceUsage().maxRSS / 1024;
    // With --expose-gc (main.ts gives it), heap figures count live objects, not garbage.
    const gc = (globalThis as { gc?: () => void }).gc;
    gc?.();
    const heapBefore = process.memoryUsage().heapUsed;
    const warm = await createWarmLedger(store);
    gc?.();
    const warmRss = process.memoryUsage().rss / 1024 / 1024;
    const warmHeap = (process.memoryUsage().heapUsed - heapBefore) / 1024 / 1024;
    const perMillion = (warmHeap / warm.size) * 1e6;
    await store.close();
    return [
      figure(
        `engine RSS with the ${(ledgerSize / 1e6).toLocaleString("en-US")}M-transfer ledger (SQLite)`,
        "MB",
        [rss],
        "<= 500",
      ),
      figure("engine peak RSS during the run", "MB", [peak]),
      figure("  the same engine with the ledger warm (in memory), RSS", "MB", [warmRss]),
      figure("  warm ledger heap per million transfers", "MB", [perMillion]),
    ];
  } finally {
    removeCopy(file);
  }
}
