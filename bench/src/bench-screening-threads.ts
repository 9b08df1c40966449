/**
 * Both cores in one process: the README's embedding API (createEngine over SQLite, warm
 * sources, registrations 64 in flight, the runner in the background) with the checks' traces on
 * the main thread (0 screening threads, `createWarmSources`) and on a screening pool of N
 * threads over one shared ledger image (`createPooledWarmSources`), on copies of the same
 * ledger in one run. Also checks that both give every transfer the same risk level.
 *
 *   npm run bench -- --only screening-threads
 */
import { availableParallelism } from "node:os";
import {
  createEngine,
  createEntityResolver,
  createMemoryStore,
  createWarmSources,
  heldAttributionSource,
  heldSanctionsSource,
  inlineTraceExecutor,
  LedgerIndex,
  type LedgerTransfer,
  type RegisterTransferRequest,
  type TraceExecutor,
  type TraceRequest,
} from "@openkyt/core";
import { createPooledWarmSources, createScreeningPool } from "@openkyt/runtime-node";
import { createSqliteStore } from "@openkyt/store-sqlite";
import { generateLedger, seededRandom } from "@openkyt/testkit";
import { ledgerCopy, removeCopy } from "./bench-ledger-db.js";
import { type Figure, figure, mainThreadCpuMs, repeat } from "./bench-stats.js";
import { sampleTransfers } from "./bench-tracing.js";

/** Registrations in flight at once (as the README's figure). */
const INFLIGHT = 64;

const body = (row: LedgerTransfer): RegisterTransferRequest => ({
  direction: "incoming",
  network: row.network,
  tx_hash: row.txHash,
  token_id: row.tokenId,
  output_address: row.to,
});

/** One run: transfers/s, CPU per transfer (all threads, and the main thread's), risk level per tx hash. */
async function run(ledgerSize: number, count: number, threads: number) {
  const file = await ledgerCopy(ledgerSize, `threads-${threads}`);
  const store = await createSqliteStore({ filename: file });
  try {
    const sample = await sampleTransfers(store, ledgerSize, count);
    const loaded0 = performance.now();
    const pooled = threads === 0 ? null : await createPooledWarmSources(store, { pool: { threads } });
    const sources = pooled ?? (await createWarmSources(store));
    const loadSeconds = (performance.now() - loaded0) / 1000;
    const rssMb = process.memoryUsage().rss / 2 ** 20;
    const imageMb = pooled ? (pooled.traceExecutor?.imageBytes() ?? Number.NaN) / 2 ** 20 : Number.NaN;
    const engine = createEngine({ store, jobs: { pollIntervalMs: 20 }, ...sources });
    const levels = new Map<string, string>();
    let checked = 0;
    const done = new Promise<void>((resolve) => {
      engine.events.on("transfer.checked", (t) => {
        levels.set(t.txHash ?? t.id, t.riskLevel);
        if (++checked === sample.length) resolve();
      });
    });
    const api = engine.forAccount("bench");
    const cpu0 = process.cpuUsage();
    const main0 = mainThreadCpuMs();
    const t0 = performance.now();
    engine.start();
    let next = 0;
    await Promise.all(
      Array.from({ length: INFLIGHT }, async () => {
        while (next < sample.length) await api.registerTransfer(body(sample[next++] as LedgerTransfer));
      }),
    );
    await done;
    const seconds = (performance.now() - t0) / 1000;
    const cpu = process.cpuUsage(cpu0);
    const mainMs = mainThreadCpuMs() - main0;
    await engine.stop();
    await pooled?.close();
    return {
      rate: sample.length / seconds,
      cpuMs: (cpu.user + cpu.system) / 1000 / sample.length,
      mainCpuMs: mainMs / sample.length,
      loadSeconds,
      rssMb,
      imageMb,
      levels,
    };
  } finally {
    await store.close();
    removeCopy(file);
  }
}

/**
 * The traces alone, without the engine or SQLite: the same transfer and address traces (half
 * each, 64 in flight) inline over a `LedgerIndex`, and on the pool with 1 and N threads; CPU per
 * trace of the whole process (what the pool's messages cost) and traces/s. The second of two
 * passes (the first warms the JIT of every thread).
 */
