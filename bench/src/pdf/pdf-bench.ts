/**
 * PDF report rendering: reports per second and render times of a typical transfer report (the
 * testkit world's deposit: two pages, 30% indirect sanctions exposure three hops away, two
 * risks, two alerts; each report with its own ids, hash, addresses and amounts), on one thread
 * (`createPdfRenderer`) and on the worker thread pool (`createPdfRendererPool`, one thread per
 * core, as many reports in flight as threads).
 *
 *   node --conditions=source --import tsx bench/src/pdf/pdf-bench.ts [reports] [--quick] [--threads N]
 *
 * Figures are wall-clock on a machine that may be shared: the load average is printed with them.
 * CPU time per report (every thread of the process, so the pool's figure includes its messaging)
 * says what a render costs whatever else runs, and from it the reports per second the cores could
 * give if nothing else ran.
 */
import { availableParallelism, loadavg } from "node:os";
import {
  createEngine,
  createMemoryStore,
  manualClock,
  type ReportRequest,
  sequentialIds,
} from "@openkyt/core";
import { createPdfRenderer, createPdfRendererPool, type PdfRendererPool } from "@openkyt/pdf";
import { loadWorld, NOW, TX, W } from "../../../packages/testkit/src/index.js";
import { percentile } from "../bench-stats.js";

/** What one run measured. */
interface Run {
  readonly times: number[];
  readonly wallMs: number;
  readonly cpuMs: number;
  readonly bytes: number;
}

/** The typical report's request, produced by a real engine (the renderer records it). */
async function typicalRequest(): Promise<ReportRequest> {
  const seen: ReportRequest[] = [];
  const pdf = createPdfRenderer();
  const engine = createEngine({
    store: createMemoryStore(),
    clock: manualClock(NOW),
    ids: sequentialIds(),
    reportRenderer: {
      render: (r) => {
        seen.push(r);
        return pdf.render(r);
      },
    },
  });
  await loadWorld(engine);
  const acme = engine.forAccount("acme");
  const { transfer } = await acme.registerTransfer({
    direction: "incoming",
    network: "ETH",
    tx_hash: TX.deposit,
    output_address: W.client,
  });
  await engine.drain();
  await acme.transferReport(transfer.id);
  await engine.stop();
  const request = seen[0];
  if (request === undefined) throw new Error("the engine rendered no report");
  return request;
}

/** 40 hex digits derived from `n` (a different address or hash per report). */
function hex(n: number, length: number): string {
  let out = "";
  let x = (n + 1) * 2654435761;
  while (out.length < length) {
    x = (x * 1103515245 + 12345) % 2147483648;
    out += x.toString(16).padStart(8, "0");
  }
  return out.slice(0, length);
}

/**
 * The typical report with its own ids, hash, addresses, amounts and paths, so caches of words
 * and glyphs see what they would see on real traffic, not one report over and over.
 */
function varied(request: ReportRequest, i: number): ReportRequest {
  const data = request.data;
  if (data.kind !== "transfer") return request;
  const address = (k: number) => `0x${hex(i * 7 + k, 40)}`;
  const amount = 1 + ((i * 7919) % 100_000) / 1000;
  const value = Math.round(amount * 2_000 * 100) / 100;
  const detail = data.exposureDetail && {
    ...data.exposureDetail,
    shares: data.exposureDetail.shares.map((sh, k) => ({
      ...sh,
      valueInFiat: sh.share * value,
      path: sh.path.map((_, j) => address(10 + k * 5 + j)),
    })),
  };
  return {
    ...request,
    reportId: `00000000-0000-4000-8000-${hex(i, 12)}`,
    data: {
      ...data,
      transfer: {
        ...data.transfer,
        id: `00000000-0000-4000-9000-${hex(i + 1, 12)}`,
        tx_hash: `0x${hex(i + 2, 64)}`,
        input_address: address(1),
        amount,
        value_in_fiat: value,
      },
      exposureDetail: detail,
      counterparty: { ...data.counterparty, address: address(1) },
      sanctions: data.sanctions && { ...data.sanctions, address: address(1) },
      risks: data.risks.map((r, k) => ({
        ...r,
        id: hex(i * 3 + k, 32),
        value_in_fiat: r.value_in_fiat && value * 0.3,
      })),
      alerts: data.alerts.map((a, k) => ({ ...a, id: `00000000-0000-4000-a000-${hex(i * 5 + k, 12)}` })),
    },
  };
}

