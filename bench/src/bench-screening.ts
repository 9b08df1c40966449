/**
 * Screening throughput and latency on one process over a SQLite file holding the generated
 * ledger: transfers registered, bound, checked (exposure, counterparty, sanctions), risks and
 * alerts written.
 *
 * Registrations arrive `INFLIGHT` at a time (as from an HTTP server or an ingestion pipeline)
 * while the job runner works in the background; a transfer counts when its checks are written.
 * Two configurations: warm (the ledger in memory, labels and sanctions cached:
 * `createWarmSources`) and cold (every hop read from SQLite).
 */
import {
  createEngine,
  createWarmSources,
  type Engine,
  type LedgerTransfer,
  type RegisterTransferRequest,
  type WarmSources,
} from "@openkyt/core";
import { createPooledWarmSources } from "@openkyt/runtime-node";
import { createSqliteStore } from "@openkyt/store-sqlite";
import type { LedgerShapeName } from "@openkyt/testkit";
import { DEFAULT_BENCH_SHAPE, ledgerCopy, ledgerLabel, removeCopy } from "./bench-ledger-db.js";
import { countSqlStatements } from "./bench-sql-count.js";
import { type Figure, figure, mainThreadCpuMs, percentile, repeat } from "./bench-stats.js";
import { sampleTransfers } from "./bench-tracing.js";

/** The ledger size of the README's embedding example figure. */
const README_LEDGER = 100_000;

/** Registrations in flight at once. */
const INFLIGHT = 64;

const body = (row: LedgerTransfer): RegisterTransferRequest => ({
  direction: "incoming",
  network: row.network,
  tx_hash: row.txHash,
  token_id: row.tokenId,
  output_address: row.to,
});

/**
 * `sources`, or with `OPENKYT_BENCH_LUMP=off` the same sources but attributions that name no
 * addresses that may resolve (no `addressScreen`), so that traces read every hub row one by one
 * as before lumped reads: the A/B of the README's API row (docs/benchmarks.md).
 */
function lumpingAsAsked(sources: WarmSources): WarmSources {
  if (process.env.OPENKYT_BENCH_LUMP !== "off") return sources;
  const held = sources.attributions;
  return {
    ...sources,
    attributions: { attributions: (n, a) => held.attributions(n, a), clear: () => held.clear() },
  };
}

/**
 * Screening threads asked for by `OPENKYT_BENCH_THREADS` (a whole number; 0 or unset: the
 * README's API as written, every trace on the main thread). With N > 0 the warm sources are
 * `createPooledWarmSources` with N threads, so the main thread's own work can be profiled apart
 * from the traces.
 */
function benchThreads(): number {
  const raw = process.env.OPENKYT_BENCH_THREADS ?? "0";
  const threads = Number(raw);
  if (!Number.isInteger(threads) || threads < 0)
    throw new Error(`OPENKYT_BENCH_THREADS must be a whole number, not ${raw}`);
  return threads;
}

async function withEngine<T>(
  ledgerSize: number,
  warm: boolean,
  count: number,
  run: (engine: Engine, sample: LedgerTransfer[]) => Promise<T>,
  shape: LedgerShapeName = DEFAULT_BENCH_SHAPE,
) {
  const file = await ledgerCopy(ledgerSize, "screening", shape);
  const store = await createSqliteStore({ filename: file });
  const threads = warm ? benchThreads() : 0;
  const pooled = threads > 0 ? await createPooledWarmSources(store, { pool: { threads } }) : null;
  try {
    const sample = await sampleTransfers(store, ledgerSize, count);
    const sources = pooled ?? (warm ? lumpingAsAsked(await createWarmSources(store)) : {});
    // The engine's defaults (a batch of jobs.concurrency = 64), as the README's API has them; a
    // shorter poll only matters to the cold start of a run.
    const engine = createEngine({ store, jobs: { pollIntervalMs: 20 }, ...sources });
    return await run(engine, sample);
  } finally {
    await pooled?.close();
    await store.close();
    removeCopy(file);
  }
}

