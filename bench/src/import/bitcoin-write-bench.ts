/**
 * The Bitcoin import benchmark (`npm run bench -- --only bitcoin-write`): a generated UTXO
 * ledger (`generateUtxoLedger`: exchange hot wallets, consolidations, peel chains, payments with
 * change) written into a fresh SQLite file in the importer's batches (5,000 transactions, each
 * batch one `putUtxoTransactions`), along two paths in one run:
 *
 * - `port`:   `Store.putUtxoTransactions` of the SQLite store (prepared statements bound straight
 *             from each transaction: `sqlite-utxo-writer.ts`), what `openkyt import ledger
 *             --format bitcoin-core|esplora|bitcoin-blocks` calls;
 * - `kysely`: the same call through the kysely store's member (inside `store.transaction`, whose
 *             store is the kysely one): the path before.
 *
 * Both paths are measured on the first `COMPARE` transactions (before/after at the same size: the
 * rate falls as the ledger grows), then `port` on all of them.
 *
 * Only the writes are timed (generating a batch is not): transactions per second of wall time
 * and CPU milliseconds per 1,000 transactions (the process's user + system time).
 *
 *   node --conditions=source --import tsx src/import/bitcoin-write-bench.ts [--quick] [--txs N]
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { commonInputGroups, type Store, type UtxoTransaction } from "@openkyt/core";
import { createSqliteStore } from "@openkyt/store-sqlite";
import { generateUtxoLedger } from "@openkyt/testkit";
import type { Figure } from "../bench-stats.js";

const quick = process.argv.includes("--quick");
const txsAt = process.argv.indexOf("--txs");
const TXS = txsAt >= 0 ? Number(process.argv[txsAt + 1]) : quick ? 20_000 : 1_000_000;
const COMPARE = Math.min(TXS, quick ? 10_000 : 100_000);
const BATCH = 5_000;

interface Measured {
  readonly txs: number;
  readonly seconds: number;
  readonly cpuMs: number;
}

/** Writes `txs` generated transactions into a fresh SQLite file through `put`, timing only the writes. */
async function measure(
  txs: number,
  put: (store: Store, batch: ReadonlyArray<UtxoTransaction>) => Promise<number>,
): Promise<Measured> {
  const dir = mkdtempSync(join(tmpdir(), "openkyt-btc-import-"));
  const store = await createSqliteStore({ filename: join(dir, "ledger.sqlite") });
  let seconds = 0;
  let cpuMs = 0;
  let added = 0;
  try {
    let batch: UtxoTransaction[] = [];
    const flush = async () => {
      const cpu = process.cpuUsage();
      const t0 = performance.now();
      added += await put(store, batch);
      seconds += (performance.now() - t0) / 1000;
      const used = process.cpuUsage(cpu);
      cpuMs += (used.user + used.system) / 1000;
      batch = [];
    };
    for (const tx of generateUtxoLedger({ transactions: txs, seed: 11 })) {
      batch.push(tx);
      if (batch.length === BATCH) await flush();
    }
    if (batch.length > 0) await flush();
  } finally {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  }
  if (added !== txs) throw new Error(`wrote ${added} of ${txs} transactions`);
  return { txs, seconds, cpuMs };
}

const viaPort = (store: Store, batch: ReadonlyArray<UtxoTransaction>) => store.putUtxoTransactions(batch);

/**
 * Writes `txs` generated transactions through the store's bulk load (`bulkUtxoWriter`, exclusive,
 * into the empty ledger), with the clusters of their common inputs, timing the writes and the
 * commit (with the index builds and the cluster write) but not the generation.
 */
