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
import { pathToFileURL } from "node:url";

import {
  findClickHouseBinary,
  migrateClickHouseLedger,
  openChClient,
  openClickHouseLedger,
  parseClickHouseUrl,
  startLocalClickHouse,
} from "@openkyt/ledger-clickhouse";
import { ledgerRows } from "@openkyt/testkit";
import {
  type ClickHouseWorkersOptions,
  measureClickHouseWorkers,
  type WorkersMeasure,
  workersFigures,
} from "./bench-clickhouse-workers.js";
import { benchShape } from "./bench-ledger-db.js";
import { type Figure, figure, percentile } from "./bench-stats.js";
import { benchReferenceResolver, sampleTransfers, traceSampleRow } from "./bench-tracing.js";

const quick = process.argv.includes("--quick");
const IN_FLIGHT = 2;

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

/** What {@link measureClickHouse} does. */
export interface ClickHouseBenchOptions {
  /** Ledger rows generated and ingested. */
  readonly rows: number;
  /** Whether the three tables are merged to one part each (OPTIMIZE FINAL) after the ingest. */
  readonly optimize: boolean;
  /** 20-hop traces sampled from the ledger. */
  readonly traces: number;
  /** `openkyt worker` processes screening `screen` transfers of the ledger (0: none). */
  readonly workers: number;
  readonly screen: number;
  /** Where the workers' screening state goes (bench-clickhouse-workers.ts's defaults otherwise). */
  readonly state?: ClickHouseWorkersOptions;
}

/** The figures of one ClickHouse ledger, raw (seconds, CPU seconds, milliseconds). */
export interface ClickHouseMeasure {
  readonly rows: number;
  readonly ingest: {
    readonly wallS: number;
    readonly clientCpuS: number;
    readonly serverCpuS: number;
    /** CPU of the generator alone per row, us (part of the client's). */
    readonly generatorUs: number;
  };
  /** The OPTIMIZE FINAL after the ingest (absent when not asked for). */
  readonly merge: { readonly wallS: number; readonly serverCpuS: number } | null;
  readonly bytesOnDisk: number;
  readonly bytesPerRow: number;
  readonly parts: number;
  readonly traces: {
    readonly ms: ReadonlyArray<number>;
    readonly edges: ReadonlyArray<number>;
    readonly clientCpuMs: number;
    readonly serverCpuMs: number;
  };
  /** The workers' screening (absent without workers or without Postgres for the state). */
  readonly screening: WorkersMeasure | null;
}

/**
 * Starts a ClickHouse server, ingests the generated ledger, measures its size and 20-hop traces
 * and (with workers) the screening rate; stops the server. Null without a clickhouse-server binary.
 */
export async function measureClickHouse(options: ClickHouseBenchOptions): Promise<ClickHouseMeasure | null> {
  const { rows, optimize, traces, workers, screen } = options;
  if (!findClickHouseBinary()) {
    console.error(
      "clickhouse: no clickhouse-server binary installed; skipped (apt-get install clickhouse-server)",
    );
    return null;
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
    const [disk] = await admin.rows<{ bytes: number; tx: number; parts: number }>(
      `SELECT sum(bytes_on_disk) AS bytes, sumIf(rows, table = 'ledger_tx') AS tx, count() AS parts
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
    const traceServer0 = processCpuSeconds(serverPid);
    for (const row of sample) {
      const t0 = performance.now();
      const result = await traceSampleRow({ ledger, resolver }, row, 20);
      ms.push(performance.now() - t0);
      edges.push(result.edgesRead);
    }
    const traceCpu = process.cpuUsage(traceCpu0);
    const traceServerCpuS = processCpuSeconds(serverPid) - traceServer0;
    console.error(
      `clickhouse: ${sample.length} 20-hop traces: p50 ${percentile(ms, 50).toFixed(0)} ms, p99 ${percentile(ms, 99).toFixed(0)} ms`,
    );
    const screening =
      workers > 0
        ? await measureClickHouseWorkers(
            server.ledgerUrl("bench"),
            rows,
            await sampleTransfers(ledger, rows, screen),
            workers,
            serverPid,
            options.state,
          )
        : null;
    await ledger.close();
    return {
      rows,
      ingest: { wallS, clientCpuS, serverCpuS, generatorUs },
      merge: optimize ? { wallS: mergeS, serverCpuS: mergeCpuS } : null,
      bytesOnDisk: Number(disk?.bytes ?? 0),
      bytesPerRow,
      parts: Number(disk?.parts ?? 0),
      traces: {
        ms,
        edges,
        clientCpuMs: (traceCpu.user + traceCpu.system) / 1000,
        serverCpuMs: traceServerCpuS * 1000,
      },
      screening,
    };
  } finally {
    await server.stop();
  }
}

/** The figures of {@link measureClickHouse}, for the bench table. */
function clickHouseFigures(m: ClickHouseMeasure): Figure[] {
  const label = `${m.rows.toLocaleString("en-US")} rows`;
  const n = Math.max(1, m.traces.ms.length);
  return [
    figure(
      `ClickHouse ingest, ${label} (RowBinary, ${IN_FLIGHT} INSERTs in flight)`,
      "rows/s",
      [m.rows / m.ingest.wallS],
      ">= 500,000",
    ),
    figure("ClickHouse ingest: server CPU per row (parse, 3 sorted copies, degree tables, merges)", "us", [
      (m.ingest.serverCpuS * 1e6) / m.rows,
    ]),
    figure("ClickHouse ingest: client CPU per row (generator + RowBinary + HTTP)", "us", [
      (m.ingest.clientCpuS * 1e6) / m.rows,
    ]),
    figure("ClickHouse ingest: generator CPU per row (included above)", "us", [m.ingest.generatorUs]),
    ...(m.merge
      ? [
          figure("ClickHouse merge to one part per table (OPTIMIZE FINAL): server CPU per row", "us", [
            (m.merge.serverCpuS * 1e6) / m.rows,
          ]),
        ]
      : []),
    figure("ClickHouse bytes on disk per ledger row (3 orderings + degrees)", "B", [m.bytesPerRow]),
    figure("20-hop trace p50, ClickHouse ledger", "ms", [percentile(m.traces.ms, 50)]),
    figure("20-hop trace p99, ClickHouse ledger", "ms", [percentile(m.traces.ms, 99)]),
    figure("20-hop trace client CPU per trace, ClickHouse (mean)", "ms", [m.traces.clientCpuMs / n]),
    figure("20-hop trace server CPU per trace, ClickHouse (mean)", "ms", [m.traces.serverCpuMs / n]),
    figure("20-hop edges read per trace, ClickHouse (mean)", "edges", [
      m.traces.edges.reduce((a, b) => a + b, 0) / n,
    ]),
    ...(m.screening ? workersFigures(m.screening, `${label} ClickHouse ledger, state on Postgres`) : []),
  ];
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const measured = await measureClickHouse({
    rows: numberFlag("--rows", quick ? 20_000 : 1_000_000),
    optimize: !process.argv.includes("--no-optimize"),
    traces: numberFlag("--traces", quick ? 30 : 300),
    workers: numberFlag("--workers", 0),
    screen: numberFlag("--screen", quick ? 100 : 1_000),
  });
  console.log(JSON.stringify(measured ? clickHouseFigures(measured) : []));
}
