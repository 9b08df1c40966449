/**
 * A/B of two checkouts' SQLite UTXO ledgers in one process (docs/benchmarks.md, "The UTXO
 * ledger in narrow form"): the SQLite store of this checkout and of another (`--other`, by
 * default /work/main, e.g. before migration 0101) bulk-load the same generated ledger in turn,
 * alternating, `--rounds` times each; then each reads its file back: the warm load's scan
 * (`scanUtxoTransactions`, all of it), `utxoTransactions` of 20,000 txids (100 a call) and
 * `utxoReceived` of 2,000 addresses (50 a call). Reported per variant and round: CPU per 1,000
 * transactions of the rows phase (`write`) and of `finish` (index builds, clusters, commit), wall
 * rate, bytes of the file per transaction, and the reads' CPU; the reads' answers are checked
 * equal across the two.
 *
 *   node --conditions=source --import tsx src/import/bitcoin-narrow-ab.ts [--txs 200000] [--rounds 2] [--other /work/main]
 */
import { mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { commonInputGroups, type Store, type UtxoTransaction } from "@openkyt/core";
import { generateUtxoLedger } from "@openkyt/testkit";

const arg = (name: string, fallback: string) => {
  const at = process.argv.indexOf(name);
  return at >= 0 ? (process.argv[at + 1] ?? fallback) : fallback;
};
const TXS = Number(arg("--txs", "200000"));
const ROUNDS = Number(arg("--rounds", "2"));
const OTHER = resolve(arg("--other", "/work/main"));
const HERE = resolve(import.meta.dirname, "../../..");
const BATCH = 5_000;

type StoreModule = typeof import("@openkyt/store-sqlite");
const variants: Array<[name: string, module: StoreModule]> = [
  ["other", (await import(join(OTHER, "packages/store-sqlite/src/index.ts"))) as StoreModule],
  ["this", (await import(join(HERE, "packages/store-sqlite/src/index.ts"))) as StoreModule],
];

const txs = [...generateUtxoLedger({ transactions: TXS, seed: 11 })];
const batches: UtxoTransaction[][] = [];
for (let at = 0; at < txs.length; at += BATCH) batches.push(txs.slice(at, at + BATCH));
const groups = new Map<string, string[][]>();
for (const batch of batches)
  for (const [network, list] of commonInputGroups(batch).groups)
    groups.set(network, [...(groups.get(network) ?? []), ...list]);
const rows = txs.reduce((n, tx) => n + 1 + tx.inputs.length + tx.outputs.length, 0);
const sampleTxids = Array.from(
  { length: 20_000 },
  (_, i) => (txs[(i * 7919) % txs.length] as UtxoTransaction).txid,
);
const addresses = [
  ...new Set(txs.flatMap((tx) => tx.outputs.map((o) => o.address)).filter((a) => a !== null)),
];
const sampleAddresses = Array.from(
  { length: 2_000 },
  (_, i) => addresses[(i * 104_729) % addresses.length] as string,
);

const cpuMs = (from: NodeJS.CpuUsage) => {
  const used = process.cpuUsage(from);
  return (used.user + used.system) / 1000;
};
const per1k = (ms: number) => (ms / (TXS / 1000)).toFixed(1);

/** Reads of a loaded store: their CPU and a fingerprint of their answers. */
async function reads(
  store: Store,
): Promise<{ scanMs: number; txMs: number; receivedMs: number; print: string }> {
  let c = process.cpuUsage();
  let scanned = 0;
  let print = 0;
  for (let after = 0; ; ) {
    const page = await store.scanUtxoTransactions?.(after, 5_000);
    if (!page || page.txs.length === 0) break;
    for (const tx of page.txs)
      print = (print * 31 + tx.outputs.length * 7 + tx.inputs.length) % 1_000_000_007;
    scanned += page.txs.length;
    after = page.last;
  }
  if (scanned !== TXS) throw new Error(`scanned ${scanned} of ${TXS}`);
  const scanMs = cpuMs(c);
  c = process.cpuUsage();
  let spent = 0;
  for (let at = 0; at < sampleTxids.length; at += 100)
    for (const tx of await store.utxoTransactions("BTC", sampleTxids.slice(at, at + 100)))
      for (const o of tx.outputs) if (o.spentBy) spent++;
  const txMs = cpuMs(c);
  c = process.cpuUsage();
  let received = 0;
  for (let at = 0; at < sampleAddresses.length; at += 50) {
    const queries = sampleAddresses
      .slice(at, at + 50)
      .map((address) => ({ address, before: Number.MAX_SAFE_INTEGER }));
    for (const r of await store.utxoReceived("BTC", queries, 20)) received += r.value % 1000;
  }
  const receivedMs = cpuMs(c);
  return { scanMs, txMs, receivedMs, print: `${print}/${spent}/${received}` };
}

console.log(`${TXS} txs, ${(rows / TXS).toFixed(2)} rows/tx, other = ${OTHER}, this = ${HERE}`);
const prints = new Map<string, string>();
for (let round = 1; round <= ROUNDS; round++) {
  for (const [name, module] of variants) {
    const dir = mkdtempSync(join(tmpdir(), "narrow-ab-"));
    const file = join(dir, "ledger.sqlite");
    const store = await module.createSqliteStore({ filename: file });
    try {
      const bulk = await store.bulkUtxoWriter?.({ exclusive: true });
      if (!bulk) throw new Error("no bulk UTXO load");
      const t0 = performance.now();
      let c = process.cpuUsage();
      for (const batch of batches) await bulk.write(batch);
      const writeMs = cpuMs(c);
      c = process.cpuUsage();
      const { added } = await bulk.finish(groups);
      const finishMs = cpuMs(c);
      const wall = (performance.now() - t0) / 1000;
      if (added !== TXS) throw new Error(`${name}: wrote ${added} of ${TXS}`);
      const bytes = statSync(file).size;
      const r = await reads(store);
      const seen = prints.get(name === "this" ? "other" : "this");
      if (seen !== undefined && seen !== r.print) throw new Error(`reads differ: ${seen} against ${r.print}`);
      prints.set(name, r.print);
      console.log(
        `round ${round} ${name.padEnd(5)}: load ${Math.round(TXS / wall)} tx/s, CPU per 1k tx write ${per1k(writeMs)} + finish ${per1k(finishMs)} = ${per1k(writeMs + finishMs)} ms, ${Math.round(bytes / TXS)} B/tx; reads CPU per 1k: scan ${per1k(r.scanMs)} ms, utxoTransactions ${(r.txMs / 20).toFixed(1)} ms per 1k txids, utxoReceived ${(r.receivedMs / 2).toFixed(1)} ms per 1k addresses`,
      );
    } finally {
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    }
  }
}
console.log(
  `load average ${(await import("node:os"))
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(" ")}`,
);
