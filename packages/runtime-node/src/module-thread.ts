/**
 * Starting a worker thread on a module of a workspace package, from wherever that package runs.
 * From `dist/` the worker is the built JavaScript module of that name beside the caller. From
 * the TypeScript sources (tests, benchmarks, the `source` export condition) the thread first
 * registers tsx, which a worker does not inherit from `--import tsx`, and resolves the workspace
 * packages by the same `source` condition. The PDF renderer pool and the ledger parse thread
 * start their threads through it.
 */
import { type ResourceLimits, Worker } from "node:worker_threads";

/** What a module thread is started with. */
export interface ModuleThreadOptions {
  readonly workerData?: unknown;
  readonly resourceLimits?: ResourceLimits;
}

/**
 * This process's export conditions, with `source`, and its profiling flags, as the thread's
 * flags. Nothing else is passed: a worker refuses V8 flags (`--max-semi-space-size`, `--expose-gc`) in its `execArgv`,
 * and the `--import tsx` the source boot does itself.
 */
function sourceExecArgv(): string[] {
  const args = process.execArgv;
  const conditions: string[] = [];
  /** `--cpu-prof` and its kin are per thread, and allowed: a profiled process profiles its threads too. */
  const profiling: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i] as string;
    const inline = /^(?:--conditions|-C)=(.+)$/.exec(a);
    if (/^--(?:cpu|heap)-prof/.test(a)) profiling.push(a);
    else if (inline) conditions.push(inline[1] as string);
    else if ((a === "--conditions" || a === "-C") && i + 1 < args.length)
      conditions.push(args[++i] as string);
  }
  if (!conditions.includes("source")) conditions.push("source");
  return [...conditions.map((c) => `--conditions=${c}`), ...profiling];
}

/**
 * Where tsx's API is, resolved once: from the sources, `import.meta.resolve` is answered by the
 * process's module hooks thread, which is busy compiling for the threads already started; asked
 * again for each thread, the caller's thread waited seconds for it on a loaded machine.
 */
let tsxApi: string | undefined;

/** A module that registers tsx, then imports `worker`. */
function sourceBoot(worker: URL): URL {
  tsxApi ??= import.meta.resolve("tsx/esm/api");
  const tsx = tsxApi;
  const code = `import { register } from ${JSON.stringify(tsx)}; register(); await import(${JSON.stringify(worker.href)});`;
  return new URL(`data:text/javascript,${encodeURIComponent(code)}`);
}

/**
 * Starts a thread running the module `name` (without extension) beside `callerUrl` (the
 * caller's `import.meta.url`): `name.ts` when the caller runs from its sources, else `name.js`.
 */
export function startModuleThread(
  callerUrl: string,
  name: string,
  options: ModuleThreadOptions = {},
): Worker {
  const fromSource = callerUrl.endsWith(".ts");
  const entry = new URL(`./${name}${fromSource ? ".ts" : ".js"}`, callerUrl);
  return new Worker(fromSource ? sourceBoot(entry) : entry, {
    workerData: options.workerData,
    ...(options.resourceLimits ? { resourceLimits: options.resourceLimits } : {}),
    ...(fromSource ? { execArgv: sourceExecArgv() } : {}),
  });
}
