/**
 * Old and new cold workers alternating on one Postgres ledger: the way to compare two checkouts'
 * CPU per screened transfer on a shared machine, where figures from separate runs differ by
 * half. The ledger of `size` rows is loaded once into the schema `bench_cold_ab_<size>_<shape>`
 * (kept for the next run: a 1M-row load takes minutes; drop it by hand), vacuumed as autovacuum
 * would a live one; each run registers the same `count` sampled transfers under a new account
 * and starts one checkout's `bench/src/cold/cold-worker-child.ts` on the schema until they are
 * checked. Prints one line per run: worker CPU and its Postgres backends' CPU per transfer, and
 * what the child reported on stopping (its hub cache's hubs, rows, loads and evictions; its heap
 * after a full collection).
 *
 *   node --conditions=source --import tsx src/cold/cold-ab.ts SIZE COUNT ROUNDS LABEL=CHECKOUT[:HUB_MB]...
 *   (OPENKYT_BENCH_PG: server URL; OPENKYT_BENCH_SHAPE: real (default) or classic;
 *    HUB_MB: the child's OPENKYT_HUB_CACHE_MB, unset when absent;
 *    OPENKYT_BENCH_CHILD_ARGS: extra node options for the child, e.g. "--cpu-prof --cpu-prof-dir=/tmp/p")
 */
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { createPostgresStore } from "@openkyt/store-postgres";
import { benchShape, loadGenerated } from "../bench-ledger-db.js";
import { processCpuMs } from "../bench-stats.js";
import { registerIncoming, sampleTransfers } from "../bench-tracing.js";
import { runPsql } from "../crash/postgres-psql.js";

const url = process.env.OPENKYT_BENCH_PG ?? "postgres://127.0.0.1:5432/test";
const shape = process.env.OPENKYT_BENCH_SHAPE === "classic" ? "classic" : "real";

/** A checkout to run: its label, the directory that holds its bench/, its hub cache (MB) if set. */
interface Checkout {
  readonly label: string;
  readonly dir: string;
  readonly hubCacheMb: string | null;
}

/** Node options every child gets: a full collection on demand, so it can report its heap. */
const childArgs = ["--expose-gc", ...(process.env.OPENKYT_BENCH_CHILD_ARGS ?? "").split(" ").filter(Boolean)];

/** Pids of the store's backends (application "openkyt") on the server now. */
function storeBackends(): Set<number> {
  const out = runPsql(url, "public", "select pid from pg_stat_activity where application_name = 'openkyt';");
  return new Set(out.split("\n").filter(Boolean).map(Number));
}

/** One worker run of `checkout` until `count` checks; its CPU and its new backends' CPU, ms. */
async function runOnce(
  checkout: Checkout,
  schema: string,
  count: number,
): Promise<{ worker: number; server: number; report: string }> {
  const before = storeBackends();
  const env = { ...process.env };
  delete env.OPENKYT_HUB_CACHE_MB;
  if (checkout.hubCacheMb !== null) env.OPENKYT_HUB_CACHE_MB = checkout.hubCacheMb;
  const child = spawn(
    process.execPath,
    [
      ...childArgs,
      "--conditions=source",
      "--import",
      "tsx",
      join(checkout.dir, "bench/src/cold/cold-worker-child.ts"),
      "postgres",
      url,
      schema,
    ],
    { cwd: join(checkout.dir, "bench"), env, stdio: ["ignore", "pipe", "inherit"] },
  );
  const report: string[] = [];
  // Backends the run opened, with their CPU when the worker first reported (start-up excluded);
  // those opened later count whole. One closed before the end (idle 10 s) is not counted.
  const atReady = new Map<number, number>();
  let ready = false;
  try {
    const workerCpu = await new Promise<number>((resolve, reject) => {
      child.once("exit", (code) => reject(new Error(`${checkout.label}: worker exited (${code})`)));
      createInterface({ input: child.stdout as NonNullable<typeof child.stdout> }).on("line", (line) => {
        if (/^(hubs|heap|reads|sql) /.test(line)) report.push(line);
        const m = /^checked (\d+) (\d+)$/.exec(line);
        if (!m) return;
        if (!ready) {
          ready = true;
          for (const pid of storeBackends()) if (!before.has(pid)) atReady.set(pid, processCpuMs(pid, 0));
        }
        if (Number(m[1]) >= count) resolve(Number(m[2]));
      });
    });
    let server = 0;
    for (const pid of storeBackends()) {
      if (!before.has(pid)) server += processCpuMs(pid, 0) - (atReady.get(pid) ?? 0);
    }
    child.removeAllListeners("exit");
    const exited = new Promise((r) => child.once("exit", r));
    child.kill("SIGTERM");
    await exited;
    return { worker: workerCpu / count, server: server / count, report: report.join("\t") };
  } finally {
    child.removeAllListeners("exit");
    if (child.exitCode === null) {
      const exited = new Promise((r) => child.once("exit", r));
      child.kill("SIGTERM");
      await exited;
    }
  }
}

const [size = 0, count = 0, rounds = 0] = process.argv.slice(2, 5).map(Number);
const checkouts: Checkout[] = process.argv.slice(5).map((arg) => {
  const [label = "", rest = ""] = arg.split("=");
  const [dir = "", hubCacheMb = null] = rest.split(":");
  return { label, dir, hubCacheMb };
});
if (!(size > 0 && count > 0 && rounds > 0) || checkouts.some((c) => !c.label || !c.dir)) {
  console.error("usage: cold-ab.ts SIZE COUNT ROUNDS LABEL=CHECKOUT[:HUB_MB] [LABEL=CHECKOUT[:HUB_MB]...]");
  process.exit(2);
}
const schema = `bench_cold_ab_${size}_${shape}`;
const store = await createPostgresStore({ connectionString: url, schema, migrate: true });
try {
  const held = Number(runPsql(url, schema, "select count(*) from ledger_transfers;").trim());
  if (held < size) {
    if (held > 0) runPsql(url, schema, "truncate ledger_transfers;");
    await loadGenerated(store, benchShape(size, shape));
    runPsql(url, schema, "vacuum analyze ledger_transfers;");
  }
  const sample = await sampleTransfers(store, size, count);
  for (let round = 0; round < rounds; round++) {
    for (const checkout of checkouts) {
      await registerIncoming(store, `ab-${checkout.label}-${Date.now()}`, sample);
      const load = readFileSync("/proc/loadavg", "utf8").split(" ")[0];
      const run = await runOnce(checkout, schema, count);
      console.log(
        `${checkout.label}\tround ${round}\tworker ${run.worker.toFixed(2)} ms\tpostgres ${run.server.toFixed(2)} ms per screened transfer\tload ${load}\t${run.report}`,
      );
    }
  }
} finally {
  await store.close();
}
