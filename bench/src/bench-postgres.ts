/**
 * Screening throughput on Postgres with 1, 2 and 4 worker processes: the generated ledger in a
 * fresh schema, this process registering transfers (64 in flight, no runner of its own) while
 * `postgres-worker-child.ts` processes, each with a warm copy of the ledger, bind and check
 * them. A transfer counts when a worker wrote its checks. Each worker count screens transfers
 * of an account of its own (new transfers), over the same ledger. Skips (no figures) when no
 * Postgres answers at OPENKYT_BENCH_PG (default postgres://127.0.0.1:5432/test).
 */
import { type ChildProcess, spawn } from "node:child_process";
import { availableParallelism } from "node:os";
import { dirname, join } from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { createEngine, type LedgerTransfer, type Store } from "@openkyt/core";
import { createPostgresStore } from "@openkyt/store-postgres";
import { benchShape, loadGenerated } from "./bench-ledger-db.js";
import { type Figure, figure, processesCpuMs } from "./bench-stats.js";
import { sampleTransfers } from "./bench-tracing.js";
import { runPsql } from "./crash/postgres-psql.js";

const here = dirname(fileURLToPath(import.meta.url));
const URL_DEFAULT = "postgres://127.0.0.1:5432/test";
const INFLIGHT = 64;

/** A worker process, the last count it printed and what loading its warm ledger took. */
interface Worker {
  readonly child: ChildProcess;
  checked: number;
  /** CPU (ms) the worker used since it was ready. */
  cpuMs: number;
  warm: { rows: number; ms: number; rssMb: number } | null;
  readonly ready: Promise<void>;
}

/** A worker process; `threads` > 0 traces on a screening pool of that many threads. */
function startWorker(url: string, schema: string, threads = 0): Worker {
  const child = spawn(
    process.execPath,
    [
      "--conditions=source",
      "--import",
      "tsx",
      join(here, "postgres", "postgres-worker-child.ts"),
      url,
      schema,
      String(threads),
    ],
    { stdio: ["ignore", "pipe", "inherit"] },
  );
  let ready: () => void = () => {};
  const worker: Worker = {
    child,
    checked: 0,
    cpuMs: 0,
    warm: null,
    ready: new Promise<void>((r) => (ready = r)),
  };
  createInterface({ input: child.stdout as NonNullable<typeof child.stdout> }).on("line", (line) => {
    if (line === "ready") ready();
    const w = /^warm (\d+) (\d+) (\d+)$/.exec(line);
    if (w) worker.warm = { rows: Number(w[1]), ms: Number(w[2]), rssMb: Number(w[3]) };
    const m = /^checked (\d+) (\d+)$/.exec(line);
    if (m) {
      worker.checked = Number(m[1]);
      worker.cpuMs = Number(m[2]);
    }
  });
  return worker;
}

/** Stops worker processes and waits for them to exit. */
async function stopWorkers(workers: ReadonlyArray<Worker>): Promise<void> {
  for (const w of workers) w.child.kill("SIGTERM");
  await Promise.all(
    workers.map((w) => new Promise((r) => (w.child.exitCode === null ? w.child.once("exit", r) : r(null)))),
  );
}

/**
 * One run: `count` transfers of `account` registered while `workers` processes screen them,
 * each with `threads` screening threads (0: traces on its main thread).
 */
export async function screeningRun(
  store: Store,
  url: string,
  schema: string,
  sample: ReadonlyArray<LedgerTransfer>,
  workerCount: number,
  account: string,
  threads = 0,
) {
  const workers = Array.from({ length: workerCount }, () => startWorker(url, schema, threads));
  try {
    await Promise.all(workers.map((w) => w.ready));
    const api = createEngine({ store }).forAccount(account);
    const postgresBefore = processesCpuMs("postgres");
    const selfBefore = process.cpuUsage();
    const started = performance.now();
    let next = 0;
    await Promise.all(
      Array.from({ length: INFLIGHT }, async () => {
        while (next < sample.length) {
          const row = sample[next++] as LedgerTransfer;
          await api.registerTransfer({
            direction: "incoming",
            network: row.network,
            tx_hash: row.txHash,
            token_id: row.tokenId,
            output_address: row.to,
          });
        }
      }),
    );
    const registered = performance.now();
    const deadline = registered + 600_000;
    while (workers.reduce((n, w) => n + w.checked, 0) < sample.length) {
      if (performance.now() > deadline) throw new Error("the workers did not finish within 10 minutes");
      await new Promise((r) => setTimeout(r, 20));
    }
    const seconds = (performance.now() - started) / 1000;
    const self = process.cpuUsage(selfBefore);
    return {
      rate: sample.length / seconds,
      workerCpuMs: workers.reduce((ms, w) => ms + w.cpuMs, 0) / sample.length,
      // NaN when the server is not local (or /proc is not readable).
      postgresCpuMs: (processesCpuMs("postgres") - postgresBefore) / sample.length,
      registeringCpuMs: (self.user + self.system) / 1000 / sample.length,
      registrationRate: sample.length / ((registered - started) / 1000),
      warm: workers[0]?.warm ?? null,
    };
  } finally {
    await stopWorkers(workers);
  }
}

