/**
 * Warm traces of a sample of the benchmark ledger, one shape at a time, with their edges read,
 * truncation and CPU: the quick look at what a hub-heavy trace costs (for `node --cpu-prof`).
 *
 *   node --conditions=source --import tsx bench/src/shape/trace-stats.ts [ledgerSize=100000] [count=300] [shape=real]
 */
import {
  createEntityResolver,
  createMemoryStore,
  LedgerIndex,
  storeAttributionSource,
  storeSanctionsSource,
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
  let truncated = 0;
  let checksum = 0;
  const cpu0 = process.cpuUsage();
  for (const row of sample) {
    const r = await traceTransferExposure({
      ledger: index,
      resolver,
      network: row.network,
      tokenId: row.tokenId,
      direction: "incoming",
      counterparty: row.from,
      at: row.occurredAt,
      value: 1_000,
      span: { from: row.occurredAt, to: row.occurredAt },
    });
    edges += r.edgesRead;
    if (r.truncated) truncated++;
    for (const s of r.shares) checksum += s.share * s.minHops + s.path.length;
  }
  const cpu = process.cpuUsage(cpu0);
  console.log(
    `${shape} ${size}: ${((cpu.user + cpu.system) / 1000 / sample.length).toFixed(3)} ms CPU/trace, ` +
      `${(edges / sample.length).toFixed(0)} edges/trace, ${((100 * truncated) / sample.length).toFixed(0)}% truncated, checksum ${checksum}`,
  );
}
