/**
 * Two real `openkyt worker --warm` processes on one Postgres schema (each with its default
 * screening threads, one fewer than the cores: a screening pool over one shared ledger image),
 * the way issue 33 asks for its Postgres and latency targets; with OPENKYT_BENCH_WARM=0 two
 * default `openkyt worker` processes instead (no `--warm`: traces read from the database through
 * the default hub cache), the scenario issue 35 reported:
 *
 * 1. peak: `count` sampled transfers registered by this process, 64 in flight, under a new
 *    account; transfers/s from the first registration to the last exposure check (the workers'
 *    /metrics), the workers' CPU (every thread) per screened transfer, in all, per worker and
 *    over the second half of the checks only (CPU sampled when half were checked: a cold
 *    worker's hub cache loads mostly in the first half), and Postgres's (the CPU of the server's
 *    backends on this database, sampled every second: registration included, other databases'
 *    work not);
 * 2. latency: the first of the same transfers (a minute's worth, at most `count`) under another
 *    account, registered one at a time at half of that rate (evenly spaced); register -> checked
 *    per transfer is its `updated_at -
 *    registered_at` (the check's write is a transfer's last; both in ms of one clock), p50/p99;
 * 3. memory: each worker's resident set once warm (cold: after the checks), per million ledger
 *    rows.
 *
 * The ledger (`size` rows of the benchmark shape, its labels and sanctions) is loaded once into
 * the schema `OPENKYT_BENCH_SCHEMA` (default `bench_pool_<size>_<shape>`) and kept for the next
 * run (a 1M-row load takes minutes; drop it by hand); registered transfers are left in it.
 *
 *   node --conditions=source --import tsx bench/src/postgres/pool-workers.ts [size=1000000] [count=3000] [workers=2]
 *   (OPENKYT_BENCH_PG: server URL; OPENKYT_BENCH_SHAPE: real (default) or classic;
 *    OPENKYT_BENCH_THREADS: --screening-threads, default the CLI's; OPENKYT_BENCH_WARM=0: cold
 *    workers with the CLI's defaults; OPENKYT_BENCH_WORKER_ARGS: node options for the workers,
 *    e.g. "--cpu-prof --cpu-prof-dir=/tmp/p", which NODE_OPTIONS does not take;
 *    OPENKYT_BENCH_METRICS_POLL_MS: how often the workers' /metrics are read, default 20)
 */
import { type ChildProcess, spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { createEngine, type LedgerTransfer, type Store } from "@openkyt/core";
import { freePort } from "@openkyt/ledger-clickhouse";
import { createPostgresStore } from "@openkyt/store-postgres";
import { benchShape, loadGenerated } from "../bench-ledger-db.js";
import { percentile, processCpuMs } from "../bench-stats.js";
import { sampleTransfers } from "../bench-tracing.js";
import { runPsql } from "../crash/postgres-psql.js";
import { BackendCpu } from "./backend-cpu.js";

const BIN = fileURLToPath(new URL("../../../packages/cli/bin/openkyt.js", import.meta.url));
const INFLIGHT = 64;
/**
 * How often the workers' /metrics are read while waiting for checks, ms (default 20, as the
 * figures so far). Each read costs a worker CPU that the figures count (the registry's text,
 * `process.memoryUsage()`, the open files): it shows in a cold worker's profile, though 250 ms
 * did not measurably lower its CPU per transfer (docs/benchmarks.md, "The issue's cold scenario").
 */
const METRICS_POLL_MS = Number(process.env.OPENKYT_BENCH_METRICS_POLL_MS ?? 20);

const [sizeArg = "1000000", countArg = "3000", workersArg = "2"] = process.argv.slice(2);
const size = Number(sizeArg);
const count = Number(countArg);
const workerCount = Number(workersArg);
const url = process.env.OPENKYT_BENCH_PG ?? "postgres://127.0.0.1:5432/test";
const shape = process.env.OPENKYT_BENCH_SHAPE === "classic" ? "classic" : "real";
const schema = process.env.OPENKYT_BENCH_SCHEMA ?? `bench_pool_${size}_${shape}`;
const threads = process.env.OPENKYT_BENCH_THREADS;
const warm = process.env.OPENKYT_BENCH_WARM !== "0";

/** Resident set of process `pid`, MB. */
function rssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const kb = /VmRSS:\s+(\d+)/.exec(status)?.[1];
  return Number(kb) / 1024;
}

