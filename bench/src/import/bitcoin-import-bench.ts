/**
 * Bitcoin import speed: a generated ledger (see bitcoin-ledger-files.ts; 100,000 transactions,
 * 5,000 with --quick) imported into a fresh SQLite file in each format `openkyt import ledger`
 * reads (`importFile`, as the command calls it), three runs each; transactions per second of
 * the whole import (reading, checking, writing). Prints its figures as JSON on the last line.
 *
 *   node --conditions=source --import tsx bench/src/import/bitcoin-import-bench.ts [--quick] [--txs N]
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { importFile } from "@openkyt/datasets";
import { createSqliteStore } from "@openkyt/store-sqlite";
import { type Figure, figure } from "../bench-stats.js";
import { writeBitcoinLedger } from "./bitcoin-ledger-files.js";

const quick = process.argv.includes("--quick");
const txsAt = process.argv.indexOf("--txs");
const wanted = txsAt >= 0 ? Number(process.argv[txsAt + 1]) : quick ? 5_000 : 100_000;
const runs = quick ? 1 : 3;

const dir = mkdtempSync(join(tmpdir(), "openkyt-bitcoin-bench-"));
try {
  const started = performance.now();
  const files = writeBitcoinLedger(dir, wanted);
  console.error(
    `generated ${files.transactions.toLocaleString("en-US")} transactions in ${files.blocks} blocks in ${Math.round(performance.now() - started)} ms`,
  );
  const figures: Figure[] = [];
  for (const [format, file] of [
    ["bitcoin-core", files.core],
    ["esplora", files.esplora],
    ["bitcoin-blocks", files.blk],
  ] as const) {
    const rates: number[] = [];
    for (let run = 0; run < runs; run++) {
      const store = await createSqliteStore({ filename: join(dir, `${format}-${run}.db`) });
      try {
        const summary = await importFile(store, { kind: "ledger", file, format, exclusiveStore: true });
        if (summary.added !== files.transactions || summary.rejected !== 0)
          throw new Error(
            `${format}: ${summary.added} added, ${summary.rejected} rejected of ${files.transactions}`,
          );
        rates.push(summary.added / (summary.durationMs / 1000));
      } finally {
        await store.close();
      }
    }
    console.error(`${format}: ${rates.map((r) => Math.round(r)).join(", ")} tx/s`);
    figures.push(
      figure(
        `bitcoin import ${format} (${files.transactions.toLocaleString("en-US")} txs into SQLite)`,
        "tx/s",
        rates,
      ),
    );
  }
  console.log(JSON.stringify(figures));
} finally {
  rmSync(dir, { recursive: true, force: true });
}
