/**
 * The ClickHouse ledger: ingest rate (rows/s through the ledger's bulk insert, JSONEachRow, two
 * INSERTs in flight), bytes per row on disk (system.parts, every ledger table), and 20-hop trace
 * p50/p99 with the ledger read from ClickHouse (the default depth, weight floor and edge budget).
 * The generated ledger is testkit's benchmark shape. Starts its own server (Debian's
 * clickhouse-server as a plain process in a temporary folder); prints no figures when no
 * clickhouse-server binary is installed.
 *
 *   node --conditions=source --import tsx bench/src/bench-clickhouse.ts [--quick] [--rows N]
 *   npm run bench -- --only clickhouse          (1,000,000 rows; --quick: 20,000)
 */
import {
  createEntityResolver,
  createMemoryStore,
  DEFAULT_EDGE_BUDGET,
  DEFAULT_MIN_PATH_WEIGHT,
  type LedgerTransfer,
  storeAttributionSource,
  storeSanctionsSource,
  traceTransferExposure,
} from "@openkyt/core";
import {
  findClickHouseBinary,
  migrateClickHouseLedger,
  openChClient,
  openClickHouseLedger,
  parseClickHouseUrl,
  startLocalClickHouse,
} from "@openkyt/ledger-clickhouse";
import { ledgerReferenceData, ledgerRows } from "@openkyt/testkit";
import { benchShape } from "./bench-ledger-db.js";
import { type Figure, figure, percentile } from "./bench-stats.js";
import { sampleTransfers } from "./bench-tracing.js";

const quick = process.argv.includes("--quick");
const rowsAt = process.argv.indexOf("--rows");
const rows = rowsAt >= 0 ? Number(process.argv[rowsAt + 1]) : quick ? 20_000 : 1_000_000;
const CHUNK = 100_000;
const IN_FLIGHT = 2;

async function main(): Promise<Figure[]> {
  if (!findClickHouseBinary()) {
    console.error(
      "clickhouse: no clickhouse-server binary installed; skipped (apt-get install clickhouse-server)",
    );
    return [];
  }
  const server = await startLocalClickHouse();
  try {
    const target = parseClickHouseUrl(server.ledgerUrl("bench"));
    await migrateClickHouseLedger(target);
    const ledger = openClickHouseLedger(target, { retry: { requestTimeoutMillis: 600_000 } });
    const label = `${rows.toLocaleString("en-US")} rows`;

    // Ingest: rows over the wall time of generating and inserting them (generation overlaps the INSERTs).
    const started = performance.now();
    const cpu0 = process.cpuUsage();
    let chunk: LedgerTransfer[] = [];
    const inFlight = new Set<Promise<void>>();
    const send = (batch: LedgerTransfer[]) => {
      const p: Promise<void> = ledger.appendLedgerTransfers(batch).then(() => {
        inFlight.delete(p);
      });
      inFlight.add(p);
      return p;
    };
    for (const row of ledgerRows(benchShape(rows))) {
      chunk.push(row);
      if (chunk.length === CHUNK) {
        if (inFlight.size >= IN_FLIGHT) await Promise.race(inFlight);
        void send(chunk);
        chunk = [];
      }
    }
    if (chunk.length > 0) void send(chunk);
    await Promise.all(inFlight);
    const wallS = (performance.now() - started) / 1000;
    const cpu = process.cpuUsage(cpu0);
    console.error(
      `clickhouse: ingested ${label} in ${wallS.toFixed(1)} s (client CPU ${((cpu.user + cpu.system) / 1e6).toFixed(1)} s)`,
    );

    const admin = openChClient(target);
    const [disk] = await admin.rows<{ bytes: number; tx: number }>(
      `SELECT sum(bytes_on_disk) AS bytes, sumIf(rows, table = 'ledger_tx') AS tx
       FROM system.parts WHERE database = 'bench' AND active`,
    );
    await admin.close();
    const bytesPerRow = Number(disk?.bytes ?? 0) / Math.max(1, Number(disk?.tx ?? 1));

    // 20-hop traces from ClickHouse, reference data in a memory store.
    const memory = createMemoryStore();
    const ref = ledgerReferenceData(benchShape(rows));
    await memory.putAttributions(ref.attributions);
    await memory.putSanctions(ref.sanctions);
    const resolver = createEntityResolver({
      attributions: storeAttributionSource(memory),
      sanctions: storeSanctionsSource(memory),
    });
    const sample = await sampleTransfers(ledger, rows, quick ? 30 : 300);
    const ms: number[] = [];
    const edges: number[] = [];
    const traceCpu0 = process.cpuUsage();
    for (const row of sample) {
      const t0 = performance.now();
      const result = await traceTransferExposure({
        ledger,
        resolver,
        network: row.network,
        tokenId: row.tokenId,
        direction: "incoming",
        counterparty: row.from,
        at: row.occurredAt,
        value: 1_000,
        span: { from: row.occurredAt, to: row.occurredAt },
        maxHops: 20,
        minPathWeight: DEFAULT_MIN_PATH_WEIGHT,
        edgeBudget: DEFAULT_EDGE_BUDGET,
      });
      ms.push(performance.now() - t0);
      edges.push(result.edgesRead);
    }
    const traceCpu = process.cpuUsage(traceCpu0);
    await ledger.close();
    return [
      figure(
        `ClickHouse ingest, ${label} (JSONEachRow, ${IN_FLIGHT} INSERTs in flight)`,
        "rows/s",
        [rows / wallS],
        ">= 500,000",
      ),
      figure("ClickHouse bytes on disk per ledger row (3 orderings + degrees)", "B", [bytesPerRow]),
      figure("20-hop trace p50, ClickHouse ledger", "ms", [percentile(ms, 50)]),
      figure("20-hop trace p99, ClickHouse ledger", "ms", [percentile(ms, 99)]),
      figure("20-hop trace client CPU per trace, ClickHouse (mean)", "ms", [
        (traceCpu.user + traceCpu.system) / 1000 / Math.max(1, sample.length),
      ]),
      figure("20-hop edges read per trace, ClickHouse (mean)", "edges", [
        edges.reduce((a, b) => a + b, 0) / Math.max(1, edges.length),
      ]),
    ];
  } finally {
    await server.stop();
  }
}

console.log(JSON.stringify(await main()));
