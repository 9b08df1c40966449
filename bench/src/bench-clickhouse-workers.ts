/**
 * Screening with `openkyt worker` processes reading a ClickHouse ledger: the screening state on
 * Postgres (a fresh schema holding the reference data and the registered transfers, no ledger),
 * the ledger on ClickHouse (`--ledger clickhouse://...`). `count` transfers sampled from the
 * ledger are registered as incoming transfers, then `workers` real CLI workers (from sources)
 * bind and check them; the rate is checked transfers over the wall time from the workers'
 * start to the last check (read from each worker's /metrics), and the CPU of the workers, the
 * ClickHouse server and Postgres over the same span is given per transfer. Skipped (no figures)
 * when no Postgres answers at OPENKYT_BENCH_PG (default postgres://127.0.0.1:5432/test).
 */
import { type ChildProcess, spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import type { LedgerTransfer, Store } from "@openkyt/core";
import { freePort } from "@openkyt/ledger-clickhouse";
import { createPostgresStore } from "@openkyt/store-postgres";
import { ledgerReferenceData } from "@openkyt/testkit";
import { benchShape } from "./bench-ledger-db.js";
import { type Figure, figure, processesCpuMs } from "./bench-stats.js";
import { registerIncoming } from "./bench-tracing.js";
import { runPsql } from "./crash/postgres-psql.js";

const BIN = fileURLToPath(new URL("../../packages/cli/bin/openkyt.js", import.meta.url));
const PG_DEFAULT = "postgres://127.0.0.1:5432/test";

/** User + system CPU milliseconds of one process so far (Linux /proc; NaN elsewhere). */
export function processCpuMs(pid: number): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]?.split(" ") ?? [];
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return Number.NaN;
  }
}

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

/** Starts one `openkyt worker`; resolves once it says it runs. */
async function startWorker(
  bin: string,
  db: string,
  ledgerUrl: string,
  port: number,
  env: Readonly<Record<string, string>>,
): Promise<ChildProcess> {
  const child = spawn(
    process.execPath,
    [
      ...workerNodeArgs(),
      bin,
      "worker",
      "--db",
      db,
      "--ledger",
      ledgerUrl,
      "--metrics-port",
      String(port),
      "--log-level",
      "warn",
    ],
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

/** Options of {@link benchClickHouseWorkers}. */
export interface ClickHouseWorkersOptions {
  /** The CLI to run (another checkout's `packages/cli/bin/openkyt.js`); this one's by default. */
  readonly bin?: string;
  /** The Postgres schema of the screening state (dropped after); `bench_chw_<pid>` by default. */
  readonly schema?: string;
  /** More environment for the workers (e.g. OPENKYT_HUB_CACHE_MB=0: no hub cache). */
  readonly env?: Readonly<Record<string, string>>;
}

/**
 * The screening rate of `workers` workers on the ClickHouse ledger at `ledgerUrl` (`rows` rows of
 * the benchmark shape), over `sample` transfers taken from it; `serverPid` is the ClickHouse server's.
 */
export async function benchClickHouseWorkers(
  ledgerUrl: string,
  rows: number,
  sample: ReadonlyArray<LedgerTransfer>,
  workers: number,
  serverPid: number,
  options: ClickHouseWorkersOptions = {},
): Promise<Figure[]> {
  const url = process.env.OPENKYT_BENCH_PG ?? PG_DEFAULT;
  const schema = options.schema ?? `bench_chw_${process.pid}`;
  let store: Store;
  try {
    store = await createPostgresStore({ connectionString: url, schema, migrate: true });
  } catch (error) {
    console.error(`clickhouse workers skipped: no Postgres at ${url} (${String(error)})`);
    return [];
  }
  const children: ChildProcess[] = [];
  try {
    const ref = ledgerReferenceData(benchShape(rows));
    await store.putAttributions(ref.attributions);
    await store.putSanctions(ref.sanctions);
    await registerIncoming(store, "ch-workers", sample);
    const db = `${url}${url.includes("?") ? "&" : "?"}schema=${schema}`;
    const ports = await Promise.all(Array.from({ length: workers }, () => freePort()));
    const ch0 = processCpuMs(serverPid);
    const pg0 = processesCpuMs("postgres");
    const started = performance.now();
    for (const port of ports)
      children.push(await startWorker(options.bin ?? BIN, db, ledgerUrl, port, options.env ?? {}));
    const deadline = started + 1_800_000;
    let checked = 0;
    // The workers' CPU once half the transfers are checked: the second half's, start-up left out.
    let half: { checked: number; workerMs: number; chMs: number } | null = null;
    while (checked < sample.length) {
      if (performance.now() > deadline)
        throw new Error(`only ${checked} of ${sample.length} checked in 30 min`);
      await new Promise((r) => setTimeout(r, 100));
      checked = (await Promise.all(ports.map(checksOf))).reduce((a, b) => a + b, 0);
      if (half === null && checked >= sample.length / 2) {
        const workerMs = children.reduce((sum, c) => sum + processCpuMs(c.pid ?? 0), 0);
        half = { checked, workerMs, chMs: processCpuMs(serverPid) };
      }
    }
    const seconds = (performance.now() - started) / 1000;
    const workerMs = children.reduce((sum, c) => sum + processCpuMs(c.pid ?? 0), 0);
    const chMs = processCpuMs(serverPid) - ch0;
    const pgMs = processesCpuMs("postgres") - pg0;
    const n = sample.length;
    console.error(
      `clickhouse workers: ${workers} workers checked ${n} in ${seconds.toFixed(1)} s; CPU: workers ${workerMs} ms, ClickHouse ${chMs} ms, Postgres ${pgMs} ms`,
    );
    const label = `${workers} workers, ${rows.toLocaleString("en-US")}-row ClickHouse ledger, state on Postgres`;
    return [
      figure(`screening rate (${label})`, "transfers/s", [n / seconds]),
      figure("  worker CPU per screened transfer (both workers, start-up included)", "ms", [workerMs / n]),
      figure("  ClickHouse server CPU per screened transfer", "ms", [chMs / n]),
      figure("  Postgres CPU per screened transfer", "ms", [pgMs / n]),
      ...(half && half.checked < n
        ? [
            figure("  worker CPU per screened transfer, second half", "ms", [
              (workerMs - half.workerMs) / (n - half.checked),
            ]),
            figure("  ClickHouse server CPU per screened transfer, second half", "ms", [
              (ch0 + chMs - half.chMs) / (n - half.checked),
            ]),
          ]
        : []),
    ];
  } finally {
    for (const child of children) {
      if (child.exitCode !== null) continue;
      const exited = new Promise((r) => child.once("exit", r));
      child.kill("SIGTERM");
      await exited;
    }
    await store.close();
    runPsql(url, "public", `drop schema if exists "${schema}" cascade;`);
  }
}
