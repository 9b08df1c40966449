/**
 * What a screening thread pays when it is given labels again: it makes a new resolver of the
 * rows (`heldAttributionSource`, `heldSanctionsSource`: a new screen), and its
 * `LedgerImageReader` drops every hub's lumps and builds them again on the next reads. Until
 * floor33 the pool posted the labels every 30 s whether or not they had changed. In one process,
 * over one image, rounds alternate: the same resolver kept (what the pool does now when the rows
 * are the same), and a new resolver of the same rows (what it did). Prints each round's trace CPU
 * per transfer (two traces each), that of its first tenth of transfers (where the lumps are
 * rebuilt), and the digest (the results must not differ).
 *
 *   node --conditions=source --import tsx bench/src/shape/relabel-cost.ts [ledgerSize=1000000] [count=200] [shape=real] [pairs=3]
 */
import { createHash } from "node:crypto";
import {
  createEntityResolver,
  type EntityResolver,
  heldAttributionSource,
  heldSanctionsSource,
  LedgerImageBuilder,
  LedgerImageReader,
  traceAddressExposure,
  traceTransferExposure,
} from "@openkyt/core";
import { createSqliteStore } from "@openkyt/store-sqlite";
import { type LedgerShapeName, ledgerReferenceData } from "@openkyt/testkit";
import { benchShape, ledgerDatabase } from "../bench-ledger-db.js";
import { loadLedgerInto, sampleTransfers } from "../bench-tracing.js";

const [size = "1000000", count = "200", shapeArg = "real", pairsArg = "3"] = process.argv.slice(2);
const shape = shapeArg as LedgerShapeName;
const file = await ledgerDatabase(Number(size), shape);
const store = await createSqliteStore({ filename: file });
const sample = await sampleTransfers(store, Number(size), Number(count));
await store.close();
const ref = ledgerReferenceData(benchShape(Number(size), shape));
const builder = new LedgerImageBuilder();
await loadLedgerInto(builder, file);
const ledger = new LedgerImageReader(builder.build());
/** A thread's resolver as `screening-thread.ts` makes it from the rows it is given. */
const resolverOf = (): EntityResolver =>
  createEntityResolver({
    attributions: heldAttributionSource(ref.attributions),
    sanctions: heldSanctionsSource(ref.sanctions),
  });

let resolver = resolverOf();
const head = Math.max(1, Math.floor(sample.length / 10));
for (let round = 0; round < 1 + 2 * Number(pairsArg); round++) {
  const relabelled = round > 0 && round % 2 === 0;
  if (relabelled) resolver = resolverOf();
  const digest = createHash("sha256");
  const cpu0 = process.cpuUsage();
  let headMs = 0;
  for (const [i, row] of sample.entries()) {
    const span = { from: row.occurredAt, to: row.occurredAt };
    const common = { ledger, resolver, network: row.network, tokenId: row.tokenId, span };
    const r = await traceTransferExposure({
      ...common,
      direction: "incoming",
      counterparty: row.from,
      at: row.occurredAt,
      value: 1_000,
    });
    const a = await traceAddressExposure({
      ...common,
      address: row.from,
      side: "sender",
      at: row.occurredAt,
    });
    digest.update(JSON.stringify(r));
    digest.update(JSON.stringify(a));
    if (i + 1 === head) {
      const c = process.cpuUsage(cpu0);
      headMs = (c.user + c.system) / 1000;
    }
  }
  const cpu = process.cpuUsage(cpu0);
  const ms = (cpu.user + cpu.system) / 1000;
  const label = round === 0 ? "warm-up" : relabelled ? "new resolver, same rows" : "same resolver";
  console.log(
    `${shape} ${size}, round ${round} (${label.padEnd(23)}): ${(ms / sample.length).toFixed(2)} ms CPU per transfer; first ${head} transfers ${headMs.toFixed(0)} ms in all; digest ${digest.digest("hex").slice(0, 16)}`,
  );
}
