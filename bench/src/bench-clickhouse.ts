/**
 * The ClickHouse ledger: ingest rate (rows/s through the ledger's streamed RowBinary ingest, two
 * INSERTs in flight) with the CPU per row on each side (client, server, and the merge to one part
 * per table after), bytes per row on disk (system.parts, every ledger table), and 20-hop trace
 * p50/p99 with the ledger read from ClickHouse (the default depth, weight floor and edge budget).
 * The generated ledger is testkit's benchmark shape. Starts its own server (Debian's
 * clickhouse-server as a plain process in a temporary folder); prints no figures when no
 * clickhouse-server binary is installed.
 *
 *   node --conditions=source --import tsx bench/src/bench-clickhouse.ts [--quick] [--rows N]
 *     [--no-optimize] [--traces N] [--workers N] [--screen N]
 *
 * --no-optimize skips the merge to one part per table (bytes on disk are then the parts'
 * after background merges); --workers N (default 0: none) then runs N `openkyt worker`
 * processes on the ledger with the screening state on Postgres, over --screen transfers
 * (default 1,000; bench-clickhouse-workers.ts).
 *   npm run bench -- --only clickhouse          (1,000,000 rows; --quick: 20,000)
 */
import { readFileSync } from "node:fs";
import { loadavg } from "node:os";

import {
  findClickHouseBinary,
  migrateClickHouseLedger,
  openChClient,
  openClickHouseLedger,
  parseClickHouseUrl,
  startLocalClickHouse,
} from "@openkyt/ledger-clickhouse";
import { ledgerRows } from "@openkyt/testkit";
import { benchClickHouseWorkers } from "./bench-clickhouse-workers.js";
import { benchShape } from "./bench-ledger-db.js";
import { type Figure, figure, percentile } from "./bench-stats.js";
import { benchReferenceResolver, sampleTransfers, traceSampleRow } from "./bench-tracing.js";

const quick = process.argv.includes("--quick");
const rowsAt = process.argv.indexOf("--rows");
const rows = rowsAt >= 0 ? Number(process.argv[rowsAt + 1]) : quick ? 20_000 : 1_000_000;
const IN_FLIGHT = 2;
const optimize = !process.argv.includes("--no-optimize");
const traces = numberFlag("--traces", quick ? 30 : 300);
const workers = numberFlag("--workers", 0);
const screen = numberFlag("--screen", quick ? 100 : 1_000);

function numberFlag(name: string, fallback: number): number {
  const at = process.argv.indexOf(name);
  if (at < 0) return fallback;
  const value = Number(process.argv[at + 1]);
  if (!Number.isSafeInteger(value) || value < 0) throw new Error(`${name}: expected a whole number`);
  return value;
}