/** Resolves when `count` transfers were checked; calls `onChecked` with each one's id. */
function checkedCounter(engine: Engine, count: number, onChecked?: (id: string) => void): Promise<void> {
  let checked = 0;
  return new Promise<void>((resolve) => {
    engine.events.on("transfer.checked", (t) => {
      onChecked?.(t.id);
      checked += 1;
      if (checked === count) resolve();
    });
  });
}

/**
 * Registers the sample INFLIGHT at a time with the runner started; transfers/s, CPU ms and SQL
 * statements per transfer.
 */
export async function screeningThroughput(
  ledgerSize: number,
  warm: boolean,
  count: number,
  around: { before?: () => Promise<void>; after?: () => Promise<void> } = {},
  shape: LedgerShapeName = DEFAULT_BENCH_SHAPE,
) {
  const sql = countSqlStatements();
  return withEngine(
    ledgerSize,
    warm,
    count,
    async (engine, sample) => {
      const api = engine.forAccount("bench");
      let alerts = 0;
      engine.events.on("alert.created", () => {
        alerts += 1;
      });
      const allChecked = checkedCounter(engine, sample.length);
      await around.before?.();
      sql.start();
      const cpu0 = process.cpuUsage();
      const main0 = mainThreadCpuMs();
      const t0 = performance.now();
      engine.start();
      let next = 0;
      await Promise.all(
        Array.from({ length: INFLIGHT }, async () => {
          while (next < sample.length) {
            const row = sample[next++] as LedgerTransfer;
            await api.registerTransfer(body(row));
          }
        }),
      );
      await allChecked;
      const seconds = (performance.now() - t0) / 1000;
      const cpu = process.cpuUsage(cpu0);
      const mainMs = mainThreadCpuMs() - main0;
      sql.stop();
      await around.after?.();
      await engine.stop();
      const listed = await api.listTransfers({ page_size: "1" });
      if (listed.total_items !== sample.length) throw new Error("not every transfer was registered");
      return {
        rate: sample.length / seconds,
        cpuMs: (cpu.user + cpu.system) / 1000 / sample.length,
        mainCpuMs: mainMs / sample.length,
        statements: sql.total() / sample.length,
        alerts,
      };
    },
    shape,
  );
}

/** Latency register -> all checks finished, at a fixed arrival rate with the runner in the background. */
export async function latencyRun(ledgerSize: number, count: number, perSecond: number) {
  return withEngine(ledgerSize, true, count, async (engine, sample) => {
    const api = engine.forAccount("bench");
    const issued = new Map<string, number>();
    const checkedAt = new Map<string, number>();
    const finished = checkedCounter(engine, sample.length, (id) => {
      if (!checkedAt.has(id)) checkedAt.set(id, performance.now());
    });
    engine.start();
    const interval = 1000 / perSecond;
    const t0 = performance.now();
    await Promise.all(
      sample.map(async (row, i) => {
        const wait = t0 + i * interval - performance.now();
        if (wait > 0) await new Promise((r) => setTimeout(r, wait));
        const at = performance.now();
        const { transfer } = await api.registerTransfer(body(row));
        issued.set(transfer.id, at);
      }),
    );
    await finished;
    await engine.stop();
    return [...issued].map(([id, at]) => (checkedAt.get(id) ?? Number.NaN) - at);
  });
}

/**
 * Throughput warm and cold, and the README's API on a 100,000 ledger, on the real-shaped ledger
 * and then the classic one (named rows, to compare; latency: `benchLatency`).
 */
export async function benchScreening(ledgerSize: number, quick: boolean): Promise<Figure[]> {
  const figures: Figure[] = [];
  for (const shape of ["real", "classic"] as const)
    figures.push(...(await screeningRows(ledgerSize, quick, shape)));
  return figures;
}

