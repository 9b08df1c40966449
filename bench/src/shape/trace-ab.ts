/**
 * The tracer of this checkout against the tracer of another checkout, in one process, rounds
 * alternating: the A/B of a change to tracing that a noisy shared machine cannot show by two
 * runs one after the other (CPU per transfer moves by a third between runs with the load).
 *
 * Each side builds its own screening thread's view of the same rows, with its own classes: a
 * `LedgerImageReader` over a ledger image of the benchmark ledger (`pool`, the default), or the
 * warm `LedgerIndex` the README's inline embedding traces over (`index`), and a resolver over
 * the attributions and sanctions held as given rows. Per sampled transfer the two traces of a
 * screening (the transfer's origin of funds and the sender's address exposure, as
 * `screenedTraces`). Rounds run A, B, A, B, ... after one warm-up round each; per round the
 * CPU per transfer, then per side the median and the ratio of the medians. The digest of every
 * result (JSON, floats to the last bit) must be the same on both sides: a change that keeps
 * results exact keeps it, and the run fails otherwise.
 *
 *   node --conditions=source --import tsx bench/src/shape/trace-ab.ts <other checkout> [ledgerSize=1000000] [count=600] [rounds=4] [shape=real] [pool|index]
 *
 * The other checkout must have its dependencies installed (its `packages/core/src` is imported
 * as source). A is the other checkout, B this one.
 */
import { createHash } from "node:crypto";
import { resolve } from "node:path";
import type { LedgerTransfer } from "@openkyt/core";
import * as here from "@openkyt/core";
import { createSqliteStore } from "@openkyt/store-sqlite";
import { type LedgerShapeName, ledgerReferenceData } from "@openkyt/testkit";
import { benchShape, ledgerDatabase } from "../bench-ledger-db.js";
import { percentile } from "../bench-stats.js";
import { loadLedgerInto, sampleTransfers } from "../bench-tracing.js";

const [other, size = "1000000", count = "600", roundsArg = "4", shapeArg = "real", readerArg = "pool"] =
  process.argv.slice(2);
if (readerArg !== "pool" && readerArg !== "index")
  throw new Error(`trace-ab: reader must be "pool" or "index", not "${readerArg}"`);
if (!other) throw new Error("trace-ab: the other checkout's folder is required (first argument)");
const rounds = Number(roundsArg);
if (!Number.isInteger(rounds) || rounds < 1)
  throw new Error(`trace-ab: rounds must be a whole number >= 1, not ${roundsArg}`);
const shape = shapeArg as LedgerShapeName;

type Core = typeof here;
const there = (await import(resolve(other, "packages/core/src/index.ts"))) as Core;

const file = await ledgerDatabase(Number(size), shape);
const store = await createSqliteStore({ filename: file });
const sample = await sampleTransfers(store, Number(size), Number(count));
await store.close();
const ref = ledgerReferenceData(benchShape(Number(size), shape));
const rows: LedgerTransfer[] = [];
await loadLedgerInto({ add: (r: ReadonlyArray<LedgerTransfer>) => rows.push(...r) }, file);

/** One side: its own image, reader and resolver, and its trace functions. */
function side(core: Core) {
  const builder = readerArg === "pool" ? new core.LedgerImageBuilder() : new core.LedgerIndex();
  for (let i = 0; i < rows.length; i += 100_000) builder.add(rows.slice(i, i + 100_000));
  let ledger: here.LedgerReader;
  if (builder instanceof core.LedgerIndex) {
    builder.compact();
    ledger = builder;
  } else ledger = new core.LedgerImageReader(builder.build());
  const resolver = core.createEntityResolver({
    attributions: core.heldAttributionSource(ref.attributions),
    sanctions: core.heldSanctionsSource(ref.sanctions),
  });
  return async (row: LedgerTransfer): Promise<string> => {
    const span = { from: row.occurredAt, to: row.occurredAt };
    const common = { ledger, resolver, network: row.network, tokenId: row.tokenId, at: row.occurredAt, span };
    const transfer = await core.traceTransferExposure({
      ...common,
      direction: "incoming",
      counterparty: row.from,
      value: 1_000,
    });
    const address = await core.traceAddressExposure({ ...common, address: row.from, side: "sender" });
    return JSON.stringify(transfer) + JSON.stringify(address);
  };
}

const sides = [
  { name: "A (other)", trace: side(there), cpu: [] as number[], digests: new Set<string>() },
  { name: "B (this) ", trace: side(here), cpu: [] as number[], digests: new Set<string>() },
];
rows.length = 0;
for (let round = -1; round < rounds; round++) {
  for (const s of sides) {
    const digest = createHash("sha256");
    const cpu0 = process.cpuUsage();
    for (const row of sample) digest.update(await s.trace(row));
    const cpu = process.cpuUsage(cpu0);
    const ms = (cpu.user + cpu.system) / 1000 / sample.length;
    s.digests.add(digest.digest("hex").slice(0, 16));
    if (round >= 0) s.cpu.push(ms);
    console.log(
      `${round < 0 ? "warm-up" : `round ${round + 1}`} ${s.name}: ${ms.toFixed(3)} ms CPU/transfer (2 traces)`,
    );
  }
}
const median = (xs: number[]) => percentile(xs, 50);
const [a, b] = sides as [(typeof sides)[number], (typeof sides)[number]];
const digests = new Set([...a.digests, ...b.digests]);
console.log(
  `${shape} ${size} ${readerArg}, ${sample.length} transfers: A median ${median(a.cpu).toFixed(3)} ms, B median ${median(b.cpu).toFixed(3)} ms, ` +
    `B/A ${(median(b.cpu) / median(a.cpu)).toFixed(3)}; digests ${[...digests].join(", ")}`,
);
if (digests.size !== 1) throw new Error("trace-ab: the two tracers' results differ (digests differ)");
