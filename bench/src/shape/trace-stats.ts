/**
 * Warm traces of a sample of the benchmark ledger, one shape at a time, with their edges read,
 * truncation and CPU: the quick look at what a hub-heavy trace costs (for `node --cpu-prof`).
 * Per sampled transfer two traces, as a screening makes: the transfer's origin of funds and the
 * sender's address exposure. The digest is a SHA-256 of every result as JSON (floats to the last
 * bit): a change to the tracer that keeps results exact keeps it.
 *
 *   node --conditions=source --import tsx bench/src/shape/trace-stats.ts [ledgerSize=100000] [count=300] [shape=real]
 */
import { createHash } from "node:crypto";
import {
  createEntityResolver,
  createMemoryStore,
  LedgerIndex,
  storeAttributionSource,
  storeSanctionsSource,
  traceAddressExposure,
  traceTransferExposure,
} from "@openkyt/core";
import { createSqliteStore } from "@openkyt/store-sqlite";
import { type LedgerShapeName, ledgerReferenceData } from "@openkyt/testkit";
import { benchShape, ledgerDatabase } from "../bench-ledger-db.js";
import { loadLedgerInto, sampleTransfers } from "../bench-tracing.js";

const [size = "100000", count = "300", shapeArg = "real"] = process.argv.slice(2);
const shape = shapeArg as LedgerShapeName;
const file = await ledgerDatabase(Number(size), shape);
const store = await createSqliteStore({ filename: file });
const sample = await sampleTransfers(store, Number(size), Number(count));
const index = new LedgerIndex();
await loadLedgerInto(index, file);
await store.close();
index.compact();
const memory = createMemoryStore();
const ref = ledgerReferenceData(benchShape(Number(size), shape));
await memory.putAttributions(ref.attributions);
await memory.putSanctions(ref.sanctions);
const resolver = createEntityResolver({
  attributions: storeAttributionSource(memory),
  sanctions: storeSanctionsSource(memory),
});
for (let round = 0; round < 2; round++) {
  let edges = 0;
  let addressEdges = 0;
  let truncated = 0;
  let checksum = 0;
  const digest = createHash("sha256");
  const cpu0 = process.cpuUsage();
  for (const row of sample) {
    const span = { from: row.occurredAt, to: row.occurredAt };
    const r = await traceTransferExposure({
      ledger: index,
      resolver,
      network: row.network,
      tokenId: row.tokenId,
      direction: "incoming",
      counterparty: row.from,
      at: row.occurredAt,
      value: 1_000,
      span,
    });
    edges += r.edgesRead;
    if (r.truncated) truncated++;
    for (const s of r.shares) checksum += s.share * s.minHops + s.path.length;
    digest.update(JSON.stringify(r));
    const a = await traceAddressExposure({
      ledger: index,
      resolver,
      network: row.network,
      tokenId: row.tokenId,
      address: row.from,
      side: "sender",
      at: row.occurredAt,
      span,
    });
    addressEdges += a.exposure?.edgesRead ?? 0;
    digest.update(JSON.stringify(a));
  }
  const cpu = process.cpuUsage(cpu0);
  console.log(
    `${shape} ${size}: ${((cpu.user + cpu.system) / 1000 / sample.length).toFixed(3)} ms CPU/transfer (2 traces), ` +
      `${(edges / sample.length).toFixed(0)} edges/transfer trace, ${(addressEdges / sample.length).toFixed(0)} edges/address trace, ` +
      `${((100 * truncated) / sample.length).toFixed(0)}% truncated, checksum ${checksum}, digest ${digest.digest("hex").slice(0, 16)}`,
  );
}