/** "2 cores", or "1 core" when the process is held to one (`taskset -c 0`). */
function coresHere(): string {
  const n = availableParallelism();
  return `${n} core${n === 1 ? "" : "s"}`;
}

/** The CPU a screened transfer cost in all: the workers', Postgres's and the registering process's. */
function totalCpuMs(run: { workerCpuMs: number; postgresCpuMs: number; registeringCpuMs: number }): number {
  return run.workerCpuMs + run.postgresCpuMs + run.registeringCpuMs;
}

/** Transfers/s end to end with 1, 2 and 4 workers (2 only with --quick), or no figures without Postgres. */
export async function benchPostgres(ledgerSize: number, quick: boolean): Promise<Figure[]> {
  const url = process.env.OPENKYT_BENCH_PG ?? URL_DEFAULT;
  const schema = `bench_screening_${process.pid}`;
  let store: Store;
  try {
    store = await createPostgresStore({ connectionString: url, schema, migrate: true, pool: { max: 8 } });
  } catch (error) {
    console.error(`postgres benchmark skipped: no Postgres at ${url} (${String(error)})`);
    return [];
  }
  try {
    const size = quick ? ledgerSize : Math.min(ledgerSize, 1_000_000);
    const t0 = performance.now();
    await loadGenerated(store, benchShape(size));
    console.error(
      `postgres: ${size} ledger rows loaded in ${((performance.now() - t0) / 1000).toFixed(1)} s`,
    );
    const count = quick ? 300 : 3_000;
    const sample = await sampleTransfers(store, size, count);
    const figures: Figure[] = [];
    for (const workerCount of quick ? [2] : [1, 2, 4]) {
      const run = await screeningRun(store, url, schema, sample, workerCount, `bench-${workerCount}w`);
      figures.push(
        figure(
          `screening throughput, Postgres, ${workerCount} worker process${workerCount === 1 ? "" : "es"}, warm ledger (${count} transfers, ledger ${size.toLocaleString("en-US")})`,
          "transfers/s",
          [run.rate],
          workerCount === 2 ? ">= 2,000" : undefined,
        ),
        figure(
          `  worker CPU per screened transfer (all ${workerCount} worker${workerCount === 1 ? "" : "s"}; Postgres's own CPU not included)`,
          "ms",
          [run.workerCpuMs],
        ),
        ...(Number.isFinite(run.postgresCpuMs)
          ? [
              figure("  Postgres server CPU per screened transfer (its processes on this machine)", "ms", [
                run.postgresCpuMs,
              ]),
              figure("  registering process CPU per screened transfer", "ms", [run.registeringCpuMs]),
              figure("  CPU per screened transfer, all processes (workers, Postgres, registering)", "ms", [
                totalCpuMs(run),
              ]),
              figure(
                `  what ${coresHere()} could screen at that CPU (cores / CPU per transfer)`,
                "transfers/s",
                [(availableParallelism() * 1000) / totalCpuMs(run)],
              ),
            ]
          : []),
        figure(
          `  registration alone (this process, 64 in flight), beside ${workerCount} worker${workerCount === 1 ? "" : "s"}`,
          "transfers/s",
          [run.registrationRate],
        ),
      );
      if (run.warm && workerCount === (quick ? 2 : 1)) {
        figures.push(
          figure(`  worker warm-ledger load (${run.warm.rows.toLocaleString("en-US")} rows)`, "ms", [
            run.warm.ms,
          ]),
          figure("  worker RSS after loading the warm ledger", "MB", [run.warm.rssMb]),
        );
      }
    }
    return figures;
  } finally {
    await store.close();
    runPsql(url, "public", `drop schema if exists "${schema}" cascade;`);
  }
}
