/**
 * Screening with `openkyt worker` processes reading a ClickHouse ledger: the screening state on
 * Postgres (a fresh schema holding the reference data and the registered transfers, no ledger),
 * the ledger on ClickHouse (`--ledger clickhouse://...`). `count` transfers sampled from the
 * ledger are registered as incoming transfers once `workers` real CLI workers (from sources)
 * run, and they bind and check them; the rate is checked transfers over the wall time from the
 * first registration to the last check (read from each worker's /metrics), and the CPU of the
 * workers, the ClickHouse server and Postgres over the same span is given per transfer.
 * {@link measureWorkers} does the same for workers on any ledger (side-by-side.ts). Skipped (no figures)
 * when no Postgres answers at OPENKYT_BENCH_PG (default postgres://127.0.0.1:5432/test).
 */
import { type ChildProcess, spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import type { LedgerTransfer, Store } from "@openkyt/core";
import { freePort } from "@openkyt/ledger-clickhouse";
import { createPostgresStore } from "@openkyt/store-postgres";
import { ledgerReferenceData } from "@openkyt/testkit";
import { benchShape } from "./bench-ledger-db.js";
import { type Figure, figure, processCpuMs } from "./bench-stats.js";
import { registerIncoming } from "./bench-tracing.js";
import { runPsql } from "./crash/postgres-psql.js";
import { BackendCpu } from "./postgres/backend-cpu.js";

const BIN = fileURLToPath(new URL("../../packages/cli/bin/openkyt.js", import.meta.url));
const PG_DEFAULT = "postgres://127.0.0.1:5432/test";

/** How long a stopping worker may take to drain before it is killed (ms). */
const WORKER_STOP_GRACE_MS = 15_000;

/** Checks finished so far by one worker: the sum of `openkyt_checks_total{kind="exposure"}`. */
async function checksOf(port: number): Promise<number> {
  const text = await (await fetch(`http://127.0.0.1:${port}/metrics`)).text();
  let total = 0;
  for (const line of text.split("\n")) {
    if (line.startsWith('openkyt_checks_total{kind="exposure"')) total += Number(line.split(" ").pop());
  }
  return total;
}

/**
 * Node options for the workers from OPENKYT_BENCH_WORKER_NODE_ARGS (space-separated), e.g.
 * `--cpu-prof --cpu-prof-dir=DIR` to profile them (not allowed in NODE_OPTIONS).
 */
function workerNodeArgs(): string[] {
  return (process.env.OPENKYT_BENCH_WORKER_NODE_ARGS ?? "").split(" ").filter((a) => a !== "");
}

/** Starts one `openkyt worker` with `args`; resolves once it says it runs (warm: its ledger loaded). */
async function startWorker(
  bin: string,
  args: ReadonlyArray<string>,
  port: number,
  env: Readonly<Record<string, string>>,
): Promise<ChildProcess> {
  const child = spawn(
    process.execPath,
    [...workerNodeArgs(), bin, "worker", ...args, "--metrics-port", String(port), "--log-level", "warn"],
    {
      env: { ...process.env, OPENKYT_FROM_SOURCE: "1", OPENKYT_DB: "", ...env },
      stdio: ["ignore", "pipe", "inherit"],
    },
  );
  await new Promise<void>((resolve, reject) => {
    child.once("exit", (code) => reject(new Error(`openkyt worker exited (${code}) before it ran`)));
    child.stdout?.on("data", (d: Buffer) => {
      if (d.toString().includes("worker running")) resolve();
    });
  });
  child.removeAllListeners("exit");
  return child;
}

/** Where {@link measureWorkers} screens: the state, the workers' arguments, the servers' CPU. */
export interface WorkersTarget {
  /** The screening state, reference data in it: the sample is registered here. */
  readonly store: Store;
  /** `openkyt worker` arguments: `--db ...` and `--ledger clickhouse://...` or `--warm`. */
  readonly args: ReadonlyArray<string>;
  /**
   * CPU ms so far of each server the checks use (the ledger's, the state's), by name; read
   * before, about once a second while the checks run (a sampler may need it), and after.
   */
  readonly servers: Readonly<Record<string, () => number>>;
  /** The CLI to run (another checkout's `packages/cli/bin/openkyt.js`); this one's by default. */
  readonly bin?: string;
  /** More environment for the workers (e.g. OPENKYT_HUB_CACHE_MB=0: no hub cache). */
  readonly env?: Readonly<Record<string, string>>;
  /**
   * How long to wait for the checks, ms (default 30 min); past it the measure covers the checks
   * done so far (`transfers` less than the sample's) instead of failing.
   */
  readonly waitMillis?: number;
}

/** The raw figures of {@link measureWorkers}. */
export interface WorkersMeasure {
  readonly workers: number;
  /** Transfers checked: the sample's, or fewer when the wait ran out. */
  readonly transfers: number;
  /** Transfers registered. */
  readonly registered: number;
  /** From the first registration to the last check (or to the end of the wait). */
  readonly seconds: number;
  /** The workers' start, until each said it runs (a warm worker's load included). */
  readonly startSeconds: number;
  /** Both workers' CPU over `seconds`, ms. */
  readonly workerMs: number;
  /** Each server's CPU over `seconds`, ms. */
  readonly serversMs: Readonly<Record<string, number>>;
  /**
   * The same CPU over the second half of the checks only (from when half were checked: a cold
   * worker's hub cache loads mostly in the first half); null when the checks ended first.
   */
  readonly secondHalf: {
    readonly transfers: number;
    readonly workerMs: number;
    readonly serversMs: Readonly<Record<string, number>>;
  } | null;
}

/**
 * Starts `workers` real `openkyt worker` processes and waits until they run, then registers
 * `sample` as incoming transfers (16 at a time) and waits until the workers have checked them
 * all (each worker's /metrics): the rate is the checks over the wall time from the first
 * registration to the last check, with the CPU of the workers and of each server over it.
 */
export async function measureWorkers(
  target: WorkersTarget,
  sample: ReadonlyArray<LedgerTransfer>,
  workers: number,
): Promise<WorkersMeasure> {
  const children: ChildProcess[] = [];
  const readServers = () =>
    Object.fromEntries(Object.entries(target.servers).map(([name, read]) => [name, read()]));
  try {
    const ports = await Promise.all(Array.from({ length: workers }, () => freePort()));
    const started = performance.now();
    for (const port of ports)
      children.push(await startWorker(target.bin ?? BIN, target.args, port, target.env ?? {}));
    const startSeconds = (performance.now() - started) / 1000;
    const servers0 = readServers();
    const workers0 = children.reduce((sum, c) => sum + processCpuMs(c.pid ?? 0), 0);
    const t0 = performance.now();
    await registerIncoming(target.store, `workers-${process.pid}`, sample);
    const deadline = t0 + (target.waitMillis ?? 1_800_000);
    let checked = 0;
    let sampledAt = performance.now();
    let half: { checked: number; workerMs: number; servers: Record<string, number> } | null = null;
    while (checked < sample.length) {
      if (performance.now() > deadline) {
        console.error(
          `workers: only ${checked} of ${sample.length} checked in the wait; the figures cover those`,
        );
        break;
      }
      await new Promise((r) => setTimeout(r, 100));
      checked = (await Promise.all(ports.map(checksOf))).reduce((a, b) => a + b, 0);
      if (half === null && checked >= sample.length / 2) {
        const workerMs = children.reduce((sum, c) => sum + processCpuMs(c.pid ?? 0), 0);
        half = { checked, workerMs, servers: readServers() };
        sampledAt = performance.now();
      }
      if (performance.now() - sampledAt >= 1000) {
        readServers();
        sampledAt = performance.now();
      }
    }
    const seconds = (performance.now() - t0) / 1000;
    const workers1 = children.reduce((sum, c) => sum + processCpuMs(c.pid ?? 0), 0);
    const workerMs = workers1 - workers0;
    const servers1 = readServers();
    const since = (from: Record<string, number>) =>
      Object.fromEntries(
        Object.keys(target.servers).map((name) => [name, (servers1[name] ?? 0) - (from[name] ?? 0)]),
      );
    const serversMs = since(servers0);
    const secondHalf =
      half && half.checked < checked
        ? {
            transfers: checked - half.checked,
            workerMs: workers1 - half.workerMs,
            serversMs: since(half.servers),
          }
        : null;
    console.error(
      `workers: ${workers} checked ${checked} of ${sample.length} in ${seconds.toFixed(1)} s (started in ${startSeconds.toFixed(1)} s); CPU: workers ${workerMs} ms, ${Object.entries(
        serversMs,
      )
        .map(([name, ms]) => `${name} ${ms} ms`)
        .join(", ")}`,
    );
    return {
      workers,
      transfers: checked,
      registered: sample.length,
      seconds,
      startSeconds,
      workerMs,
      serversMs,
      secondHalf,
    };
  } finally {
    // A worker drains its checks on SIGTERM; one still busy after the grace (a check retrying a
    // failing store) is killed, so the bench always ends and prints its figures.
    for (const child of children) {
      if (child.exitCode !== null || child.signalCode !== null) continue;
      const exited = new Promise((r) => child.once("exit", r));
      child.kill("SIGTERM");
      const grace = setTimeout(() => child.kill("SIGKILL"), WORKER_STOP_GRACE_MS);
      await exited;
      clearTimeout(grace);
    }
  }
}

/** The figures of a {@link WorkersMeasure}; `label` names the ledger and the state. */
export function workersFigures(m: WorkersMeasure, label: string): Figure[] {
  const n = Math.max(1, m.transfers);
  return [
    figure(
      `screening rate (${m.workers} workers, ${label}${m.transfers < m.registered ? `, ${m.transfers} of ${m.registered} checked in the wait` : ""})`,
      "transfers/s",
      [m.transfers / m.seconds],
    ),
    figure("  worker CPU per screened transfer (both workers, after start-up)", "ms", [m.workerMs / n]),
    ...Object.entries(m.serversMs).map(([name, ms]) =>
      figure(`  ${name} CPU per screened transfer`, "ms", [ms / n]),
    ),
    ...(m.secondHalf
      ? [
          figure("  worker CPU per screened transfer, second half", "ms", [
            m.secondHalf.workerMs / m.secondHalf.transfers,
          ]),
          ...Object.entries(m.secondHalf.serversMs).map(([name, ms]) =>
            figure(`  ${name} CPU per screened transfer, second half`, "ms", [
              ms / (m.secondHalf?.transfers ?? 1),
            ]),
          ),
        ]
      : []),
  ];
}

/** Options of {@link benchClickHouseWorkers}. */
export interface ClickHouseWorkersOptions {
  /** The CLI to run (another checkout's `packages/cli/bin/openkyt.js`); this one's by default. */
  readonly bin?: string;
  /** The Postgres schema of the screening state (dropped after); `bench_chw_<pid>` by default. */
  readonly schema?: string;
  /** The Postgres server and database of the state; OPENKYT_BENCH_PG or the local `test` by default. */
  readonly stateUrl?: string;
  /** How long the workers may take over the checks (see {@link WorkersTarget.waitMillis}). */
  readonly waitMillis?: number;
  /** More environment for the workers (see {@link WorkersTarget.env}). */
  readonly env?: Readonly<Record<string, string>>;
}

/**
 * The screening of `workers` workers on the ClickHouse ledger at `ledgerUrl` (`rows` rows of the
 * benchmark shape), over `sample` transfers taken from it; `serverPid` is the ClickHouse
 * server's. The state is a fresh Postgres schema (dropped after); null when no Postgres answers.
 */
export async function measureClickHouseWorkers(
  ledgerUrl: string,
  rows: number,
  sample: ReadonlyArray<LedgerTransfer>,
  workers: number,
  serverPid: number,
  options: ClickHouseWorkersOptions = {},
): Promise<WorkersMeasure | null> {
  const url = options.stateUrl ?? process.env.OPENKYT_BENCH_PG ?? PG_DEFAULT;
  const schema = options.schema ?? `bench_chw_${process.pid}`;
  let store: Store;
  try {
    store = await createPostgresStore({ connectionString: url, schema, migrate: true });
  } catch (error) {
    console.error(`clickhouse workers skipped: no Postgres at ${url} (${String(error)})`);
    return null;
  }
  const backends = new BackendCpu(url, schema);
  try {
    const ref = ledgerReferenceData(benchShape(rows));
    await store.putAttributions(ref.attributions);
    await store.putSanctions(ref.sanctions);
    const db = `${url}${url.includes("?") ? "&" : "?"}schema=${schema}`;
    return await measureWorkers(
      {
        store,
        args: ["--db", db, "--ledger", ledgerUrl],
        servers: {
          ClickHouse: () => processCpuMs(serverPid),
          Postgres: () => {
            backends.sample();
            return backends.totalMs();
          },
        },
        ...(options.bin ? { bin: options.bin } : {}),
        ...(options.waitMillis ? { waitMillis: options.waitMillis } : {}),
        ...(options.env ? { env: options.env } : {}),
      },
      sample,
      workers,
    );
  } finally {
    await store.close();
    runPsql(url, "public", `drop schema if exists "${schema}" cascade;`);
  }
}

/** {@link measureClickHouseWorkers} as figures (none without Postgres). */
export async function benchClickHouseWorkers(
  ledgerUrl: string,
  rows: number,
  sample: ReadonlyArray<LedgerTransfer>,
  workers: number,
  serverPid: number,
  options: ClickHouseWorkersOptions = {},
): Promise<Figure[]> {
  const m = await measureClickHouseWorkers(ledgerUrl, rows, sample, workers, serverPid, options);
  return m
    ? workersFigures(m, `${rows.toLocaleString("en-US")}-row ClickHouse ledger, state on Postgres`)
    : [];
}
