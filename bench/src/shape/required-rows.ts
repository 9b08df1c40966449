/**
 * What an exact trace must present, and what it costs per transfer, on a benchmark ledger: the
 * limit arithmetic of issue 33, measured. The same sample and traces as `trace-stats.ts` (per
 * transfer the origin-of-funds trace and the sender's address trace, over the warm `LedgerIndex`
 * with lumped reads and counts, the resolver held whole), one classifying round after one
 * warm-up round. Every presented row is put in one class:
 *
 * - plain read, sender may resolve / may not (addresses with fewer than 128 incoming rows, and
 *   forward reads: read whole);
 * - lumped, sender may resolve (the screen: an exact result credits its child to its category);
 * - lumped, part may reach the floor on this visit alone (its child is followed);
 * - lumped, the child another row of the sender shares (same position: the children merge);
 * - lumped, the rest (the heaviest unpresented candidate and its near ties, parts of several
 *   visits, the node's own time);
 *
 * and prints them per trace, with each transfer's trace CPU (both traces) by percentile, and
 * the digest of every result (the same as trace-stats' lumped rounds).
 *
 *   node --conditions=source --import tsx bench/src/shape/required-rows.ts [ledgerSize=1000000] [count=200] [shape=real]
 */
import { createHash } from "node:crypto";
import { LedgerIndex, type LedgerReader, type LedgerTransfer } from "@openkyt/core";
import { createSqliteStore } from "@openkyt/store-sqlite";
import { type LedgerShapeName, ledgerReferenceData } from "@openkyt/testkit";
import { benchShape, ledgerDatabase } from "../bench-ledger-db.js";
import { percentile } from "../bench-stats.js";
import { loadLedgerInto, sampleTransfers, screenedTraces, wholeReferenceResolver } from "../bench-tracing.js";

const [size = "1000000", count = "200", shapeArg = "real"] = process.argv.slice(2);
const shape = shapeArg as LedgerShapeName;
const file = await ledgerDatabase(Number(size), shape);
const store = await createSqliteStore({ filename: file });
const sample = await sampleTransfers(store, Number(size), Number(count));
const ref = ledgerReferenceData(benchShape(Number(size), shape));
const index = new LedgerIndex();
await loadLedgerInto(index, file);
index.compact();
await store.close();

const resolver = await wholeReferenceResolver(ref);
const screen = resolver.addressScreen?.("ETH");
if (!screen) throw new Error("required-rows: the resolver names no addresses that may resolve");

const CLASSES = [
  "plain read, sender may resolve",
  "plain read, sender may not",
  "lumped, sender may resolve",
  "lumped, part may reach the floor",
  "lumped, child shared with another row",
  "lumped, the rest (heaviest, several visits, own time)",
] as const;
type Class = (typeof CLASSES)[number];
let classify = false;
const tally = new Map<Class, number>(CLASSES.map((c) => [c, 0]));
const add = (c: Class, n = 1) => {
  if (classify) tally.set(c, (tally.get(c) ?? 0) + n);
};

/** Whether another row of `r`'s sender is at its position (same time, block and log index). */
function sharesChild(r: LedgerTransfer): boolean {
  const out = index.outgoingSync(r.network, r.tokenId, [{ address: r.from, after: r.occurredAt - 1 }], 64);
  return out.some(
    (o) =>
      o !== r &&
      o.txHash + o.logIndex !== r.txHash + r.logIndex &&
      o.occurredAt === r.occurredAt &&
      o.block === r.block &&
      (o.block === null || o.logIndex === r.logIndex),
  );
}

const plain = (rows: ReadonlyArray<LedgerTransfer>): LedgerTransfer[] => {
  for (const r of rows) add(screen.mayResolve(r.from) ? CLASSES[0] : CLASSES[1]);
  return rows as LedgerTransfer[];
};
const ledger: LedgerReader = {
  ledgerIncoming: async (...a) => plain(index.incomingSync(...a)),
  ledgerOutgoing: async (...a) => plain(index.outgoingSync(...a)),
  ledgerIncomingCounts: async (...a) => index.incomingCountsSync(...a),
  ledgerOutgoingCounts: async (...a) => index.outgoingCountsSync(...a),
  ledgerIncomingLumped: async (network, tokenId, queries, s) => {
    const out = index.incomingLumpedSync(network, tokenId, queries, s);
    if (classify)
      for (const [i, l] of out.entries()) {
        if (!l) continue;
        const q = queries[i] as (typeof queries)[number];
        const per = q.weight / l.prefixSum;
        for (const r of l.presented) {
          if (screen.mayResolve(r.from)) add(CLASSES[2]);
          else if (r.amount * per >= q.floor * (1 - 1e-9)) add(CLASSES[3]);
          else if (sharesChild(r)) add(CLASSES[4]);
          else add(CLASSES[5]);
        }
        for (const r of l.tail) add(screen.mayResolve(r.from) ? CLASSES[2] : CLASSES[5]);
      }
    return out;
  },
};

for (const round of ["warm-up", "classified"]) {
  classify = round === "classified";
  for (const c of CLASSES) tally.set(c, 0);
  const digest = createHash("sha256");
  const perTransfer: number[] = [];
  let edges = 0;
  for (const row of sample) {
    const cpu0 = process.cpuUsage();
    const { transfer: r, address: a } = await screenedTraces({ ledger, resolver }, row);
    const cpu = process.cpuUsage(cpu0);
    perTransfer.push((cpu.user + cpu.system) / 1000);
    edges += r.edgesRead + (a.exposure?.edgesRead ?? 0);
    digest.update(JSON.stringify(r));
    digest.update(JSON.stringify(a));
  }
  const traces = 2 * sample.length;
  const total = [...tally.values()].reduce((a, b) => a + b, 0);
  const mean = perTransfer.reduce((a, b) => a + b, 0) / perTransfer.length;
  const top = [...perTransfer].sort((a, b) => b - a);
  const topShare = top.slice(0, Math.ceil(top.length / 100)).reduce((a, b) => a + b, 0) / (mean * top.length);
  console.log(
    `${shape} ${size}, ${round} round, ${sample.length} transfers: digest ${digest.digest("hex").slice(0, 16)}, ${(edges / traces).toFixed(0)} edges counted per trace`,
  );
  console.log(
    `  trace CPU per transfer (2 traces, includes classifying in the classified round): mean ${mean.toFixed(2)} ms, p50 ${percentile(perTransfer, 50).toFixed(2)}, p90 ${percentile(perTransfer, 90).toFixed(2)}, p99 ${percentile(perTransfer, 99).toFixed(2)}, max ${top[0]?.toFixed(2)}; the top 1% of transfers hold ${(topShare * 100).toFixed(0)}% of it; over 50 ms: ${perTransfer.filter((x) => x > 50).length}`,
  );
  if (classify) {
    console.log(`  rows presented per trace: ${(total / traces).toFixed(0)}`);
    for (const c of CLASSES)
      console.log(`    ${c.padEnd(56)} ${((tally.get(c) ?? 0) / traces).toFixed(1).padStart(8)}`);
  }
}
