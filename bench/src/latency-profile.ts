/**
 * Where register -> checked time goes at half the peak rate, through the README's embedding API
 * (in-process, SQLite, warm sources, the default screening pool: `createPooledWarmSources`
 * sized to the machine), per transfer. One process, one engine: a peak run (`peak` transfers,
 * 64 in flight) measures the rate, then `latency` other transfers arrive one at a time at half
 * that rate, and each one's time is split into
 *
 * - register: the `registerTransfer` call itself (its transaction);
 * - wait: from the call's end until the runner claims its bind job;
 * - traces: from the claim until its own two traces have answered (queued behind other traces
 *   in the executor included; one call for both when the engine asks them together), and its
 *   traces' own cost, run again alone after the run;
 * - write: from its own traces' end until `transfer.checked` (the batch's other transfers'
 *   traces, the batch's write transaction);
 *
 * with the size of the batch it was claimed in and the collector's pauses during it. Prints the
 * percentiles and the slowest transfers row by row.
 *
 *   node --conditions=source --import tsx --max-semi-space-size=64 bench/src/latency-profile.ts \
 *     [ledgerSize=100000] [peak=1000] [latency=1000] [shape=real|classic] [rounds=1]
 *
 * `OPENKYT_BENCH_THREADS=N` asks for N screening threads (0: inline, the README's first
 * example); unset: the pool's default. `OPENKYT_BENCH_RATE=R` arrives at R/s instead of half the
 * peak; `OPENKYT_BENCH_REFERENCE_REFRESH_MS=ms` sets the pool's `referenceRefreshMs`. With
 * rounds > 1 the peak and latency phases repeat on the same engine (fresh transfers). The
 * slowest transfers are listed with the second, counted from the pool's start, they arrived at
 * (the pool reloads the labels every 30 s).
 */
import { PerformanceObserver } from "node:perf_hooks";
import {
  clusterResolver,
  createEngine,
  createEntityResolver,
  inlineTraceExecutor,
  type LedgerTransfer,
  type TraceExecutor,
  type TraceRequest,
} from "@openkyt/core";
import { createPooledWarmSources } from "@openkyt/runtime-node";
import { createSqliteStore } from "@openkyt/store-sqlite";
import { ledgerCopy, removeCopy } from "./bench-ledger-db.js";
import { mainThreadCpuMs, percentile } from "./bench-stats.js";
import { sampleTransfers } from "./bench-tracing.js";

const [size = "100000", peakArg = "1000", latencyArg = "1000", shapeArg = "real", roundsArg = "1"] =
  process.argv.slice(2);
if (shapeArg !== "real" && shapeArg !== "classic")
  throw new Error(`shape must be real or classic, not ${shapeArg}`);
const ledgerSize = Number(size);
const peakCount = Number(peakArg);
const latencyCount = Number(latencyArg);
const rounds = Number(roundsArg);
const threadsEnv = process.env.OPENKYT_BENCH_THREADS;
const threads = threadsEnv === undefined ? undefined : Number(threadsEnv);
const INFLIGHT = 64;

/** One call of the trace executor: when it was asked, when it answered, what it ran. */
interface TraceCall {
  readonly requests: ReadonlyArray<TraceRequest>;
  readonly at: number;
  end: number;
  /** Its wall time when run again alone after the run. */
  solo: number;
  /** When it would have answered had the executor been one queue doing only the calls' own work. */
  queued: number;
}

/** The executor with every call recorded. */
function recorded(inner: TraceExecutor, calls: TraceCall[]): TraceExecutor {
  return {
    async run(requests) {
      const call: TraceCall = {
        requests,
        at: performance.now(),
        end: Number.NaN,
        solo: Number.NaN,
        queued: Number.NaN,
      };
      calls.push(call);
      const out = await inner.run(requests);
      call.end = performance.now();
      return out;
    },
  };
}

