/**
 * The three ledgers of issue 35 (item 4) measured side by side in one process run, on the same
 * generated ledger family (testkit's real-shaped benchmark ledger, seed 11): the warm in-memory
 * ledger at K rows, Postgres at M rows and ClickHouse at N rows (defaults 1M, 10M, 100M), one
 * after another, printed as one table. For each:
 *
 * - ingest: rows/s (wall) and CPU per row of this process (the client: generator, encoding,
 *   driver) and of the server (ClickHouse's process; Postgres's backends of this run's database).
 *   The warm ledger's "ingest" is its load from the SQLite file into a `LedgerIndex`;
 * - bytes per ledger row: ClickHouse's active parts (`system.parts`), Postgres's tables with their
 *   indexes (`pg_total_relation_size`), the SQLite file the warm ledger loads from, and the heap
 *   the `LedgerIndex` took;
 * - 20-hop incoming traces (default weight floor and edge budget) of sampled transfers, labels
 *   from a memory store: p50, p99, this process's CPU and the server's per trace;
 * - two real `openkyt worker` processes screening sampled transfers: transfers/s from the first
 *   registration to the last check, the workers' and the servers' CPU per transfer. ClickHouse:
 *   `--ledger clickhouse://...`, state on Postgres; Postgres: default (cold) workers on the
 *   ledger's schema; warm: `--warm` workers on a copy of the SQLite file. Each waits at most
 *   `--screen-minutes` for its checks; then the figures cover the checks done (the table says
 *   how many of how many).
 *
 *   node --conditions=source --import tsx bench/src/scale/side-by-side.ts [--clickhouse N]
 *     [--postgres M] [--warm K] [--stores warm,postgres,clickhouse] [--traces 100]
 *     [--screen 300] [--screen-minutes 10] [--workers 2] [--optimize] [--keep] [--database NAME]
 *
 * Postgres (OPENKYT_BENCH_PG, default postgres://127.0.0.1:5432/test names the server) gets a
 * database of its own, `scale3_side_by_side` (or `--database`), holding the Postgres ledger (schema `ledger`) and
 * the ClickHouse workers' state (schema `ch_state`); it is dropped at the end unless `--keep`.
 * The ClickHouse server is the bench's own, in a temporary folder removed when it stops.
 * Figures go to stdout as a table, then as JSON on the last line; progress to stderr.
 */
import { statSync } from "node:fs";
import { loadavg } from "node:os";
import { LedgerIndex, type LedgerTransfer } from "@openkyt/core";
import { createPostgresStore } from "@openkyt/store-postgres";
import { createSqliteStore } from "@openkyt/store-sqlite";
import { measureClickHouse } from "../bench-clickhouse.js";
import { measureWorkers, type WorkersMeasure } from "../bench-clickhouse-workers.js";
import { benchShape, ledgerCopy, loadGenerated, removeCopy } from "../bench-ledger-db.js";
import { argFlag, percentile } from "../bench-stats.js";
import {
  benchReferenceResolver,
  loadLedgerInto,
  sampleTransfers,
  type TraceDeps,
  traceSampleRow,
} from "../bench-tracing.js";
import { runPsql } from "../crash/postgres-psql.js";
import { BackendCpu } from "../postgres/backend-cpu.js";

const STORES = ["warm", "postgres", "clickhouse"] as const;
type StoreName = (typeof STORES)[number];

function numberFlag(name: string, fallback: number): number {
  const text = argFlag(name);
  if (text === undefined) return fallback;
  const value = Number(text.replaceAll("_", ""));
  if (!Number.isSafeInteger(value) || value < 0) throw new Error(`${name}: expected a whole number`);
  return value;
}

const sizes: Record<StoreName, number> = {
  clickhouse: numberFlag("--clickhouse", 100_000_000),
  postgres: numberFlag("--postgres", 10_000_000),
  warm: numberFlag("--warm", 1_000_000),
};
const stores = (argFlag("--stores") ?? STORES.join(",")).split(",").map((name) => {
  if (!(STORES as ReadonlyArray<string>).includes(name)) throw new Error(`--stores: unknown store ${name}`);
  return name as StoreName;
});
const traces = numberFlag("--traces", 100);
const screen = numberFlag("--screen", 300);
const workers = numberFlag("--workers", 2);
/** How long each ledger's workers may take over their checks; past it the checks done count. */
const screenMinutes = numberFlag("--screen-minutes", 10);
const optimize = process.argv.includes("--optimize");
const keep = process.argv.includes("--keep");
const server = process.env.OPENKYT_BENCH_PG ?? "postgres://127.0.0.1:5432/test";
/** The run's Postgres database (`--database`: a session sharing the server names its own). */
const DATABASE = argFlag("--database") ?? "scale3_side_by_side";
if (!/^[a-z_][a-z0-9_]*$/.test(DATABASE))
  throw new Error(`--database: expected a plain lower-case name, got ${DATABASE}`);
