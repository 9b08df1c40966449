/**
 * Starting a pool worker thread from wherever this package runs: from `dist/` the worker is
 * `pdf-pool-worker.js` beside this module; from the TypeScript sources (tests, benchmarks, the
 * `source` export condition) the thread first registers tsx, which a worker does not inherit
 * from `--import tsx`, and resolves the workspace packages by the same `source` condition.
 */
import { Worker } from "node:worker_threads";
import type { PoolWorkerData } from "./pdf-pool-messages.js";

/** What a worker thread is started with. */
export interface PoolThreadOptions {
  readonly workerData: PoolWorkerData;
  /** Upper bound of the thread's young generation: fewer scavenges for a render's garbage. */
  readonly youngGenerationMb: number;
}

/** This process's flags, less the `--import tsx` the source boot does itself. */
function sourceExecArgv(): string[] {
  const args = process.execArgv.filter(
    (a, i, all) => !(a === "--import" && all[i + 1] === "tsx") && !(a === "tsx" && all[i - 1] === "--import"),
  );
  const hasSource = args.some(
    (a, i) =>
      a === "--conditions=source" ||
      a === "-C=source" ||
      ((a === "--conditions" || a === "-C") && args[i + 1] === "source"),
  );
  return hasSource ? args : [...args, "--conditions=source"];
}

function sourceBoot(worker: URL): URL {
  const tsx = import.meta.resolve("tsx/esm/api");
  const code = `import { register } from ${JSON.stringify(tsx)}; register(); await import(${JSON.stringify(worker.href)});`;
  return new URL(`data:text/javascript,${encodeURIComponent(code)}`);
}

/** Starts one worker thread running `pdf-pool-worker`. */
export function startPoolThread(options: PoolThreadOptions): Worker {
  const fromSource = import.meta.url.endsWith(".ts");
  const entry = new URL(fromSource ? "./pdf-pool-worker.ts" : "./pdf-pool-worker.js", import.meta.url);
  return new Worker(fromSource ? sourceBoot(entry) : entry, {
    workerData: options.workerData,
    resourceLimits: { maxYoungGenerationSizeMb: options.youngGenerationMb },
    ...(fromSource ? { execArgv: sourceExecArgv() } : {}),
  });
}
