/**
 * PDF report rendering: reports per second and render times of a typical transfer report (the
 * testkit world's deposit: two pages, 30% indirect sanctions exposure three hops away, two
 * risks, two alerts; each report with its own ids, hash, addresses and amounts), on one thread
 * and on one worker thread per core.
 *
 *   node --conditions=source --import tsx bench/src/pdf/pdf-bench.ts [reports] [--quick]
 *
 * Figures are wall-clock on a machine that may be shared: the load average is printed with them,
 * and CPU time per report says what one render costs whatever else runs.
 */
import { availableParallelism, loadavg } from "node:os";
import { isMainThread, parentPort, Worker, workerData } from "node:worker_threads";
import {
  createEngine,
  createMemoryStore,
  manualClock,
  type ReportRequest,
  sequentialIds,
} from "@openkyt/core";
import { createPdfRenderer } from "@openkyt/pdf";
import { loadWorld, NOW, TX, W } from "../../../packages/testkit/src/index.js";
import { percentile } from "../bench-stats.js";

/** What one thread measured. */
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
  const times: number[] = [];
  let bytes = 0;
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  for (let i = 0; i < count; i += 1) {
    const start = performance.now();
    bytes = (await renderer.render(requests[i] ?? request)).byteLength;
    times.push(performance.now() - start);
  }
  const wallMs = performance.now() - t0;
  const cpu = process.cpuUsage(cpu0);
  return { times, wallMs, cpuMs: (cpu.user + cpu.system) / 1000, bytes };
}

/** Node's `--import tsx` does not reach worker threads: a worker registers tsx, then loads this file. */
function workerBoot(): URL {
  const tsx = import.meta.resolve("tsx/esm/api");
  const code = `import { register } from ${JSON.stringify(tsx)}; register(); await import(${JSON.stringify(import.meta.url)});`;
  return new URL(`data:text/javascript,${encodeURIComponent(code)}`);
}

/** The worker's flags: this process's, less the tsx import the boot code does itself. */
const execArgv = process.execArgv.filter(
  (a, i, all) => !(a === "--import" && all[i + 1] === "tsx") && !(a === "tsx" && all[i - 1] === "--import"),
);

/** The same on `threads` worker threads at once; the wall time is the slowest thread's. */
async function renderOnWorkers(request: ReportRequest, count: number, warmup: number, threads: number) {
  const per = Math.ceil(count / threads);
  const runs = await Promise.all(
    Array.from(
      { length: threads },
      () =>
        new Promise<Run>((resolve, reject) => {
          const worker = new Worker(workerBoot(), { workerData: { request, count: per, warmup }, execArgv });
          worker.once("message", resolve);
          worker.once("error", reject);
        }),
    ),
  );
  return {
    times: runs.flatMap((r) => r.times),
    wallMs: Math.max(...runs.map((r) => r.wallMs)),
    // process.cpuUsage() counts every thread of the process, so a worker's figure is not its own.
    cpuMs: Number.NaN,
    bytes: runs[0]?.bytes ?? 0,
  };
}

function row(mode: string, run: Run): string {
  const n = run.times.length;
  const cells = [
    mode.padEnd(22),
    String(n).padStart(7),
    (n / (run.wallMs / 1000)).toFixed(1).padStart(11),
    percentile(run.times, 50).toFixed(1).padStart(8),
    percentile(run.times, 99).toFixed(1).padStart(8),
    (Number.isNaN(run.cpuMs) ? "-" : (run.cpuMs / n).toFixed(1)).padStart(14),
  ];
  return cells.join("  ");
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const quick = args.includes("--quick");
  const count = Number(args.find((a) => /^\d+$/.test(a)) ?? (quick ? 60 : 400));
  const warmup = quick ? 10 : 40;
  const threads = availableParallelism();
  const request = await typicalRequest();
  const sequential = await renderMany(request, count, warmup);
  const parallel = await renderOnWorkers(request, count, warmup, threads);
  console.log(
    `PDF report rendering: a typical transfer report (${(sequential.bytes / 1024).toFixed(0)} KiB)`,
  );
  console.log(
    `${threads} cores, load average ${loadavg()
      .map((l) => l.toFixed(2))
      .join(" ")}; target 100 reports/s`,
  );
  console.log(["mode".padEnd(22), "reports", "reports/s", "p50 ms", "p99 ms", "cpu ms/report"].join("  "));
  console.log(row("1 thread", sequential));
  console.log(row(`${threads} worker threads`, parallel));
}

if (isMainThread) {
  await main();
} else {
  const { request, count, warmup } = workerData as { request: ReportRequest; count: number; warmup: number };
  parentPort?.postMessage(await renderMany(request, count, warmup));
}