/** Exposure checks finished so far by the worker serving /metrics on `port`. */
async function checksOf(port: number): Promise<number> {
  const text = await (await fetch(`http://127.0.0.1:${port}/metrics`)).text();
  let total = 0;
  for (const line of text.split("\n"))
    if (line.startsWith('openkyt_checks_total{kind="exposure"')) total += Number(line.split(" ").pop());
  return total;
}

/** Starts one `openkyt worker` (`--warm` unless cold); resolves once it runs (warm: its ledger loaded). */
async function startWorker(db: string, port: number): Promise<ChildProcess> {
  const args = [
    ...(process.env.OPENKYT_BENCH_WORKER_ARGS ?? "").split(" ").filter(Boolean),
    BIN,
    "worker",
    "--db",
    db,
    "--metrics-port",
    String(port),
    "--log-level",
    "warn",
  ];
  if (warm) args.push("--warm");
  if (threads !== undefined) args.push("--screening-threads", threads);
  const child = spawn(process.execPath, args, {
    env: { ...process.env, OPENKYT_FROM_SOURCE: "1", OPENKYT_DB: "" },
    stdio: ["ignore", "pipe", "inherit"],
  });
  await new Promise<void>((resolve, reject) => {
    child.once("exit", (code) => reject(new Error(`openkyt worker exited (${code}) before it ran`)));
    child.stdout?.on("data", (d: Buffer) => {
      if (d.toString().includes("worker running")) resolve();
    });
  });
  child.removeAllListeners("exit");
  return child;
}

/** Registers `rows` under `account`: `inflight` at a time, or one every `gapMs` when given. */
async function register(
  store: Store,
  account: string,
  rows: ReadonlyArray<LedgerTransfer>,
  pace: { inflight: number } | { gapMs: number },
): Promise<void> {
  const api = createEngine({ store }).forAccount(account);
  const one = (row: LedgerTransfer) =>
    api.registerTransfer({
      direction: "incoming",
      network: row.network,
      tx_hash: row.txHash,
      token_id: row.tokenId,
      output_address: row.to,
    });
  if ("inflight" in pace) {
    let next = 0;
    await Promise.all(
      Array.from({ length: pace.inflight }, async () => {
        while (next < rows.length) await one(rows[next++] as LedgerTransfer);
      }),
    );
    return;
  }
  const started = performance.now();
  const pending: Promise<unknown>[] = [];
  for (const [i, row] of rows.entries()) {
    const due = started + i * pace.gapMs;
    const wait = due - performance.now();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    pending.push(one(row));
  }
  await Promise.all(pending);
}

/**
 * Waits until the workers on `ports` have finished `target` exposure checks in all; calls
 * `atHalf(done)` once, when at least `half` are done, and samples `backends` every second.
 * Resolves to each worker's checks.
 */
async function checked(
  ports: ReadonlyArray<number>,
  target: number,
  backends: BackendCpu,
  half?: { readonly at: number; readonly atHalf: (done: number) => void },
): Promise<number[]> {
  const deadline = performance.now() + 1_800_000;
  let halfDone = half === undefined;
  let sampledAt = performance.now();
  for (;;) {
    const each = await Promise.all(ports.map(checksOf));
    const done = each.reduce((a, b) => a + b, 0);
    if (!halfDone && half && done >= half.at) {
      halfDone = true;
      half.atHalf(done);
    }
    if (done >= target) return each;
    if (performance.now() > deadline) throw new Error(`only ${done} of ${target} checked in 30 min`);
    if (performance.now() - sampledAt >= 1000) {
      backends.sample();
      sampledAt = performance.now();
    }
    await new Promise((r) => setTimeout(r, METRICS_POLL_MS));
  }
}

