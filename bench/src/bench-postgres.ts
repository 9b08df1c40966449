/**
 * Screening throughput on Postgres with 2 worker processes: the generated ledger in a fresh
 * schema, this process registering transfers (64 in flight, no runner of its own) while two
 * `postgres-worker-child.ts` processes bind and check them. A transfer counts when a worker
 * wrote its checks. Skips (no figures) when no Postgres answers at OPENKYT_BENCH_PG
 * (default postgres://127.0.0.1:5432/test).
 */
import { type ChildProcess, spawn } from "node:child_process";
import { dirname, join } from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { createEngine, type LedgerTransfer } from "@openkyt/core";
import { createPostgresStore } from "@openkyt/store-postgres";
import { benchShape, loadGenerated } from "./bench-ledger-db.js";
import { type Figure, figure } from "./bench-stats.js";
import { sampleTransfers } from "./bench-tracing.js";
import { runPsql } from "./crash/postgres-psql.js";

const here = dirname(fileURLToPath(import.meta.url));
const URL_DEFAULT = "postgres://127.0.0.1:5432/test";
const WORKERS = 2;
const INFLIGHT = 64;

/** A worker process and the last count it printed. */
interface Worker {
  readonly child: ChildProcess;
  checked: number;
  readonly ready: Promise<void>;
}

function startWorker(url: string, schema: string): Worker {
  const child = spawn(
    process.execPath,
    [
      "--conditions=source",
      "--import",
      "tsx",
      join(here, "postgres", "postgres-worker-child.ts"),
      url,
      schema,
    ],
    { stdio: ["ignore", "pipe", "inherit"] },
  );
  let ready: () => void = () => {};
  const worker: Worker = { child, checked: 0, ready: new Promise<void>((r) => (ready = r)) };
  createInterface({ input: child.stdout as NonNullable<typeof child.stdout> }).on("line", (line) => {
    if (line === "ready") ready();
    const m = /^checked (\d+)$/.exec(line);
    if (m) worker.checked = Number(m[1]);
  });
  return worker;
}

/** Transfers/s end to end with 2 workers, or no figures when Postgres is not there. */
export async function benchPostgres(ledgerSize: number, quick: boolean): Promise<Figure[]> {
  const url = process.env.OPENKYT_BENCH_PG ?? URL_DEFAULT;
  const schema = `bench_screening_${process.pid}`;
  let store: Awaited<ReturnType<typeof createPostgresStore>>;
  try {
    store = await createPostgresStore({ connectionString: url, schema, migrate: true, pool: { max: 8 } });
  } catch (error) {
    console.error(`postgres benchmark skipped: no Postgres at ${url} (${String(error)})`);
    return [];
  }
  const workers: Worker[] = [];
  try {
    const size = quick ? ledgerSize : Math.min(ledgerSize, 1_000_000);
    const t0 = performance.now();
    await loadGenerated(store, benchShape(size));
    console.error(
      `postgres: ${size} ledger rows loaded in ${((performance.now() - t0) / 1000).toFixed(1)} s`,
    );
    const count = quick ? 300 : 3_000;
    const sample = await sampleTransfers(store, size, count);
    for (let i = 0; i < WORKERS; i++) workers.push(startWorker(url, schema));
    await Promise.all(workers.map((w) => w.ready));
    const engine = createEngine({ store });
    const api = engine.forAccount("bench");
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
    while (workers.reduce((n, w) => n + w.checked, 0) < count) {
      if (performance.now() > deadline) throw new Error("the workers did not finish within 10 minutes");
      await new Promise((r) => setTimeout(r, 20));
    }
    const seconds = (performance.now() - started) / 1000;
    return [
      figure(
        `screening throughput, Postgres, ${WORKERS} worker processes (${count} transfers, ledger ${size.toLocaleString("en-US")})`,
        "transfers/s",
        [count / seconds],
        ">= 3,000",
      ),
      figure("  registration alone (this process, 64 in flight)", "transfers/s", [
        count / ((registered - started) / 1000),
      ]),
    ];
  } finally {
    for (const w of workers) w.child.kill("SIGTERM");
    await Promise.all(
      workers.map((w) => new Promise((r) => (w.child.exitCode === null ? w.child.once("exit", r) : r(null)))),
    );
    await store.close();
    runPsql(url, "public", `drop schema if exists "${schema}" cascade;`);
  }
}
