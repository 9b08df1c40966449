/**
 * Polling until a resource settles: a transfer whose binding and checks are over, a manual
 * check no longer `checking`. The published interface makes clients poll; OpenKYT can also
 * answer at once (the `wait` option) or call back (webhooks).
 */
import type { BacktestResponse, ManualCheckResponse, TransferResponse } from "@openkyt/core";
import { KytWaitTimeoutError } from "./client-errors.js";
import type { WaitOptions } from "./client-types.js";

const BUSY_CHECKS = new Set(["queued", "checking"]);

/** True when a transfer is no longer binding and none of its checks is queued or checking. */
export function transferSettled(t: TransferResponse): boolean {
  const c = t.check_state;
  return (
    t.tx_status !== "binding" &&
    !BUSY_CHECKS.has(c.exposure) &&
    !BUSY_CHECKS.has(c.counterparty) &&
    !BUSY_CHECKS.has(c.sanctions)
  );
}

/** True when a manual check is checked or in error. */
export function manualCheckSettled(c: ManualCheckResponse): boolean {
  return c.check_status !== "checking";
}

/** True when a backtest is done or failed. */
export function backtestSettled(b: BacktestResponse): boolean {
  return b.status === "done" || b.status === "error";
}

/** Calls `read` every `intervalMs` until `done` holds, or throws KytWaitTimeoutError after `timeoutMs`. */
export async function pollUntil<T>(
  what: string,
  read: () => Promise<T>,
  done: (value: T) => boolean,
  options: WaitOptions = {},
): Promise<T> {
  const timeoutMs = options.timeoutMs ?? 60_000;
  const intervalMs = options.intervalMs ?? 1_000;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    const left = deadline - Date.now();
    if (left <= 0) throw new KytWaitTimeoutError(`${what} did not settle within ${timeoutMs} ms`, value);
    await new Promise((resolve) => setTimeout(resolve, Math.min(intervalMs, left)));
  }
}