/** The main thread's collector pauses; `kind` as `perf_hooks` numbers it (1 scavenge, 4 mark-compact). */
const gcPauses: Array<{ start: number; ms: number; kind: number }> = [];
new PerformanceObserver((list) => {
  for (const e of list.getEntries())
    gcPauses.push({
      start: e.startTime,
      ms: e.duration,
      kind: (e as { detail?: { kind?: number } }).detail?.kind ?? 0,
    });
}).observe({ entryTypes: ["gc"] });

const gcWithin = (from: number, to: number) =>
  gcPauses.reduce((ms, p) => ms + Math.max(0, Math.min(to, p.start + p.ms) - Math.max(from, p.start)), 0);

const file = await ledgerCopy(ledgerSize, "latency", shapeArg);
const store = await createSqliteStore({ filename: file });
const refreshEnv = process.env.OPENKYT_BENCH_REFERENCE_REFRESH_MS;
const sources = await createPooledWarmSources(store, {
  pool: {
    ...(threads === undefined ? {} : { threads }),
    ...(refreshEnv === undefined ? {} : { referenceRefreshMs: Number(refreshEnv) }),
  },
});
/** When the pool started: its reference refresh runs every 30 s from here. */
const poolStart = performance.now();
const calls: TraceCall[] = [];
const inner: TraceExecutor =
  sources.traceExecutor ??
  inlineTraceExecutor({
    ledger: sources.ledger,
    resolver: clusterResolver(
      createEntityResolver({ attributions: sources.attributions, sanctions: sources.sanctions }),
      sources.clusters,
    ),
  });
const engine = createEngine({ store, ...sources, traceExecutor: recorded(inner, calls) });
const api = engine.forAccount("bench");
const sample = await sampleTransfers(store, ledgerSize, (peakCount + latencyCount) * rounds);
console.log(
  `${shapeArg} ${ledgerSize}, ${sources.traceExecutor ? `${sources.traceExecutor.threads} screening thread(s)` : "inline"}, load ${(await loadavg()).join(" ")}`,
);

const claimedAt = new Map<string, { at: number; batch: number }>();
const checkedAt = new Map<string, number>();
let onChecked: (() => void) | null = null;
engine.events.on("jobs.claimed", ({ jobs }) => {
  const now = performance.now();
  for (const job of jobs)
    if (!claimedAt.has(job.subjectId)) claimedAt.set(job.subjectId, { at: now, batch: jobs.length });
});
engine.events.on("transfer.checked", (t) => {
  if (!checkedAt.has(t.id)) checkedAt.set(t.id, performance.now());
  onChecked?.();
});
const body = (row: LedgerTransfer) => ({
  direction: "incoming" as const,
  network: row.network,
  tx_hash: row.txHash,
  token_id: row.tokenId,
  output_address: row.to,
});
const allChecked = (n: number) =>
  new Promise<void>((resolve) => {
    onChecked = () => {
      if (checkedAt.size >= n) resolve();
    };
  });

async function loadavg(): Promise<string[]> {
  const { loadavg } = await import("node:os");
  return loadavg().map((l) => l.toFixed(1));
}

