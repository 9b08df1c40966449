/**
 * Warm traces of a sample of the benchmark ledger, one shape at a time, with their edges read,
 * truncation and CPU: the quick look at what a hub-heavy trace costs (for `node --cpu-prof`).
 * Per sampled transfer two traces, as a screening makes: the transfer's origin of funds and the
 * sender's address exposure. The digest is a SHA-256 of every result as JSON (floats to the last
 * bit): a change to the tracer that keeps results exact keeps it. Rounds cycle over three reads
 * of the same index, in one process: plain reads, reads that lump a hub's rows below the floor
 * (`LedgerReader.ledgerIncomingLumped`) without the reader's hop counts
 * (`ledgerIncomingCounts`, `ledgerOutgoingCounts`: a hub visit over the budget left is then read
 * before it is dropped), and lumped reads with them; rows presented counts the rows the reader
 * returned as objects. The first cycle warms up. With `pool` as fourth argument the rounds read
 * instead as a screening thread does: a `LedgerImageReader` over a ledger image of the same rows,
 * and attributions and sanctions held as given rows (`heldAttributionSource`): the pool's A/B.
 *
 * With `lumping` as fifth argument only the lumped, counted rounds run (three of them): the
 * round to profile with `node --cpu-prof`.
 *
 *   node --conditions=source --import tsx bench/src/shape/trace-stats.ts [ledgerSize=100000] [count=300] [shape=real] [index|pool] [all|lumping]
 */
import { createHash } from "node:crypto";
import {
  createEntityResolver,
  heldAttributionSource,
  heldSanctionsSource,
  LedgerImageBuilder,
  LedgerImageReader,
  LedgerIndex,
  type LedgerReader,
  type LedgerTransfer,
} from "@openkyt/core";
import { createSqliteStore } from "@openkyt/store-sqlite";
import { type LedgerShapeName, ledgerReferenceData } from "@openkyt/testkit";
import { benchShape, ledgerDatabase } from "../bench-ledger-db.js";
import { loadLedgerInto, sampleTransfers, screenedTraces, wholeReferenceResolver } from "../bench-tracing.js";

const [size = "100000", count = "300", shapeArg = "real", readerArg = "index", modesArg = "all"] =
  process.argv.slice(2);
const shape = shapeArg as LedgerShapeName;
if (readerArg !== "index" && readerArg !== "pool")
  throw new Error(`trace-stats: reader must be "index" or "pool", not "${readerArg}"`);
if (modesArg !== "all" && modesArg !== "lumping")
  throw new Error(`trace-stats: modes must be "all" or "lumping", not "${modesArg}"`);
const file = await ledgerDatabase(Number(size), shape);
const store = await createSqliteStore({ filename: file });
const sample = await sampleTransfers(store, Number(size), Number(count));
const ref = ledgerReferenceData(benchShape(Number(size), shape));

/** The reads of the warm index, or of a screening thread's image reader. */
async function warmReader(): Promise<
  Pick<
    LedgerIndex,
    "incomingSync" | "outgoingSync" | "incomingLumpedSync" | "incomingCountsSync" | "outgoingCountsSync"
  >
> {
  if (readerArg === "pool") {
    const builder = new LedgerImageBuilder();
    await loadLedgerInto(builder, file);
    return new LedgerImageReader(builder.build());
  }
  const built = new LedgerIndex();
  await loadLedgerInto(built, file);
  built.compact();
  return built;
}
const index = await warmReader();
await store.close();

/** A screening thread's resolver (held rows), or the warm process's (held whole from a store). */
async function warmResolver() {
  if (readerArg === "pool")
    return createEntityResolver({
      attributions: heldAttributionSource(ref.attributions),
      sanctions: heldSanctionsSource(ref.sanctions),
    });
  return wholeReferenceResolver(ref);
}
const resolver = await warmResolver();

/** Rows a reader presents (returns as objects), beside the edges the traces count. */
let presented = 0;
const counted = (r: ReadonlyArray<unknown>) => {
  presented += r.length;
  return r;
};
/** What a round's reader offers the tracer beside plain reads. */
interface Mode {
  readonly name: string;
  readonly lump: boolean;
  readonly counts: boolean;
}
/**
 * The index as a reader that lumps (`ledgerIncomingLumped`) or not, and counts
 * (`ledgerIncomingCounts`) or not: the A/B of one process.
 */
const readerOf = ({ lump, counts }: Mode): LedgerReader => ({
  ledgerIncoming: async (...a) => counted(index.incomingSync(...a)) as LedgerTransfer[],
  ledgerOutgoing: async (...a) => counted(index.outgoingSync(...a)) as LedgerTransfer[],
  ...(counts
    ? {
        ledgerIncomingCounts: async (...a: Parameters<LedgerIndex["incomingCountsSync"]>) =>
          index.incomingCountsSync(...a),
        ledgerOutgoingCounts: async (...a: Parameters<LedgerIndex["outgoingCountsSync"]>) =>
          index.outgoingCountsSync(...a),
      }
    : {}),
  ...(lump
    ? {
        ledgerIncomingLumped: async (...a: Parameters<LedgerIndex["incomingLumpedSync"]>) => {
          const out = index.incomingLumpedSync(...a);
          for (const l of out) if (l) presented += l.presented.length + l.tail.length;
          return out;
        },
      }
    : {}),
});
const lumping: Mode = { name: "lumping ", lump: true, counts: true };
const modes: ReadonlyArray<Mode> =
  modesArg === "lumping"
    ? [lumping]
    : [
        { name: "plain   ", lump: false, counts: true },
        { name: "lumping, no counts", lump: true, counts: false },
        lumping,
      ];
const readers = modes.map((mode) => ({ mode, ledger: readerOf(mode) }));
const digests = new Set<string>();
// Rounds cycle over the modes over the same warm index (the first cycle warms up).
for (let round = 0; round < 3 * modes.length; round++) {
  const { mode, ledger } = readers[round % modes.length] as (typeof readers)[number];
  let edges = 0;
  let addressEdges = 0;
  let truncated = 0;
  let checksum = 0;
  presented = 0;
  const digest = createHash("sha256");
  const cpu0 = process.cpuUsage();
  for (const row of sample) {
    const { transfer: r, address: a } = await screenedTraces({ ledger, resolver }, row);
    edges += r.edgesRead;
    if (r.truncated) truncated++;
    for (const s of r.shares) checksum += s.share * s.minHops + s.path.length;
    digest.update(JSON.stringify(r));
    addressEdges += a.exposure?.edgesRead ?? 0;
    digest.update(JSON.stringify(a));
  }
  const cpu = process.cpuUsage(cpu0);
  const hex = digest.digest("hex").slice(0, 16);
  digests.add(hex);
  console.log(
    `${shape} ${size} ${readerArg} ${mode.name}: ${((cpu.user + cpu.system) / 1000 / sample.length).toFixed(3)} ms CPU/transfer (2 traces), ` +
      `${(edges / sample.length).toFixed(0)} edges/transfer trace, ${(addressEdges / sample.length).toFixed(0)} edges/address trace, ` +
      `${(presented / sample.length / 2).toFixed(0)} rows presented/trace, ` +
      `${((100 * truncated) / sample.length).toFixed(0)}% truncated, checksum ${checksum}, digest ${hex}`,
  );
}
if (digests.size !== 1)
  throw new Error("trace-stats: the lumping or counted reads changed a result (digests differ)");