/** User + system CPU seconds of a process so far (Linux /proc; 0 elsewhere). */
function processCpuSeconds(pid: number): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]?.split(" ") ?? [];
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return 0;
  }
}

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

    // Ingest: rows over the wall time of generating, encoding and inserting them (RowBinary,
    // generation overlapping the INSERTs), with the CPU each side spent: the client's from
    // process.cpuUsage, the server's from /proc (its user + system time over the same span).
    const serverPid = server.process.pid ?? 0;
    const started = performance.now();
    const cpu0 = process.cpuUsage();
    const server0 = processCpuSeconds(serverPid);
    await ledger.ingestLedgerRows(ledgerRows(benchShape(rows)), { inFlight: IN_FLIGHT });
    const wallS = (performance.now() - started) / 1000;
    const cpu = process.cpuUsage(cpu0);
    const serverCpuS = processCpuSeconds(serverPid) - server0;
    const clientCpuS = (cpu.user + cpu.system) / 1e6;
    // The generator alone (the same rows, not sent): the client's share that is not the ledger's.
    const gen0 = process.cpuUsage();
    let generated = 0;
    for (const _ of ledgerRows(benchShape(Math.min(rows, 1_000_000)))) generated += 1;
    const gen = process.cpuUsage(gen0);
    const generatorUs = (gen.user + gen.system) / generated;
    console.error(
      `clickhouse: ingested ${label} in ${wallS.toFixed(1)} s; CPU: client ${clientCpuS.toFixed(1)} s (generator ${((generatorUs * rows) / 1e6).toFixed(1)} s), server ${serverCpuS.toFixed(1)} s; load ${loadavg()[0]?.toFixed(1)}`,
    );
    // Merges the INSERTs left behind, timed apart (they run in the background and take the same cores).
    const merge0 = processCpuSeconds(serverPid);
    const mergeStarted = performance.now();
    const admin0 = openChClient(target, { retry: { requestTimeoutMillis: 3_600_000 } });
    for (const table of optimize ? ["ledger_tx", "ledger_hop_in", "ledger_hop_out"] : []) {
      await admin0.command(`OPTIMIZE TABLE bench.${table} FINAL`);
    }
    await admin0.close();
    const mergeS = (performance.now() - mergeStarted) / 1000;
    const mergeCpuS = processCpuSeconds(serverPid) - merge0;
    console.error(
      `clickhouse: OPTIMIZE FINAL of the three tables: ${mergeS.toFixed(1)} s, server CPU ${mergeCpuS.toFixed(1)} s`,
    );

    const admin = openChClient(target);
    const [disk] = await admin.rows<{ bytes: number; tx: number }>(
      `SELECT sum(bytes_on_disk) AS bytes, sumIf(rows, table = 'ledger_tx') AS tx
       FROM system.parts WHERE database = 'bench' AND active`,
    );
    await admin.close();
    const bytesPerRow = Number(disk?.bytes ?? 0) / Math.max(1, Number(disk?.tx ?? 1));

    // 20-hop traces from ClickHouse, reference data in a memory store.
    const resolver = await benchReferenceResolver(rows);
    const sample = await sampleTransfers(ledger, rows, traces);
    const ms: number[] = [];
    const edges: number[] = [];
    const traceCpu0 = process.cpuUsage();
    for (const row of sample) {
      const t0 = performance.now();
      const result = await traceSampleRow({ ledger, resolver }, row, 20);
      ms.push(performance.now() - t0);
      edges.push(result.edgesRead);
    }
    const traceCpu = process.cpuUsage(traceCpu0);
    console.error(
      `clickhouse: ${sample.length} 20-hop traces: p50 ${percentile(ms, 50).toFixed(0)} ms, p99 ${percentile(ms, 99).toFixed(0)} ms`,
    );
    const screened =
      workers > 0
        ? await benchClickHouseWorkers(
            server.ledgerUrl("bench"),
            rows,
            await sampleTransfers(ledger, rows, screen),
            workers,
            serverPid,
          )
        : [];
    await ledger.close();
    return [
      figure(
        `ClickHouse ingest, ${label} (RowBinary, ${IN_FLIGHT} INSERTs in flight)`,
        "rows/s",
        [rows / wallS],
        ">= 500,000",
      ),
      figure("ClickHouse ingest: server CPU per row (parse, 3 sorted copies, degree tables, merges)", "us", [
        (serverCpuS * 1e6) / rows,
      ]),
      figure("ClickHouse ingest: client CPU per row (generator + RowBinary + HTTP)", "us", [
        (clientCpuS * 1e6) / rows,
      ]),
      figure("ClickHouse ingest: generator CPU per row (included above)", "us", [generatorUs]),
      ...(optimize
        ? [
            figure("ClickHouse merge to one part per table (OPTIMIZE FINAL): server CPU per row", "us", [
              (mergeCpuS * 1e6) / rows,
            ]),
          ]
        : []),
      figure("ClickHouse bytes on disk per ledger row (3 orderings + degrees)", "B", [bytesPerRow]),
      figure("20-hop trace p50, ClickHouse ledger", "ms", [percentile(ms, 50)]),
      figure("20-hop trace p99, ClickHouse ledger", "ms", [percentile(ms, 99)]),
      figure("20-hop trace client CPU per trace, ClickHouse (mean)", "ms", [
        (traceCpu.user + traceCpu.system) / 1000 / Math.max(1, sample.length),
      ]),
      figure("20-hop edges read per trace, ClickHouse (mean)", "edges", [
        edges.reduce((a, b) => a + b, 0) / Math.max(1, edges.length),
      ]),
      ...screened,
    ];
  } finally {
    await server.stop();
  }
}

console.log(JSON.stringify(await main()));