engine.start();
let offset = 0;
for (let round = 0; round < rounds; round++) {
  // Peak: 64 in flight.
  const peakRows = sample.slice(offset, offset + peakCount);
  offset += peakCount;
  const peakDone = allChecked(checkedAt.size + peakRows.length);
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  let next = 0;
  await Promise.all(
    Array.from({ length: INFLIGHT }, async () => {
      while (next < peakRows.length) await api.registerTransfer(body(peakRows[next++] as LedgerTransfer));
    }),
  );
  await peakDone;
  const peakSeconds = (performance.now() - t0) / 1000;
  const peakCpu = process.cpuUsage(cpu0);
  const peak = peakRows.length / peakSeconds;
  const rate = process.env.OPENKYT_BENCH_RATE ? Number(process.env.OPENKYT_BENCH_RATE) : peak / 2;
  console.log(
    `round ${round + 1}: peak ${peak.toFixed(1)}/s (${peakRows.length} transfers, ${((peakCpu.user + peakCpu.system) / 1000 / peakRows.length).toFixed(2)} ms CPU each, every thread); arriving at ${rate.toFixed(1)}/s`,
  );

  // Latency: one at a time at `rate`.
  const rows = sample.slice(offset, offset + latencyCount);
  offset += latencyCount;
  const firstCall = calls.length;
  const registered = new Map<string, { row: LedgerTransfer; at: number; done: number }>();
  const latencyDone = allChecked(checkedAt.size + rows.length);
  const cpu1 = process.cpuUsage();
  const main1 = mainThreadCpuMs();
  const interval = 1000 / rate;
  const t1 = performance.now();
  await Promise.all(
    rows.map(async (row, i) => {
      const wait = t1 + i * interval - performance.now();
      if (wait > 0) await new Promise((r) => setTimeout(r, wait));
      const at = performance.now();
      const { transfer } = await api.registerTransfer(body(row));
      registered.set(transfer.id, { row, at, done: performance.now() });
    }),
  );
  await latencyDone;
  const latCpu = process.cpuUsage(cpu1);
  const latMain = mainThreadCpuMs() - main1;
  const seconds = (performance.now() - t1) / 1000;

  // Each transfer's own traces: its exposure trace is the one at its position, its counterparty
  // trace the next address trace of the same address asked after that one answered.
  const roundCalls = calls.slice(firstCall);
  const byPosition = new Map<string, TraceCall>();
  const addressCalls = new Map<string, TraceCall[]>();
  for (const call of roundCalls) {
    const r = call.requests[0];
    if (!r) continue;
    if (r.kind === "transfer") byPosition.set(`${r.position?.block}:${r.position?.logIndex}`, call);
    else {
      const list = addressCalls.get(r.address) ?? [];
      list.push(call);
      addressCalls.set(r.address, list);
    }
  }
  interface Row {
    id: string;
    at: number;
    total: number;
    register: number;
    wait: number;
    traces: number;
    exposureWall: number;
    addressWall: number;
    write: number;
    batch: number;
    gc: number;
    own: TraceCall[];
    solo: number;
  }
  const out: Row[] = [];
  for (const [id, reg] of registered) {
    const checked = checkedAt.get(id) ?? Number.NaN;
    const claim = claimedAt.get(id);
    const exposure = byPosition.get(`${reg.row.block}:${reg.row.logIndex}`);
    const list = addressCalls.get(reg.row.from) ?? [];
    // Both traces in one call (check-computation.ts asks them together), or the address trace
    // asked after the exposure trace answered.
    const joint = exposure !== undefined && exposure.requests.length > 1;
    const k = exposure && !joint ? list.findIndex((c) => c.at >= exposure.end) : -1;
    const address = joint ? exposure : k >= 0 ? list.splice(k, 1)[0] : undefined;
    const tracesEnd = Math.max(exposure?.end ?? Number.NaN, address?.end ?? Number.NaN);
    out.push({
      id,
      at: reg.at - poolStart,
      total: checked - reg.at,
      register: reg.done - reg.at,
      wait: (claim?.at ?? Number.NaN) - reg.done,
      traces: tracesEnd - (claim?.at ?? Number.NaN),
      exposureWall: exposure ? exposure.end - exposure.at : Number.NaN,
      addressWall: address ? address.end - address.at : Number.NaN,
      write: checked - tracesEnd,
      batch: claim?.batch ?? 0,
      gc: gcWithin(reg.at, checked),
      own: [...new Set([exposure, address])].filter((c): c is TraceCall => c !== undefined),
      solo: Number.NaN,
    });
  }
  // Own cost: each call again, alone, one after the other, nothing else running; and when it
  // would have answered from one first-come queue doing only the calls' own work.
  for (const call of roundCalls) {
    const s = performance.now();
    await inner.run(call.requests);
    call.solo = performance.now() - s;
  }
  let free = 0;
  for (const call of roundCalls) {
    free = Math.max(free, call.at) + call.solo;
    call.queued = free - call.at;
  }
  for (const row of out) row.solo = row.own.reduce((ms, c) => ms + c.solo, 0);
  const steady = out.slice(Math.min(out.length - 1, Math.floor(2 * rate)));
  const p = (xs: number[], q: number) => percentile(xs, q).toFixed(1);
  const col = (f: (r: Row) => number) => steady.map(f).filter((x) => Number.isFinite(x));
  console.log(
    `  ${rows.length} transfers at ${(rows.length / seconds).toFixed(1)}/s, CPU ${((latCpu.user + latCpu.system) / 1000 / rows.length).toFixed(2)} ms each (main thread ${(latMain / rows.length).toFixed(2)}), load ${(await loadavg()).join(" ")}; after the first 2 s (${steady.length}):`,
  );
  for (const [name, f] of [
    ["register -> checked", (r: Row) => r.total],
    ["  register call", (r: Row) => r.register],
    ["  wait for claim", (r: Row) => r.wait],
    ["  claim -> own traces answered", (r: Row) => r.traces],
    ["    exposure trace call", (r: Row) => r.exposureWall],
    ["    counterparty trace call", (r: Row) => r.addressWall],
    ["  own traces -> checked (batch)", (r: Row) => r.write],
    ["  own traces alone, after the run", (r: Row) => r.solo],
    ["  own traces, one queue of own work", (r: Row) => r.own.reduce((ms, c) => ms + c.queued, 0)],
    ["  GC pauses within", (r: Row) => r.gc],
    ["  batch size", (r: Row) => r.batch],
  ] as const) {
    const xs = col(f);
    console.log(
      `    ${name.padEnd(36)} p50 ${p(xs, 50).padStart(7)}  p90 ${p(xs, 90).padStart(7)}  p99 ${p(xs, 99).padStart(7)}  max ${p(xs, 100).padStart(7)}`,
    );
  }
  const sorted = [...steady].sort((a, b) => b.total - a.total);
  console.log(
    "    slowest: s since the pool started | total | register | wait | traces (exposure, counterparty) | write | alone | one queue | gc | batch",
  );
  for (const r of sorted.slice(0, Math.max(5, Math.ceil(steady.length / 100)))) {
    const f = (x: number) => x.toFixed(1);
    console.log(
      `      ${(r.at / 1000).toFixed(2)} | ${f(r.total)} | ${f(r.register)} | ${f(r.wait)} | ${f(r.traces)} (${f(r.exposureWall)}, ${f(r.addressWall)}) | ${f(r.write)} | ${f(r.solo)} | ${f(r.own.reduce((ms, c) => ms + c.queued, 0))} | ${f(r.gc)} | ${r.batch}`,
    );
  }
  const solo = col((r) => r.solo);
  const soloTop = [...solo].sort((a, b) => b - a);
  console.log(
    `    own traces alone: mean ${(solo.reduce((a, b) => a + b, 0) / solo.length).toFixed(2)} ms; the top 1% of transfers hold ${((soloTop.slice(0, Math.ceil(solo.length / 100)).reduce((a, b) => a + b, 0) / solo.reduce((a, b) => a + b, 0)) * 100).toFixed(0)}% of it`,
  );
  const pauses = gcPauses.filter((g) => g.start >= t1);
  console.log(
    `    GC: ${pauses.length} pauses, ${pauses.reduce((a, g) => a + g.ms, 0).toFixed(0)} ms in all, longest ${Math.max(0, ...pauses.map((g) => g.ms)).toFixed(1)} ms`,
  );
  for (const kind of new Set(pauses.map((g) => g.kind))) {
    const of = pauses.filter((g) => g.kind === kind).map((g) => g.ms);
    console.log(
      `      kind ${kind}: ${of.length} pauses, ${of.reduce((a, b) => a + b, 0).toFixed(0)} ms, p50 ${p(of, 50)} max ${p(of, 100)} ms`,
    );
  }
}
await engine.stop();
await sources.close();
await store.close();
removeCopy(file);
