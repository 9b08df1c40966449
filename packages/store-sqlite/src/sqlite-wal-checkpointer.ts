/**
 * WAL checkpoints on a thread of their own. In WAL mode every commit appends its pages to the
 * `-wal` file; a checkpoint copies them back into the database file and syncs both. SQLite runs
 * it inside the commit that crosses `wal_autocheckpoint` pages, on the committing thread: on
 * the screening path that was about a third of the commit's cost (0.03-0.04 ms of 0.09-0.11 ms
 * per screened transfer on the 1M ledger) and the longest pauses of a commit (two fsyncs of up
 * to 16 MB). Here a worker thread holds a second connection to the same file and checkpoints
 * PASSIVE every `intervalMs` (which never blocks a writer or a reader), while the store's own
 * connection checkpoints only past `fallbackPages`, in case the thread is gone.
 *
 * Durability is SQLite's own and unchanged: a commit is durable in the WAL as before (synchronous
 * NORMAL); a checkpoint only moves committed pages, and a process killed in the middle of one
 * leaves a WAL that the next opening replays.
 */
import { createRequire } from "node:module";
import { Worker } from "node:worker_threads";
import { fieldError } from "@openkyt/core";
import type BetterSqlite3 from "better-sqlite3";

/** How the WAL of a file database is checkpointed. */
export interface WalCheckpointOptions {
  /**
   * `background` (default): a worker thread checkpoints every `intervalMs`; `inline`: SQLite's
   * own automatic checkpoints inside commits (every 1,000 pages).
   */
  readonly mode?: "background" | "inline";
  /** How often the thread checkpoints, in ms (default 200). */
  readonly intervalMs?: number;
  /**
   * WAL pages past which the store's own connection checkpoints anyway (its
   * `wal_autocheckpoint`; default 16,000 pages, 256 MB at 16 KiB pages): the bound on the WAL
   * if the thread cannot keep up or is gone.
   */
  readonly fallbackPages?: number;
}

/** Defaults of {@link WalCheckpointOptions}. */
export const WAL_CHECKPOINT_DEFAULTS = Object.freeze({
  mode: "background" as "background" | "inline",
  intervalMs: 200,
  fallbackPages: 16_000,
});

/** A running checkpoint thread. */
export interface WalCheckpointer {
  /** Checkpoints once more, then ends the thread. Idempotent. */
  stop(): Promise<void>;
}

/**
 * The thread's program (CommonJS, run with `eval`): opens the file, checkpoints PASSIVE on a
 * timer, and on "stop" checkpoints a last time, closes and exits. A checkpoint that fails (the
 * file busy or gone) is retried at the next tick; the store's fallback bounds the WAL meanwhile.
 */
const THREAD_PROGRAM = `
const { parentPort, workerData } = require("node:worker_threads");
const Database = require(workerData.driver);
const db = new Database(workerData.filename, { fileMustExist: true });
db.pragma("busy_timeout = 1000");
const checkpoint = () => { try { db.pragma("wal_checkpoint(PASSIVE)"); } catch {} };
const timer = setInterval(checkpoint, workerData.intervalMs);
parentPort.on("message", (message) => {
  if (message !== "stop") return;
  clearInterval(timer);
  checkpoint();
  db.close();
  parentPort.close();
});
parentPort.postMessage("ready");
`;

/** better-sqlite3's entry, resolved from this package so the thread loads the same driver. */
const driverPath = (): string => createRequire(import.meta.url).resolve("better-sqlite3");

/** {@link WalCheckpointOptions} with their defaults, checked: what {@link startWalCheckpointer} takes. */
export type WalCheckpointSettings = Required<WalCheckpointOptions>;

/** The settings of `options`, checked before anything is opened; a bad one is refused by name. */
export function walCheckpointSettings(options: WalCheckpointOptions = {}): WalCheckpointSettings {
  const settings = { ...WAL_CHECKPOINT_DEFAULTS, ...options };
  if (settings.mode !== "background" && settings.mode !== "inline") {
    throw fieldError("walCheckpoints.mode", `must be "background" or "inline", not ${String(settings.mode)}`);
  }
  if (!(Number.isInteger(settings.intervalMs) && settings.intervalMs >= 1)) {
    throw fieldError("walCheckpoints.intervalMs", "must be an integer >= 1");
  }
  if (!(Number.isInteger(settings.fallbackPages) && settings.fallbackPages >= 1)) {
    throw fieldError("walCheckpoints.fallbackPages", "must be an integer >= 1");
  }
  return settings;
}

/**
 * Starts checkpointing the database of `sqlite` on a thread and sets the connection's own
 * automatic checkpoint to the fallback; null (SQLite's automatic checkpoints kept) for
 * `inline` or a database not in WAL mode (in memory). Resolves once the thread has opened the
 * file. The thread does not keep the process alive.
 */
export async function startWalCheckpointer(
  sqlite: BetterSqlite3.Database,
  settings: WalCheckpointSettings,
): Promise<WalCheckpointer | null> {
  const { intervalMs, fallbackPages } = settings;
  if (
    settings.mode === "inline" ||
    sqlite.memory ||
    sqlite.pragma("journal_mode", { simple: true }) !== "wal"
  ) {
    return null;
  }
  const worker = new Worker(THREAD_PROGRAM, {
    eval: true,
    workerData: { driver: driverPath(), filename: sqlite.name, intervalMs },
  });
  const exited = new Promise<void>((resolve) => worker.once("exit", () => resolve()));
  const thread: { failure?: Error } = {};
  // After the start a failing thread only stops checkpointing: the fallback bounds the WAL.
  worker.on("error", (error) => {
    thread.failure = error;
  });
  const started = await Promise.race([
    new Promise<true>((resolve) => worker.once("message", () => resolve(true))),
    exited.then(() => false),
  ]);
  if (!started) {
    throw new Error(
      `the WAL checkpoint thread of ${sqlite.name} did not start: ${thread.failure?.message ?? "it exited"}`,
    );
  }
  // Held only while it starts: a running thread does not keep the process alive.
  worker.unref();
  sqlite.pragma(`wal_autocheckpoint = ${fallbackPages}`);
  let stopping: Promise<void> | null = null;
  return {
    stop() {
      stopping ??= (async () => {
        worker.ref();
        worker.postMessage("stop");
        await exited;
      })();
      return stopping;
    },
  };
}