const databaseUrl = withDatabase(server, DATABASE);

/** `url` naming database `name` instead of its own. */
function withDatabase(url: string, name: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${name}`;
  return parsed.toString();
}

/** One ledger's figures; null where the store has none. */
interface Column {
  readonly store: string;
  readonly rows: number;
  readonly ingestRowsPerS: number;
  readonly clientUsPerRow: number;
  readonly serverUsPerRow: number | null;
  readonly bytesPerRow: number;
  readonly bytesNote: string;
  readonly traceP50Ms: number;
  readonly traceP99Ms: number;
  readonly traceClientCpuMs: number;
  readonly traceServerCpuMs: number | null;
  readonly edgesPerTrace: number;
  readonly screening: WorkersMeasure | null;
  /** Load average (1 min) at the end of this ledger's measurements. */
  readonly load: number;
  /** When its ingest started and its measurements ended (UTC). */
  readonly span: string;
}

/** CPU seconds of this process so far (every thread). */
function cpuS(): number {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1e6;
}

function utcTime(): string {
  return new Date().toISOString().slice(11, 19);
}

/** 20-hop traces of `sample`: wall ms each, edges each, this process's CPU and the server's (ms). */
async function traceSample(
  deps: TraceDeps,
  sample: ReadonlyArray<LedgerTransfer>,
  serverCpuMs: () => number,
): Promise<{ ms: number[]; edges: number[]; clientCpuMs: number; serverCpuMs: number }> {
  const ms: number[] = [];
  const edges: number[] = [];
  const client0 = cpuS();
  const server0 = serverCpuMs();
  for (const row of sample) {
    const t0 = performance.now();
    const result = await traceSampleRow(deps, row, 20);
    ms.push(performance.now() - t0);
    edges.push(result.edgesRead);
  }
  return { ms, edges, clientCpuMs: (cpuS() - client0) * 1000, serverCpuMs: serverCpuMs() - server0 };
}

/** What the table shows of the traces. */
interface Traced {
  readonly ms: ReadonlyArray<number>;
  readonly edges: ReadonlyArray<number>;
  readonly clientCpuMs: number;
  readonly serverCpuMs: number;
}

function traceFigures(t: Traced, withServer: boolean) {
  const n = Math.max(1, t.ms.length);
  return {
    traceP50Ms: percentile(t.ms, 50),
    traceP99Ms: percentile(t.ms, 99),
    traceClientCpuMs: t.clientCpuMs / n,
    traceServerCpuMs: withServer ? t.serverCpuMs / n : null,
    edgesPerTrace: t.edges.reduce((a, b) => a + b, 0) / n,
  };
}

/** The warm ledger: loaded from its SQLite file into a LedgerIndex, traced there, `--warm` workers. */
async function measureWarm(rows: number): Promise<Column> {
  const start = utcTime();
  const file = await ledgerCopy(rows, "scale3-side");
  try {
    const fileBytes = statSync(file).size;
    const heap0 = process.memoryUsage().heapUsed;
    const t0 = performance.now();
    const cpu0 = cpuS();
    let index: LedgerIndex | null = new LedgerIndex();
    await loadLedgerInto(index, file);
    const loadS = (performance.now() - t0) / 1000;
    const loadCpuS = cpuS() - cpu0;
    const heapBytes = process.memoryUsage().heapUsed - heap0;
    console.error(
      `warm: loaded ${rows} rows in ${loadS.toFixed(1)} s (CPU ${loadCpuS.toFixed(1)} s), heap +${(heapBytes / 1e6).toFixed(0)} MB; load ${loadavg()[0]?.toFixed(1)}`,
    );
    const store = await createSqliteStore({ filename: file });
    try {
      const sample = await sampleTransfers(store, rows, traces);
      const deps = { ledger: index, resolver: await benchReferenceResolver(rows) };
      await traceSample(deps, sample.slice(0, 20), () => 0); // compiles the tracer's code first
      const traced = await traceSample(deps, sample, () => 0);
      index = null; // the workers hold their own copies
      console.error(`warm: ${sample.length} 20-hop traces, p50 ${percentile(traced.ms, 50).toFixed(1)} ms`);
      const screening =
        workers > 0
          ? await measureWorkers(
              { store, args: ["--db", file, "--warm"], servers: {}, waitMillis: screenMinutes * 60_000 },
              await sampleTransfers(store, rows, screen),
              workers,
            )
          : null;
      return {
        store: "warm (in memory; SQLite file)",
        rows,
        ingestRowsPerS: rows / loadS,
        clientUsPerRow: (loadCpuS * 1e6) / rows,
        serverUsPerRow: null,
        bytesPerRow: fileBytes / rows,
        bytesNote: `SQLite file; heap ${(heapBytes / rows).toFixed(0)} B/row`,
        ...traceFigures(traced, false),
        screening,
        load: loadavg()[0] ?? 0,
        span: `${start}-${utcTime()}`,
      };
    } finally {
      await store.close();
    }
  } finally {
    removeCopy(file);
  }
}

/** The database of this run, made fresh. */
function createDatabase(): void {
  runPsql(server, "public", `drop database if exists ${DATABASE};`);
  runPsql(server, "public", `create database ${DATABASE};`);
}

/** Postgres: the bulk load into schema `ledger`, its size, traces from it, default workers on it. */
async function measurePostgres(rows: number): Promise<Column> {
  const start = utcTime();
  const schema = "ledger";
  const store = await createPostgresStore({
    connectionString: databaseUrl,
    schema,
    migrate: true,
    pool: { max: 8 },
  });
  const backends = new BackendCpu(databaseUrl, schema);
  const serverMs = () => {
    backends.sample();
    return backends.totalMs();
  };
  try {
    // Ingest: reference data and the bulk writer (its index builds included), then vacuum analyze.
    const server0 = serverMs();
    const sampler = setInterval(() => backends.sample(), 1000);
    const t0 = performance.now();
    const cpu0 = cpuS();
    try {
      await loadGenerated(store, benchShape(rows));
    } finally {
      clearInterval(sampler);
    }
    const wallS = (performance.now() - t0) / 1000;
    const clientCpuS = cpuS() - cpu0;
    const serverCpuS = (serverMs() - server0) / 1000;
    const v0 = performance.now();
    runPsql(databaseUrl, schema, "vacuum analyze;");
    console.error(
      `postgres: loaded ${rows} rows in ${wallS.toFixed(1)} s (CPU: client ${clientCpuS.toFixed(1)} s, server ${serverCpuS.toFixed(1)} s), vacuum analyze ${((performance.now() - v0) / 1000).toFixed(1)} s; load ${loadavg()[0]?.toFixed(1)}`,
    );
    const [all = 0, ledger = 0] = runPsql(
      databaseUrl,
      schema,
      `select sum(pg_total_relation_size(c.oid)), sum(pg_total_relation_size(c.oid)) filter (where c.relname like 'ledger%')
       from pg_class c join pg_namespace n on n.oid = c.relnamespace
       where n.nspname = '${schema}' and c.relkind = 'r';`,
    )
      .trim()
      .split("|")
      .map(Number);
    const sample = await sampleTransfers(store, rows, traces);
    const traced = await traceSample(
      { ledger: store, resolver: await benchReferenceResolver(rows) },
      sample,
      serverMs,
    );
    console.error(`postgres: ${sample.length} 20-hop traces, p50 ${percentile(traced.ms, 50).toFixed(1)} ms`);
    const db = `${databaseUrl}?schema=${schema}`;
    const screening =
      workers > 0
        ? await measureWorkers(
            {
              store,
              args: ["--db", db],
              servers: { Postgres: serverMs },
              waitMillis: screenMinutes * 60_000,
            },
            await sampleTransfers(store, rows, screen),
            workers,
          )
        : null;
    return {
      store: "Postgres (default workers, no --warm)",
      rows,
      ingestRowsPerS: rows / wallS,
      clientUsPerRow: (clientCpuS * 1e6) / rows,
      serverUsPerRow: (serverCpuS * 1e6) / rows,
      bytesPerRow: all / rows,
      bytesNote: `tables + indexes; ledger tables ${(ledger / rows).toFixed(0)} B/row`,
      ...traceFigures(traced, true),
      screening,
      load: loadavg()[0] ?? 0,
      span: `${start}-${utcTime()}`,
    };
  } finally {
    await store.close();
  }
}

/** ClickHouse: bench-clickhouse.ts's measurements, the workers' state in this run's database. */
async function measureClickHouseColumn(rows: number): Promise<Column | null> {
  const start = utcTime();
  const m = await measureClickHouse({
    rows,
    optimize,
    traces,
    workers,
    screen,
    state: { stateUrl: databaseUrl, schema: "ch_state", waitMillis: screenMinutes * 60_000 },
  });
  if (!m) return null;
  return {
    store: `ClickHouse 18.16 (${m.parts} active parts${m.merge ? ", after OPTIMIZE FINAL" : ""})`,
    rows,
    ingestRowsPerS: rows / m.ingest.wallS,
    clientUsPerRow: (m.ingest.clientCpuS * 1e6) / rows,
    serverUsPerRow: (m.ingest.serverCpuS * 1e6) / rows,
    bytesPerRow: m.bytesPerRow,
    bytesNote: "active parts, 3 orderings + degrees",
    ...traceFigures(m.traces, true),
    screening: m.screening,
    load: loadavg()[0] ?? 0,
    span: `${start}-${utcTime()}`,
  };
}

function fixed(value: number | null | undefined, digits: number): string {
  return value === null || value === undefined || Number.isNaN(value)
    ? "-"
    : value.toLocaleString("en-US", { minimumFractionDigits: digits, maximumFractionDigits: digits });
}

/** The table: one row per figure, one column per ledger. */
function table(columns: ReadonlyArray<Column>): string {
  const perTransfer = (c: Column, ms: number | undefined) =>
    c.screening && ms !== undefined ? fixed(ms / c.screening.transfers, 1) : "-";
  const serverOf = (c: Column) => {
    const s = c.screening?.serversMs ?? {};
    const entries = Object.entries(s);
    return entries.length === 0
      ? "-"
      : entries.map(([name, ms]) => `${name} ${fixed(ms / (c.screening?.transfers ?? 1), 1)}`).join(", ");
  };
  const rows: Array<[string, (c: Column) => string]> = [
    ["ledger rows", (c) => fixed(c.rows, 0)],
    ["ingest, rows/s (wall)", (c) => fixed(c.ingestRowsPerS, 0)],
    ["ingest CPU per row, client, us", (c) => fixed(c.clientUsPerRow, 2)],
    ["ingest CPU per row, server, us", (c) => fixed(c.serverUsPerRow, 2)],
    ["bytes per ledger row", (c) => fixed(c.bytesPerRow, 0)],
    ["  (what is counted)", (c) => c.bytesNote],
    ["20-hop trace p50, ms", (c) => fixed(c.traceP50Ms, 1)],
    ["20-hop trace p99, ms", (c) => fixed(c.traceP99Ms, 1)],
    ["CPU per trace, client, ms", (c) => fixed(c.traceClientCpuMs, 1)],
    ["CPU per trace, server, ms", (c) => fixed(c.traceServerCpuMs, 1)],
    ["edges read per trace (mean)", (c) => fixed(c.edgesPerTrace, 0)],
    [
      `screening, ${workers} workers, transfers/s`,
      (c) => fixed(c.screening ? c.screening.transfers / c.screening.seconds : null, 2),
    ],
    [
      "  transfers checked / registered",
      (c) => (c.screening ? `${c.screening.transfers} / ${c.screening.registered}` : "-"),
    ],
    ["  workers' start (warm: load), s", (c) => fixed(c.screening?.startSeconds, 1)],
    ["  worker CPU per transfer, ms", (c) => perTransfer(c, c.screening?.workerMs)],
    ["  server CPU per transfer, ms", serverOf],
    ["load average (1 min) at the end", (c) => fixed(c.load, 1)],
    ["measured (UTC)", (c) => c.span],
  ];
  const cells = [
    ["figure", ...columns.map((c) => c.store)],
    ...rows.map(([label, of]) => [label, ...columns.map(of)]),
  ];
  const widths = cells[0]?.map((_, i) => Math.max(...cells.map((row) => (row[i] ?? "").length))) ?? [];
  const line = (row: ReadonlyArray<string>) =>
    `| ${row.map((cell, i) => (i === 0 ? cell.padEnd(widths[i] ?? 0) : cell.padStart(widths[i] ?? 0))).join(" | ")} |`;
  const [head, ...body] = cells;
  return [line(head ?? []), `| ${widths.map((w) => "-".repeat(w)).join(" | ")} |`, ...body.map(line)].join(
    "\n",
  );
}

const columns: Column[] = [];
console.error(
  `side by side: ${stores.map((s) => `${s} ${sizes[s].toLocaleString("en-US")}`).join(", ")}; ${traces} traces, ${workers} workers over ${screen} transfers; start ${utcTime()} UTC, load ${loadavg()
    .map((l) => l.toFixed(1))
    .join(" ")}`,
);
if (stores.includes("postgres") || (stores.includes("clickhouse") && workers > 0)) createDatabase();
try {
  for (const name of stores) {
    const column =
      name === "warm"
        ? await measureWarm(sizes.warm)
        : name === "postgres"
          ? await measurePostgres(sizes.postgres)
          : await measureClickHouseColumn(sizes.clickhouse);
    if (!column) continue;
    columns.push(column);
    console.error(JSON.stringify(column)); // kept if a later ledger fails
  }
} finally {
  if (!keep && (stores.includes("postgres") || (stores.includes("clickhouse") && workers > 0)))
    runPsql(server, "public", `drop database if exists ${DATABASE} with (force);`);
}
console.log(table(columns));
console.log(JSON.stringify(columns));