async function tracesAlone(size: number, count: number, threads: number) {
  const ledger = generateLedger({ transfers: size, tokens: ["native"], seed: 11, days: 365 });
  const store = createMemoryStore();
  await store.putLedgerTransfers(ledger.transfers);
  await store.putAttributions(ledger.attributions);
  await store.putSanctions(ledger.sanctions);
  const index = new LedgerIndex();
  index.add(ledger.transfers);
  index.compact();
  const resolver = createEntityResolver({
    attributions: heldAttributionSource(ledger.attributions),
    sanctions: heldSanctionsSource(ledger.sanctions),
  });
  const rnd = seededRandom(3);
  const limits = { maxHops: 20, edgeBudget: 10_000, minPathWeight: 1e-3 };
  const requests: TraceRequest[] = Array.from({ length: count }, (_, i) => {
    const row = ledger.transfers[Math.floor(size * (0.1 + 0.9 * rnd()))] as LedgerTransfer;
    const span = { from: row.occurredAt, to: Date.UTC(2026, 0, 1) };
    return i % 2 === 0
      ? {
          kind: "transfer",
          network: row.network,
          tokenId: row.tokenId,
          ...limits,
          direction: "incoming",
          counterparty: row.from,
          at: row.occurredAt,
          value: 100,
          span,
        }
      : {
          kind: "address",
          network: row.network,
          tokenId: row.tokenId,
          ...limits,
          address: row.from,
          side: "sender",
          at: span.to,
          span,
        };
  });
  const measure = async (executor: TraceExecutor) => {
    let last = { rate: 0, cpuMs: 0 };
    for (let pass = 0; pass < 2; pass++) {
      const cpu0 = process.cpuUsage();
      const t0 = performance.now();
      for (let i = 0; i < requests.length; i += INFLIGHT) {
        await Promise.all(requests.slice(i, i + INFLIGHT).map((r) => executor.run([r])));
      }
      const cpu = process.cpuUsage(cpu0);
      last = {
        rate: count / ((performance.now() - t0) / 1000),
        cpuMs: (cpu.user + cpu.system) / 1000 / count,
      };
    }
    return last;
  };
  const out = [{ threads: 0, ...(await measure(inlineTraceExecutor({ ledger: index, resolver }))) }];
  for (const n of [...new Set([1, threads])]) {
    const pool = await createScreeningPool(store, { threads: n, referenceRefreshMs: 0 });
    try {
      out.push({ threads: n, ...(await measure(pool)) });
    } finally {
      await pool.close();
    }
  }
  return out;
}

/** 0 threads against the machine's count, alternating, on copies of one ledger. */
export async function benchScreeningThreads(ledgerSize: number, quick: boolean): Promise<Figure[]> {
  const count = quick ? 300 : 4_000;
  const threads = availableParallelism();
  const runs = quick ? 1 : 3;
  const inline: Awaited<ReturnType<typeof run>>[] = [];
  const pooled: Awaited<ReturnType<typeof run>>[] = [];
  await repeat(runs, async () => {
    inline.push(await run(ledgerSize, count, 0));
    pooled.push(await run(ledgerSize, count, threads));
  });
  let differing = 0;
  for (const [hash, level] of inline[0]?.levels ?? []) {
    if (pooled[0]?.levels.get(hash) !== level) differing++;
  }
  const n = ledgerSize.toLocaleString("en-US");
  const aloneSize = Math.min(ledgerSize, 200_000);
  const alone = await tracesAlone(aloneSize, quick ? 1_000 : 6_000, threads);
  return [
    ...alone.flatMap((r) => [
      figure(
        `traces alone (${aloneSize.toLocaleString("en-US")} generated ledger, in memory, ${INFLIGHT} in flight), ${r.threads === 0 ? "inline" : `${r.threads} screening thread${r.threads === 1 ? "" : "s"}`}`,
        "traces/s",
        [r.rate],
      ),
      figure("  CPU per trace, every thread", "ms", [r.cpuMs]),
    ]),
    figure(
      `README API, SQLite, warm, traces on the main thread (0 screening threads; ${n} ledger, ${count} transfers)`,
      "transfers/s",
      inline.map((r) => r.rate),
    ),
    figure(
      "  CPU per transfer, every thread",
      "ms",
      inline.map((r) => r.cpuMs),
    ),
    figure(
      "  of it on the main thread",
      "ms",
      inline.map((r) => r.mainCpuMs),
    ),
    figure(
      `README API, SQLite, warm, ${threads} screening threads over one shared ledger image`,
      "transfers/s",
      pooled.map((r) => r.rate),
      ">= 2,000",
    ),
    figure(
      "  CPU per transfer, every thread",
      "ms",
      pooled.map((r) => r.cpuMs),
      "<= 0.5",
    ),
    figure(
      "  of it on the main thread",
      "ms",
      pooled.map((r) => r.mainCpuMs),
    ),
    figure(
      "  start-up: warm sources loaded (0 threads)",
      "s",
      inline.map((r) => r.loadSeconds),
    ),
    figure(
      `  start-up: image built and ${threads} threads started`,
      "s",
      pooled.map((r) => r.loadSeconds),
    ),
    figure(
      "  RSS after loading, 0 threads (the warm LedgerIndex)",
      "MB",
      inline.map((r) => r.rssMb),
    ),
    figure(
      `  RSS after loading, ${threads} threads (the shared image, the threads' heaps)`,
      "MB",
      pooled.map((r) => r.rssMb),
    ),
    figure(
      "  the shared image's buffers (held once)",
      "MB",
      pooled.map((r) => r.imageMb),
    ),
    figure("  transfers whose risk level differs between 0 and N threads", "transfers", [differing], "0"),
  ];
}