/** The screening rows of one ledger shape. */
async function screeningRows(ledgerSize: number, quick: boolean, shape: LedgerShapeName): Promise<Figure[]> {
  const count = quick ? 500 : 5_000;
  const coldCount = quick ? 200 : 1_000;
  const warmRuns = await repeat(quick ? 1 : 3, () => screeningThroughput(ledgerSize, true, count, {}, shape));
  const coldRuns = await repeat(1, () => screeningThroughput(ledgerSize, false, coldCount, {}, shape));
  // The README's embedding API as a new user tries it: a 100,000-transfer ledger (full run only).
  const readme = quick
    ? []
    : await repeat(3, () => screeningThroughput(README_LEDGER, true, 4_000, {}, shape));
  const on = ledgerLabel(ledgerSize, shape);
  return [
    figure(
      `screening throughput, README's API, SQLite, 1 process, warm sources, ${on} (${count} transfers, ${INFLIGHT} in flight)`,
      "transfers/s",
      warmRuns.map((r) => r.rate),
      ">= 2,000",
    ),
    figure(
      `  CPU per screened transfer, warm, ${on}`,
      "ms",
      warmRuns.map((r) => r.cpuMs),
      "<= 0.5",
    ),
    figure(
      "  of it on the main thread (the screening thread; the rest GC helpers and I/O)",
      "ms",
      warmRuns.map((r) => r.mainCpuMs),
    ),
    figure(
      "  SQL statements per screened transfer, warm",
      "statements",
      warmRuns.map((r) => r.statements),
    ),
    figure(
      `screening throughput, SQLite, 1 process, cold, ${on} (${coldCount} transfers)`,
      "transfers/s",
      coldRuns.map((r) => r.rate),
    ),
    figure(
      `alerts written per warm run, ${on}`,
      "alerts",
      warmRuns.map((r) => r.alerts),
    ),
    ...(readme.length === 0
      ? []
      : [
          figure(
            `screening through the README's embedding API, ${ledgerLabel(README_LEDGER, shape)}, warm (4,000 transfers)`,
            "transfers/s",
            readme.map((r) => r.rate),
            ">= 2,000",
          ),
          figure(
            `  CPU per screened transfer (README's API), ${ledgerLabel(README_LEDGER, shape)}`,
            "ms",
            readme.map((r) => r.cpuMs),
            "<= 0.5",
          ),
          figure(
            "  SQL statements per screened transfer (README's API)",
            "statements",
            readme.map((r) => r.statements),
          ),
        ]),
  ];
}

/**
 * Latency register -> checked at half the warm throughput, in a process of its own (main.ts):
 * after the throughput runs of `benchScreening` the heap holds their engines' warm ledgers,
 * whose collection would land in this run. One short throughput run finds the rate first.
 */
export async function benchLatency(ledgerSize: number, quick: boolean): Promise<Figure[]> {
  const probe = await screeningThroughput(ledgerSize, true, quick ? 300 : 2_000);
  const half = Math.max(10, Math.floor(probe.rate / 2));
  (globalThis as { gc?: () => void }).gc?.();
  const latencies = await latencyRun(ledgerSize, quick ? 300 : Math.min(10_000, half * 10), half);
  // The first two seconds of an engine (its statements prepared, caches filled, the code of a
  // fresh process not yet optimised when the run is alone) are reported apart: the target is
  // the steady state after them.
  const steady = latencies.slice(Math.min(2 * half, latencies.length - 1));
  return [
    figure(`register -> checked latency p50 at ${half}/s (warm)`, "ms", [percentile(latencies, 50)]),
    figure(`register -> checked latency p99 at ${half}/s (warm), whole run`, "ms", [
      percentile(latencies, 99),
    ]),
    figure(
      "  p99 after the first two seconds (steady state: JIT and caches warm)",
      "ms",
      [percentile(steady, 99)],
      "<= 50",
    ),
    figure("  p50 after the first two seconds", "ms", [percentile(steady, 50)]),
  ];
}
