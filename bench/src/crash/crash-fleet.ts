/**
 * The worker processes of a crash run: each a separate Node process running crash-worker.ts.
 * Workers are started and waited for ("ready"), killed with SIGKILL and started again, and
 * at the end stopped with SIGTERM (graceful).
 */
import { type ChildProcess, spawn } from "node:child_process";
import { dirname } from "node:path";
import { fileURLToPath } from "node:url";
import { type CrashWorkerSettings, settingsToArgs } from "./crash-settings.js";

/** The worker script. */
const WORKER = fileURLToPath(new URL("./crash-worker.ts", import.meta.url));
/** How long a worker may take to print "ready". */
const READY_TIMEOUT_MS = 60_000;

/** A set of worker processes. */
export interface WorkerFleet {
  /** Starts `count` workers and waits until each is ready. */
  start(count: number): Promise<void>;
  /** SIGKILLs a random worker, waits for it to die, starts a new one and waits until it is ready. */
  killOneAndRestart(random: () => number): Promise<void>;
  /** SIGTERMs every worker and resolves with their exit codes (0: stopped gracefully). */
  stopAll(): Promise<ReadonlyArray<number | null>>;
  /** The last lines workers wrote to stderr (job failures, crashes), for diagnostics. */
  stderrTail(): ReadonlyArray<string>;
}

/** Resolves with the exit code once `child` has exited. */
function exited(child: ChildProcess): Promise<number | null> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(child.exitCode);
  return new Promise((resolve) => child.once("exit", (code) => resolve(code)));
}

/** Starts and controls crash workers with `settings`. */
export function createWorkerFleet(settings: CrashWorkerSettings): WorkerFleet {
  const workers: ChildProcess[] = [];
  const tail: string[] = [];
  const keep = (line: string) => {
    tail.push(line);
    if (tail.length > 40) tail.shift();
  };

  function startOne(): Promise<ChildProcess> {
    const child = spawn(
      process.execPath,
      ["--conditions=source", "--import", "tsx", WORKER, ...settingsToArgs(settings)],
      { cwd: dirname(WORKER), stdio: ["ignore", "pipe", "pipe"] },
    );
    child.stderr?.setEncoding("utf8").on("data", (text: string) => {
      for (const line of text.split("\n")) if (line.trim()) keep(`[${child.pid}] ${line}`);
    });
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error("a crash worker did not get ready")), READY_TIMEOUT_MS);
      child.stdout?.setEncoding("utf8").on("data", (text: string) => {
        if (text.includes("ready")) {
          clearTimeout(timer);
          resolve(child);
        }
      });
      child.once("exit", (code) => {
        clearTimeout(timer);
        reject(
          new Error(`a crash worker exited (${code}) before it was ready: ${tail.slice(-5).join(" | ")}`),
        );
      });
    });
  }

  return {
    async start(count) {
      workers.push(...(await Promise.all(Array.from({ length: count }, () => startOne()))));
    },
    async killOneAndRestart(random) {
      const index = Math.floor(random() * workers.length);
      const victim = workers[index];
      if (!victim) return;
      victim.kill("SIGKILL");
      await exited(victim);
      workers[index] = await startOne();
    },
    async stopAll() {
      const codes = await Promise.all(
        workers.map((child) => {
          child.kill("SIGTERM");
          return exited(child);
        }),
      );
      workers.length = 0;
      return codes;
    },
    stderrTail: () => [...tail],
  };
}
