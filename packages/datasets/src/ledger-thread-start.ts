/**
 * Starting the ledger parse thread from wherever this package runs: from `dist/` the worker is
 * `ledger-thread-worker.js` beside this module; from the TypeScript sources (tests, benchmarks,
 * the `source` export condition) the thread first registers tsx, which a worker does not
 * inherit from `--import tsx`, and resolves the workspace packages by the same `source`
 * condition (as @openkyt/pdf starts its renderer threads).
 */
import { Worker } from "node:worker_threads";
import type { LedgerThreadData } from "./ledger-thread-messages.js";

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

/** A module that registers tsx, then imports `worker`. */
function sourceBoot(worker: URL): URL {
  const tsx = import.meta.resolve("tsx/esm/api");
  const code = `import { register } from ${JSON.stringify(tsx)}; register(); await import(${JSON.stringify(worker.href)});`;
  return new URL(`data:text/javascript,${encodeURIComponent(code)}`);
}

/** Starts a parse thread reading the ledger file of `data`. */
export function startLedgerThread(data: LedgerThreadData): Worker {
  const fromSource = import.meta.url.endsWith(".ts");
  const entry = new URL(
    fromSource ? "./ledger-thread-worker.ts" : "./ledger-thread-worker.js",
    import.meta.url,
  );
  return new Worker(fromSource ? sourceBoot(entry) : entry, {
    workerData: data,
    ...(fromSource ? { execArgv: sourceExecArgv() } : {}),
  });
}
