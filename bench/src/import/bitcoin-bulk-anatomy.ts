/**
 * Where a bulk UTXO load's work goes (the arithmetic behind the import target in
 * docs/benchmarks.md): a generated ledger (`generateUtxoLedger`) bulk-loaded into a fresh SQLite
 * file, then, on the committed file, per table and index its rows and bytes per transaction
 * (`dbstat`) and the CPU of building each index again from one sort (dropped and created inside
 * a transaction that is rolled back, with the bulk load's sorter pragmas).
 *
 *   node --conditions=source --import tsx src/import/bitcoin-bulk-anatomy.ts [--txs N]
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { commonInputGroups, type UtxoTransaction } from "@openkyt/core";
import { createSqliteStore } from "@openkyt/store-sqlite";
import { generateUtxoLedger } from "@openkyt/testkit";
import Database from "better-sqlite3";

const txsAt = process.argv.indexOf("--txs");
const TXS = txsAt >= 0 ? Number(process.argv[txsAt + 1]) : 200_000;
const BATCH = 5_000;

const cpuMs = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};

const dir = mkdtempSync(join(tmpdir(), "openkyt-btc-anatomy-"));
const file = join(dir, "ledger.sqlite");
try {
  const store = await createSqliteStore({ filename: file });
  const bulk = await store.bulkUtxoWriter?.({ exclusive: true });
  if (!bulk) throw new Error("the SQLite store offered no bulk UTXO load");
  const groups = new Map<string, string[][]>();
  let batch: UtxoTransaction[] = [];
  let writeCpu = 0;
  const flush = async () => {
    for (const [network, list] of commonInputGroups(batch).groups)
      groups.set(network, [...(groups.get(network) ?? []), ...list]);
    const c0 = cpuMs();
    await bulk.write(batch);
    writeCpu += cpuMs() - c0;
    batch = [];
  };
  for (const tx of generateUtxoLedger({ transactions: TXS, seed: 11 })) {
    batch.push(tx);
    if (batch.length === BATCH) await flush();
  }
  if (batch.length > 0) await flush();
  const c0 = cpuMs();
  await bulk.finish(groups);
  const finishCpu = cpuMs() - c0;
  await store.close();
  const per1k = (ms: number) => (ms / (TXS / 1000)).toFixed(2);
  console.log(
    `rows written: ${per1k(writeCpu)} ms CPU per 1k tx; finish (indexes + clusters): ${per1k(finishCpu)}`,
  );

  const sqlite = new Database(file);
  const stat = sqlite
    .prepare(
      "SELECT name, sum(pgsize) AS bytes, sum(ncell) AS cells FROM dbstat WHERE name LIKE 'utxo%' GROUP BY name ORDER BY bytes DESC",
    )
    .all() as Array<{ name: string; bytes: number; cells: number }>;
  let total = 0;
  for (const s of stat) {
    total += s.bytes;
    console.log(
      `${s.name.padEnd(28)} ${(s.bytes / TXS).toFixed(1).padStart(7)} bytes/tx ${(s.cells / TXS).toFixed(2).padStart(6)} cells/tx`,
    );
  }
  console.log(`${"all utxo tables and indexes".padEnd(28)} ${(total / TXS).toFixed(1).padStart(7)} bytes/tx`);
  sqlite.pragma("cache_size = -8192");
  sqlite.pragma("threads = 4");
  const indexes = sqlite
    .prepare(
      "SELECT name, sql FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL AND tbl_name LIKE 'utxo%' ORDER BY tbl_name, name",
    )
    .all() as Array<{ name: string; sql: string }>;
  for (const index of indexes) {
    sqlite.exec("BEGIN");
    sqlite.exec(`DROP INDEX "${index.name}"`);
    const c1 = cpuMs();
    const t1 = performance.now();
    sqlite.exec(index.sql);
    const c = cpuMs() - c1;
    const t = performance.now() - t1;
    sqlite.exec("ROLLBACK");
    console.log(
      `build ${index.name.padEnd(28)} ${per1k(c).padStart(6)} ms CPU per 1k tx (${Math.round(t)} ms wall)`,
    );
  }
  sqlite.close();
} finally {
  rmSync(dir, { recursive: true, force: true });
}