const store = await createPostgresStore({ connectionString: url, schema, migrate: true, pool: { max: 8 } });
const children: ChildProcess[] = [];
try {
  const held = Number(runPsql(url, schema, "select count(*) from ledger_transfers;").trim());
  if (held !== size) {
    if (held !== 0) throw new Error(`schema ${schema} holds ${held} ledger rows, not ${size}: drop it`);
    const t0 = performance.now();
    await loadGenerated(store, benchShape(size, shape));
    runPsql(url, schema, "vacuum analyze;");
    console.error(`loaded ${size} rows into ${schema} in ${((performance.now() - t0) / 1000).toFixed(0)} s`);
  }
  const sample = await sampleTransfers(store, size, count);
  const db = `${url}${url.includes("?") ? "&" : "?"}schema=${schema}`;
  const ports = await Promise.all(Array.from({ length: workerCount }, () => freePort()));
  const t0 = performance.now();
  for (const port of ports) children.push(await startWorker(db, port));
  const startRss = children.map((c) => rssMb(c.pid ?? 0));
  console.error(
    `${workerCount} ${warm ? "warm" : "cold"} workers running in ${((performance.now() - t0) / 1000).toFixed(0)} s; RSS ${startRss.map((r) => r.toFixed(0)).join(", ")} MB`,
  );
  const tag = `${process.pid}`;
  const backends = new BackendCpu(url, schema);
  // 1. Peak.
  const cpu0 = children.map((c) => processCpuMs(c.pid ?? 0, 0));
  backends.sample();
  const pg0 = backends.totalMs();
  /** CPU so far when half the checks were done (set by `checked`). */
  const marks: { half?: { done: number; workerMs: number; pgMs: number } } = {};
  const started = performance.now();
  await register(store, `peak-${tag}`, sample, { inflight: INFLIGHT });
  const each = await checked(ports, sample.length, backends, {
    at: Math.ceil(sample.length / 2),
    atHalf: (done) => {
      backends.sample();
      marks.half = {
        done,
        workerMs: children.reduce((ms, c) => ms + processCpuMs(c.pid ?? 0, 0), 0),
        pgMs: backends.totalMs(),
      };
    },
  });
  const seconds = (performance.now() - started) / 1000;
  backends.sample();
  const cpu1 = children.map((c) => processCpuMs(c.pid ?? 0, 0));
  const workerMs = cpu1.reduce((a, b) => a + b, 0) - cpu0.reduce((a, b) => a + b, 0);
  const pgMs = backends.totalMs() - pg0;
  const peak = sample.length / seconds;
  console.log(
    `peak: ${peak.toFixed(0)} transfers/s (${sample.length} in ${seconds.toFixed(1)} s), worker CPU ${(workerMs / sample.length).toFixed(2)} ms/transfer, Postgres ${(pgMs / sample.length).toFixed(2)} ms/transfer`,
  );
  console.log(
    `per worker: ${children.map((_, i) => `${each[i]} checks, ${(((cpu1[i] ?? 0) - (cpu0[i] ?? 0)) / Math.max(1, each[i] ?? 0)).toFixed(2)} ms/check`).join("; ")}`,
  );
  const half = marks.half;
  if (half && half.done < sample.length) {
    const n = sample.length - half.done;
    const endWorker = cpu1.reduce((a, b) => a + b, 0);
    console.log(
      `second half (${n} transfers after ${half.done} checked): worker CPU ${((endWorker - half.workerMs) / n).toFixed(2)} ms/transfer, Postgres ${((backends.totalMs() - half.pgMs) / n).toFixed(2)} ms/transfer`,
    );
  }
  // 2. Latency at half the peak rate.
  const halfRate = peak / 2;
  const account = `half-${tag}`;
  const paced = sample.slice(0, Math.max(10, Math.min(sample.length, Math.round(halfRate * 60))));
  await register(store, account, paced, { gapMs: 1000 / halfRate });
  await checked(ports, sample.length + paced.length, backends);
  const out = runPsql(
    url,
    schema,
    `select updated_at - registered_at from transfers where account_id = '${account}' order by registered_at;`,
  );
  const latencies = out.split("\n").filter(Boolean).map(Number);
  const sorted = [...latencies].sort((a, b) => a - b);
  console.log(
    `half rate ${halfRate.toFixed(0)}/s: register -> checked p50 ${percentile(sorted, 50).toFixed(0)} ms, p99 ${percentile(sorted, 99).toFixed(0)} ms, max ${sorted[sorted.length - 1]} ms (${latencies.length} transfers)`,
  );
  // 3. Memory (cold: after the checks, the hub cache filled).
  const rss = warm ? startRss : children.map((c) => rssMb(c.pid ?? 0));
  console.log(
    `${warm ? "warm" : "cold, after the checks,"} RSS per worker: ${rss.map((r) => r.toFixed(0)).join(", ")} MB, ${rss.map((r) => ((r / size) * 1e6).toFixed(0)).join(", ")} MB per million ledger rows`,
  );
} finally {
  for (const child of children) {
    if (child.exitCode !== null) continue;
    const exited = new Promise((r) => child.once("exit", r));
    child.kill("SIGTERM");
    await exited;
  }
  await store.close();
}