/** Renders `count` reports one after another after `warmup` unmeasured ones. */
async function renderMany(request: ReportRequest, count: number, warmup: number): Promise<Run> {
  const renderer = createPdfRenderer();
  for (let i = 0; i < warmup; i += 1) await renderer.render(varied(request, -1 - i));
  const requests = Array.from({ length: count }, (_, i) => varied(request, i));
  return measure(count, (i) => renderer.render(requests[i] ?? request), 1);
}

/** Renders `count` reports through `render`, `inFlight` at a time, timing each and the whole. */
async function measure(
  count: number,
  render: (i: number) => Promise<Uint8Array>,
  inFlight: number,
): Promise<Run> {
  const times: number[] = [];
  let bytes = 0;
  let next = 0;
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: inFlight }, async () => {
      while (next < count) {
        const i = next++;
        const start = performance.now();
        bytes = (await render(i)).byteLength;
        times.push(performance.now() - start);
      }
    }),
  );
  const wallMs = performance.now() - t0;
  const cpu = process.cpuUsage(cpu0);
  return { times, wallMs, cpuMs: (cpu.user + cpu.system) / 1000, bytes };
}

/** The same through a pool of `threads` worker threads, `threads` reports in flight. */
async function renderOnPool(request: ReportRequest, count: number, warmup: number, threads: number) {
  const pool: PdfRendererPool = createPdfRendererPool({ threads });
  try {
    await Promise.all(
      Array.from({ length: warmup * threads }, (_, i) => pool.render(varied(request, -1 - i))),
    );
    const requests = Array.from({ length: count }, (_, i) => varied(request, i));
    return await measure(count, (i) => pool.render(requests[i] ?? request), threads);
  } finally {
    await pool.close();
  }
}

function row(mode: string, run: Run): string {
  const n = run.times.length;
  const cells = [
    mode.padEnd(22),
    String(n).padStart(7),
    (n / (run.wallMs / 1000)).toFixed(1).padStart(11),
    percentile(run.times, 50).toFixed(1).padStart(8),
    percentile(run.times, 99).toFixed(1).padStart(8),
    (run.cpuMs / n).toFixed(1).padStart(14),
  ];
  return cells.join("  ");
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const quick = args.includes("--quick");
  const threadsAt = args.indexOf("--threads");
  const threads = threadsAt >= 0 ? Number(args[threadsAt + 1]) : availableParallelism();
  const count = Number(
    args.find((a, i) => /^\d+$/.test(a) && (threadsAt < 0 || i !== threadsAt + 1)) ?? (quick ? 60 : 400),
  );
  const warmup = quick ? 10 : 40;
  const request = await typicalRequest();
  const sequential = await renderMany(request, count, warmup);
  const load = loadavg();
  const pooled = await renderOnPool(request, count, warmup, threads);
  console.log(
    `PDF report rendering: a typical transfer report (${(sequential.bytes / 1024).toFixed(0)} KiB)`,
  );
  console.log(
    `${availableParallelism()} cores, load average ${load.map((l) => l.toFixed(2)).join(" ")} (before the pool run) / ${loadavg()
      .map((l) => l.toFixed(2))
      .join(" ")} (after); target 100 reports/s`,
  );
  console.log(["mode".padEnd(22), "reports", "reports/s", "p50 ms", "p99 ms", "cpu ms/report"].join("  "));
  console.log(row("1 thread", sequential));
  console.log(row(`pool, ${threads} threads`, pooled));
  const cpuBound = (run: Run, cores: number) => ((cores * 1000) / (run.cpuMs / run.times.length)).toFixed(0);
  console.log(
    `CPU-bound ceiling on an idle machine: ${cpuBound(sequential, 1)} reports/s on one core, ${cpuBound(pooled, Math.min(threads, availableParallelism()))} on the pool`,
  );
}

await main();
