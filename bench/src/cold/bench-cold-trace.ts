/**
 * Cold traces: the CPU a worker spends per screened transfer when it traces from the database,
 * as `openkyt worker` does without `--warm` (docs/deployment.md). The benchmark ledger is
 * stored (a copy of the SQLite file; a fresh Postgres schema), `count` of its transfers are
 * registered by this process with no runner, then one worker process
 * (`cold-worker-child.ts`, the engine's default sources) binds and checks them; its CPU from
 * start to the last check, over `count`, is the figure. Postgres's own CPU is counted apart
 * when the server runs on this machine. Postgres is skipped (no figures) when none answers
 * at OPENKYT_BENCH_PG (default postgres://127.0.0.1:5432/test).
 */
import { spawn } from "node:child_process";
import { dirname, join } from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import type { Store } from "@openkyt/core";
import { createPostgresStore } from "@openkyt/store-postgres";
import { createSqliteStore } from "@openkyt/store-sqlite";
import { benchShape, ledgerCopy, ledgerLabel, loadGenerated, removeCopy } from "../bench-ledger-db.js";
import { type Figure, figure, processesCpuMs } from "../bench-stats.js";
import { registerIncoming, sampleTransfers } from "../bench-tracing.js";
import { runPsql } from "../crash/postgres-psql.js";

const here = dirname(fileURLToPath(import.meta.url));
const URL_DEFAULT = "postgres://127.0.0.1:5432/test";
/** The ledger's shape: OPENKYT_BENCH_SHAPE=classic for the generator's first shape, else real. */
const shape = process.env.OPENKYT_BENCH_SHAPE === "classic" ? "classic" : "real";

/** What one worker run measured. */
interface ColdRun {
  /** Worker CPU (user + system) per checked transfer, ms. */
  readonly workerCpuMs: number;
  /** Postgres server CPU per checked transfer, ms (NaN for SQLite or a remote server). */
  readonly serverCpuMs: number;
  /** Checked transfers per second of wall time. */
  readonly rate: number;
}

/** Runs one cold worker (`args` after the script) until it checked `count` transfers. */
async function runWorker(
  args: ReadonlyArray<string>,
  count: number,
  server: string | null,
): Promise<ColdRun> {
  const child = spawn(
    process.execPath,
    ["--conditions=source", "--import", "tsx", join(here, "cold-worker-child.ts"), ...args],
    { stdio: ["ignore", "pipe", "inherit"] },
  );
  let checked = 0;
  let cpuMs = 0;
  let started = 0;
  let serverBefore = Number.NaN;
  const done = new Promise<void>((resolve, reject) => {
    child.once("exit", (code) => reject(new Error(`cold worker exited (${code}) after ${checked} checks`)));
    createInterface({ input: child.stdout as NonNullable<typeof child.stdout> }).on("line", (line) => {
      if (line === "ready") {
        started = performance.now();
        serverBefore = server ? processesCpuMs(server) : Number.NaN;
      }
      const m = /^checked (\d+) (\d+)$/.exec(line);
      if (!m) return;
      checked = Number(m[1]);
      cpuMs = Number(m[2]);
      if (checked >= count) resolve();
    });
  });
  const timeout = setTimeout(() => child.kill("SIGTERM"), 900_000);
  try {
    await done;
    const seconds = (performance.now() - started) / 1000;
    const serverCpuMs = server ? (processesCpuMs(server) - serverBefore) / count : Number.NaN;
    return { workerCpuMs: cpuMs / count, serverCpuMs, rate: count / seconds };
  } finally {
    clearTimeout(timeout);
    child.removeAllListeners("exit");
    if (child.exitCode === null) {
      const exited = new Promise((r) => child.once("exit", r));
      child.kill("SIGTERM");
      await exited;
    }
  }
}

/** The figures of one run on `where` ("SQLite", "Postgres"). */
function runFigures(where: string, run: ColdRun, count: number, size: number): Figure[] {
  return [
    figure(
      `worker CPU per screened transfer, cold (${where}, 1 worker, ${count} transfers, ${ledgerLabel(size, shape)})`,
      "ms",
      [run.workerCpuMs],
      "<= 5",
    ),
    ...(Number.isFinite(run.serverCpuMs)
      ? [figure(`  ${where} server CPU per screened transfer`, "ms", [run.serverCpuMs])]
      : []),
    figure(`  screening rate, cold (${where}, 1 worker)`, "transfers/s", [run.rate]),
  ];
}

/** SQLite: a copy of the ledger file, transfers registered, then one worker on the file. */
async function sqliteRun(size: number, count: number): Promise<Figure[]> {
  const file = await ledgerCopy(size, "cold-trace", shape);
  try {
    const store = await createSqliteStore({ filename: file });
    try {
      await registerIncoming(store, "cold-trace", await sampleTransfers(store, size, count));
    } finally {
      await store.close();
    }
    return runFigures("SQLite", await runWorker(["sqlite", file], count, null), count, size);
  } finally {
    removeCopy(file);
  }
}

/** Postgres: the ledger in a fresh schema, transfers registered, then one worker on the schema. */
async function postgresRun(size: number, count: number): Promise<Figure[]> {
  const url = process.env.OPENKYT_BENCH_PG ?? URL_DEFAULT;
  const schema = `bench_cold_${process.pid}`;
  let store: Store;
  try {
    store = await createPostgresStore({ connectionString: url, schema, migrate: true });
  } catch (error) {
    console.error(`cold-trace on Postgres skipped: no Postgres at ${url} (${String(error)})`);
    return [];
  }
  try {
    const t0 = performance.now();
    await loadGenerated(store, benchShape(size, shape));
    console.error(
      `cold-trace: ${size} ledger rows into Postgres in ${((performance.now() - t0) / 1000).toFixed(1)} s`,
    );
    // A live ledger table is vacuumed by autovacuum (insert thresholds, Postgres 13+), which
    // sets the visibility map that lets the tracer's counts scan the index alone; a table just
    // bulk-loaded has none yet (and autovacuum may be off on a test server), so every count at
    // a hub would read its heap pages: hundreds of ms of server CPU per hub of the 1M ledger.
    runPsql(url, schema, "vacuum analyze ledger_transfers;");
    await registerIncoming(store, "cold-trace", await sampleTransfers(store, size, count));
    const run = await runWorker(["postgres", url, schema], count, "postgres");
    return runFigures("Postgres", run, count, size);
  } finally {
    await store.close();
    runPsql(url, "public", `drop schema if exists "${schema}" cascade;`);
  }
}

/** Worker CPU per screened transfer, tracing from SQLite and from Postgres. */
export async function benchColdTrace(ledgerSize: number, quick: boolean): Promise<Figure[]> {
  const count = quick ? 100 : 1_000;
  const only = process.env.OPENKYT_BENCH_COLD_ONLY; // "sqlite" or "postgres": one backend
  return [
    ...(only === "postgres" ? [] : await sqliteRun(ledgerSize, count)),
    ...(only === "sqlite" ? [] : await postgresRun(ledgerSize, count)),
  ];
}
