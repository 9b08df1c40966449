/**
 * What the conflict look-up after a bulk Bitcoin import cost when it asked about every cluster
 * of the file (before `UtxoBulkOutcome.contestable`; docs/benchmarks.md, "Bitcoin import end to
 * end"): imports the Esplora file `bitcoin-import-bench.ts --data DIR` kept into a fresh SQLite
 * file, then asks `clusterConflictsInStore` about every cluster it made, three times, and
 * prints the CPU of each ask per 1,000 imported transactions.
 *
 *   node --conditions=source --import tsx src/import/bitcoin-conflict-lookup.ts --data DIR [--txs 200000]
 */
import { readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { clusterConflictsInStore } from "@openkyt/core";
import { importFile } from "@openkyt/datasets";
import { createSqliteStore } from "@openkyt/store-sqlite";
import BetterSqlite3 from "better-sqlite3";
import type { BitcoinLedgerFiles } from "./bitcoin-ledger-files.js";

const arg = (name: string, fallback: string) => {
  const at = process.argv.indexOf(name);
  return at >= 0 ? (process.argv[at + 1] ?? fallback) : fallback;
};
const TXS = Number(arg("--txs", "200000"));
const DATA = arg("--data", "");
if (DATA === "") throw new Error("--data DIR: the files bitcoin-import-bench.ts --data DIR kept");
const files = JSON.parse(
  readFileSync(join(DATA, `bitcoin-${TXS}`, "files.json"), "utf8"),
) as BitcoinLedgerFiles;
const db = join(DATA, "conflict-lookup.db");
rmSync(db, { force: true });
const store = await createSqliteStore({ filename: db });
try {
  await importFile(store, { kind: "ledger", file: files.esplora, format: "esplora", exclusiveStore: true });
  const raw = new BetterSqlite3(db, { readonly: true });
  const ids = raw
    .prepare("SELECT cluster_id FROM utxo_cluster_sizes WHERE network = 'BTC' ORDER BY cluster_id")
    .pluck()
    .all() as string[];
  raw.close();
  console.log(`${ids.length} clusters`);
  for (let round = 0; round < 3; round++) {
    const cpu = process.cpuUsage();
    const found = await clusterConflictsInStore(store, "BTC", ids);
    const used = process.cpuUsage(cpu);
    const ms = (used.user + used.system) / 1000;
    console.log(
      `every cluster asked: ${found.length} conflicts, ${ms.toFixed(0)} ms CPU, ${(ms / (files.transactions / 1000)).toFixed(1)} ms per 1,000 tx`,
    );
  }
} finally {
  await store.close();
  rmSync(db, { force: true });
}
