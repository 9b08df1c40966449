/** Memory: the resident set of an engine over the SQLite file holding the generated ledger. */
import { createEngine } from "@openkyt/core";
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
    await store.close();
    return [
      figure(
        `engine RSS with the ${(ledgerSize / 1e6).toLocaleString("en-US")}M-transfer ledger (SQLite)`,
        "MB",
        [rss],
        "<= 500",
      ),
      figure("engine peak RSS during the run", "MB", [peak]),
    ];
  } finally {
    removeCopy(file);
  }
}
