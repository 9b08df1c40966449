/**
 * The one-database baseline the scaling plan rests on: on this machine's Postgres, how fast the
 * store takes in ledger rows, and how long a 5-hop trace takes when every hop is read from
 * Postgres, one at a time and several at once. Uses bench's generated ledger (testkit's
 * realistic shape) in a throwaway schema.
 *
 *   node --conditions=source --import tsx bench/src/crash/postgres-baseline.ts \
 *     [--db postgres://127.0.0.1:5432/test] [--ledger 1000000] [--traces 300] [--parallel 8] [--keep]
 */
import {
  createEntityResolver,
  type LedgerTransfer,
  storeAttributionSource,
  storeSanctionsSource,
  traceTransferExposure,
} from "@openkyt/core";
import { createPostgresStore, dropSchema, openPostgresDatabase } from "@openkyt/store-postgres";
import { ledgerReferenceData, ledgerRows } from "@openkyt/testkit";
import { benchShape } from "../bench-ledger-db.js";
import { percentile } from "../bench-stats.js";
import { sampleTransfers } from "../bench-tracing.js";

const arg = (flag: string) => {
  const at = process.argv.indexOf(flag);
  return at >= 0 ? process.argv[at + 1] : undefined;
};
const url = arg("--db") ?? process.env.OPENKYT_TEST_PG_URL ?? "postgres://127.0.0.1:5432/test";
const ledgerSize = Number(arg("--ledger") ?? 1_000_000);
const traces = Number(arg("--traces") ?? 300);
const parallel = Number(arg("--parallel") ?? 8);
const schema = "kyt_baseline";
const CHUNK = 20_000;

const store = await createPostgresStore({
  connectionString: url,
  schema,
  migrate: true,
  pool: { max: parallel + 2 },
});
try {
  const shape = benchShape(ledgerSize);
  const ref = ledgerReferenceData(shape);
  await store.putAttributions(ref.attributions);
  await store.putSanctions(ref.sanctions);
  let written = 0;
  let writing = 0;
  let chunk: LedgerTransfer[] = [];
  const flush = async () => {
    const t0 = performance.now();
    written += await store.putLedgerTransfers(chunk);
    writing += performance.now() - t0;
    chunk = [];
  };
  for (const row of ledgerRows(shape)) {
    chunk.push(row);
    if (chunk.length === CHUNK) await flush();
  }
  if (chunk.length > 0) await flush();
  const rowsPerSecond = written / (writing / 1000);

  const resolver = createEntityResolver({
    attributions: storeAttributionSource(store),
    sanctions: storeSanctionsSource(store),
  });
  const sample = await sampleTransfers(store, ledgerSize, traces);
  const trace = async (row: LedgerTransfer) => {
    const t0 = performance.now();
    const result = await traceTransferExposure({
      ledger: store,
      resolver,
      network: row.network,
      tokenId: row.tokenId,
      direction: "incoming",
      counterparty: row.from,
      at: row.occurredAt,
      value: 1_000,
      span: { from: row.occurredAt, to: row.occurredAt },
      maxHops: 5,
      edgeBudget: 10_000,
    });
    return { ms: performance.now() - t0, edges: result.edgesRead, hops: result.hops };
  };
  const serial = [];
  for (const row of sample) serial.push(await trace(row));
  const t0 = performance.now();
  const queue = [...sample];
  const concurrent: Array<{ ms: number }> = [];
  await Promise.all(
    Array.from({ length: parallel }, async () => {
      for (let row = queue.shift(); row; row = queue.shift()) concurrent.push(await trace(row));
    }),
  );
  const concurrentSeconds = (performance.now() - t0) / 1000;
  const ms = serial.map((s) => s.ms);
  const lines: Array<[string, string]> = [
    ["ledger rows written", written.toLocaleString("en-US")],
    ["ingest through the store (chunks of 20k, one transaction each)", `${rowsPerSecond.toFixed(0)} rows/s`],
    [
      "5-hop trace, one at a time: p50 / p95 / p99",
      `${[50, 95, 99].map((p) => percentile(ms, p).toFixed(1)).join(" / ")} ms`,
    ],
    ["edges read per trace (mean)", (serial.reduce((a, s) => a + s.edges, 0) / serial.length).toFixed(0)],
    [`5-hop traces, ${parallel} at once`, `${(sample.length / concurrentSeconds).toFixed(1)} traces/s`],
    [
      `  latency at ${parallel} at once: p50 / p95`,
      `${[50, 95]
        .map((p) =>
          percentile(
            concurrent.map((c) => c.ms),
            p,
          ).toFixed(1),
        )
        .join(" / ")} ms`,
    ],
  ];
  const width = Math.max(...lines.map(([label]) => label.length));
  for (const [label, value] of lines) console.log(`${label.padEnd(width)}  ${value}`);
} finally {
  await store.close();
  if (!process.argv.includes("--keep")) {
    const admin = openPostgresDatabase({ connectionString: url, schema });
    await dropSchema(admin, schema);
    await admin.destroy();
  }
}