async function measureBulk(
  txs: number,
): Promise<Measured & { finishMs: number; finishCpuMs: number; rows: number }> {
  const dir = mkdtempSync(join(tmpdir(), "openkyt-btc-import-"));
  const store = await createSqliteStore({ filename: join(dir, "ledger.sqlite") });
  let seconds = 0;
  let cpuMs = 0;
  let finishMs = 0;
  let finishCpuMs = 0;
  let rows = 0;
  let added = 0;
  const timed = async <T>(fn: () => Promise<T>): Promise<T> => {
    const cpu = process.cpuUsage();
    const t0 = performance.now();
    const out = await fn();
    seconds += (performance.now() - t0) / 1000;
    const used = process.cpuUsage(cpu);
    cpuMs += (used.user + used.system) / 1000;
    return out;
  };
  try {
    const bulk = await store.bulkUtxoWriter?.({ exclusive: true });
    if (!bulk) throw new Error("the SQLite store offered no bulk UTXO load");
    const groups = new Map<string, string[][]>();
    let batch: UtxoTransaction[] = [];
    const flush = async () => {
      const found = commonInputGroups(batch);
      for (const [network, list] of found.groups)
        groups.set(network, [...(groups.get(network) ?? []), ...list]);
      const written = batch;
      await timed(() => bulk.write(written));
      batch = [];
    };
    for (const tx of generateUtxoLedger({ transactions: txs, seed: 11 })) {
      batch.push(tx);
      rows += 1 + tx.inputs.length + tx.outputs.length;
      if (batch.length === BATCH) await flush();
    }
    if (batch.length > 0) await flush();
    const t0 = performance.now();
    const cpu = process.cpuUsage();
    added = (await timed(() => bulk.finish(groups))).added;
    finishMs = performance.now() - t0;
    const used = process.cpuUsage(cpu);
    finishCpuMs = (used.user + used.system) / 1000;
  } finally {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  }
  if (added !== txs) throw new Error(`bulk wrote ${added} of ${txs} transactions`);
  return { txs, seconds, cpuMs, finishMs, finishCpuMs, rows };
}
const bulk = await measureBulk(TXS);
if (process.argv.includes("--bulk-only")) {
  console.error(
    `bulk: ${Math.round(bulk.txs / bulk.seconds)} tx/s, ${(bulk.cpuMs / (bulk.txs / 1000)).toFixed(1)} ms CPU per 1k tx, commit ${(bulk.finishCpuMs / (bulk.txs / 1000)).toFixed(1)} ms CPU per 1k tx, ${(bulk.rows / bulk.txs).toFixed(2)} rows/tx`,
  );
  process.exit(0);
}
const kysely = await measure(COMPARE, (store, batch) =>
  store.transaction((tx) => tx.putUtxoTransactions(batch)),
);
const portSmall = await measure(COMPARE, viaPort);
const port = await measure(TXS, viaPort);

const rate = (m: Measured) => m.txs / m.seconds;
const cpuPer1k = (m: Measured) => m.cpuMs / (m.txs / 1000);
const one = (name: string, unit: string, value: number, target?: string): Figure => ({
  name,
  unit,
  median: value,
  min: value,
  max: value,
  runs: 1,
  ...(target ? { target } : {}),
});
const size = (n: number) => `${n.toLocaleString("en-US")} txs`;
const figures: Figure[] = [
  one(`btc bulk load into SQLite (${size(bulk.txs)})`, "tx/s", rate(bulk), ">= 100,000 tx/s"),
  one(`btc bulk load CPU per 1,000 tx (${size(bulk.txs)})`, "ms", cpuPer1k(bulk)),
  one(`btc bulk load: rows per transaction (${size(bulk.txs)})`, "rows", bulk.rows / bulk.txs),
  one(`btc bulk load: commit wall, indexes + clusters (${size(bulk.txs)})`, "ms", bulk.finishMs),
  one(
    `btc bulk load: commit CPU per 1,000 tx, indexes + clusters (${size(bulk.txs)})`,
    "ms",
    bulk.finishCpuMs / (bulk.txs / 1000),
  ),
  one(`btc writes into SQLite, a batch at a time (${size(port.txs)})`, "tx/s", rate(port)),
  one(`btc writes CPU per 1,000 tx (${size(port.txs)})`, "ms", cpuPer1k(port)),
  one(`btc import before: kysely path (${size(kysely.txs)})`, "tx/s", rate(kysely)),
  one(`btc import before: kysely CPU per 1,000 tx (${size(kysely.txs)})`, "ms", cpuPer1k(kysely)),
  one(`btc import after: prepared statements (${size(portSmall.txs)})`, "tx/s", rate(portSmall)),
  one(`btc import after: CPU per 1,000 tx (${size(portSmall.txs)})`, "ms", cpuPer1k(portSmall)),
];
for (const f of figures)
  console.error(`${f.name}: ${Math.round(f.median).toLocaleString("en-US")} ${f.unit}`);
console.log(JSON.stringify(figures));
