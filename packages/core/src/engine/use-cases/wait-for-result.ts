/**
 * Waiting for a result inside a request: `{ wait: seconds }` on register, register-attempt,
 * check-transfer and check-address returns the finished result when the checks complete within
 * the wait, or the in-progress object when they do not. The engine's events wake the wait at
 * once when the work runs in this process; a short poll of the store covers work done by other
 * processes (workers on a shared Postgres).
 */

import { CHECK_KINDS } from "../../domain/enums.js";
import type { ManualCheckRecord, TransferRecord } from "../../domain/records.js";
import { fieldError, KytError } from "../../errors.js";
import type { EngineContext } from "../engine-context.js";

/** The longest wait a request may ask for, in seconds. */
export const MAX_WAIT_SECONDS = 30;
/** How often the store is polled while waiting. */
const POLL_MS = 100;

/** Options of the operations that can wait. */
export interface WaitOptions {
  /** Seconds to wait for the result, 0 to 30; omitted or 0: answer at once. */
  readonly wait?: number | string | null;
}

/** Parses and bounds `wait` (a number of seconds, possibly from a query string). */
export function waitMilliseconds(options: WaitOptions | undefined): number {
  const raw = options?.wait;
  if (raw === undefined || raw === null || raw === "") return 0;
  const seconds = typeof raw === "number" ? raw : Number(raw);
  if (!Number.isFinite(seconds) || seconds < 0 || seconds > MAX_WAIT_SECONDS) {
    throw fieldError("wait", `a number of seconds from 0 to ${MAX_WAIT_SECONDS}`);
  }
  return Math.round(seconds * 1000);
}

/**
 * The wait of a call in ms, checked before anything is written: a wait on an engine whose job
 * runner is not started (and whose jobs do not run elsewhere) is RUNNER_NOT_STARTED at once,
 * not a silent wait that ends with the unfinished object.
 */
export function waitBudget(ctx: EngineContext, options: WaitOptions | undefined): number {
  const ms = waitMilliseconds(options);
  if (ms > 0 && !ctx.jobs.runsElsewhere && !ctx.runnerStarted()) {
    throw new KytError(
      "RUNNER_NOT_STARTED",
      "nothing would finish within this wait: the engine's job runner is not started. Call engine.start() " +
        "first (a service), or register without a wait and call engine.drain() (a batch program); if " +
        "the jobs run in other processes on this store, create the engine with jobs: { runsElsewhere: true }",
    );
  }
  return ms;
}

/** True when nothing more will happen to a transfer without a new request. */
export function transferSettled(t: TransferRecord): boolean {
  return (
    t.txStatus !== "binding" &&
    CHECK_KINDS.every((k) => t.checks[k].state !== "queued" && t.checks[k].state !== "checking")
  );
}

/** True when a manual check has finished. */
export function manualCheckSettled(c: ManualCheckRecord): boolean {
  return c.checkStatus !== "checking";
}

/**
 * Reloads a record until `settled` holds or `ms` pass; returns the last version read. Wakes on
 * the engine's events (work in this process) and polls every 100 ms (work elsewhere).
 */
export async function waitUntil<T>(
  ctx: EngineContext,
  ms: number,
  load: () => Promise<T>,
  settled: (value: T) => boolean,
  initial: T,
): Promise<T> {
  if (ms <= 0 || settled(initial)) return initial;
  const deadline = ctx.timer.elapsed() + ms;
  let wake: () => void = () => {};
  const onEvent = () => wake();
  const events = [
    "transfer.checked",
    "transfer.status_changed",
    "check.completed",
    "manual_check.completed",
  ] as const;
  for (const name of events) ctx.events.on(name, onEvent);
  try {
    let current = initial;
    while (ctx.timer.elapsed() < deadline) {
      const nap = ctx.timer.sleep(Math.min(POLL_MS, Math.max(0, deadline - ctx.timer.elapsed())));
      wake = nap.wake;
      await nap.done;
      current = await load();
      if (settled(current)) return current;
    }
    return current;
  } finally {
    for (const name of events) ctx.events.off(name, onEvent);
  }
}
