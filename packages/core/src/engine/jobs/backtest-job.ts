/**
 * The backtest job: runs a started backtest (use-cases/backtest.ts), writing its progress as it
 * goes and its report at the end. It writes only the backtest's own record: no transfer
 * result, risk or alert. Running it again (a worker died, its lease ran out) starts the count
 * over and writes the same report; a backtest already done or failed is left as it is.
 */
import type { BacktestRecord } from "../../domain/backtests.js";
import type { JobKind, JobRecord } from "../../domain/records.js";
import { describeError, KytError } from "../../errors.js";
import type { EngineContext } from "../engine-context.js";
import { runBacktest } from "../use-cases/backtest.js";
import { createJobRunner, type JobFailureListener, type JobHandler, type JobRunner } from "./job-runner.js";

/** Least time between two progress writes of one run. */
export const BACKTEST_PROGRESS_INTERVAL_MS = 500;

/** The backtest of a job, unless it is gone or finished. */
async function pending(ctx: EngineContext, job: JobRecord): Promise<BacktestRecord | null> {
  const record = await ctx.store.getBacktest(job.accountId, job.subjectId);
  return record && (record.status === "queued" || record.status === "running") ? record : null;
}

/** Records a failure where users see it. */
async function fail(ctx: EngineContext, record: BacktestRecord, reason: string): Promise<void> {
  await ctx.store.putBacktest({ ...record, status: "error", error: reason, updatedAt: ctx.clock.now() });
}

/** The `backtest.run` handler. */
export function backtestJobHandler(ctx: EngineContext): JobHandler {
  return {
    async run(job) {
      const start = await pending(ctx, job);
      if (!start) return { kind: "done" };
      let current: BacktestRecord = { ...start, status: "running", scanned: 0, updatedAt: ctx.clock.now() };
      await ctx.store.putBacktest(current);
      let written = ctx.clock.now();
      try {
        const report = await runBacktest(ctx, job.accountId, start.request, {
          onProgress: async ({ scanned, total }) => {
            current = { ...current, scanned, total };
            const now = ctx.clock.now();
            if (now - written < BACKTEST_PROGRESS_INTERVAL_MS && scanned > 0) return;
            written = now;
            await ctx.store.putBacktest({ ...current, updatedAt: now });
          },
        });
        await ctx.store.putBacktest({ ...current, status: "done", report, updatedAt: ctx.clock.now() });
      } catch (error) {
        // A refused request (the model was deleted meanwhile, bad rules) will not get better.
        if (!(error instanceof KytError) || error.code === "STORE_ERROR") throw error;
        await fail(ctx, current, describeError(error));
      }
      return { kind: "done" };
    },
    async giveUp(job, reason) {
      const record = await pending(ctx, job);
      if (record) await fail(ctx, record, reason);
    },
  };
}

/**
 * Job settings of the backtest runner: one backtest at a time, so a long one never holds up a
 * check (checks and deliveries have runners of their own), and a lease long enough for a
 * backtest of millions of transfers (a run that outlives it is run again from the start).
 */
export const BACKTEST_JOBS = Object.freeze({ concurrency: 1, leaseMs: 30 * 60_000, maxAttempts: 3 });

/** The kinds the backtest runner claims. */
export const BACKTEST_KINDS: ReadonlyArray<JobKind> = Object.freeze(["backtest.run"]);

/** The runner of `backtest.run` jobs. */
export function backtestRunner(ctx: EngineContext, onFailure: JobFailureListener): JobRunner {
  return createJobRunner({
    store: ctx.store,
    clock: ctx.clock,
    timer: ctx.timer,
    logger: ctx.logger,
    config: Object.freeze({ ...ctx.jobs, ...BACKTEST_JOBS }),
    kinds: BACKTEST_KINDS,
    handlers: { "backtest.run": backtestJobHandler(ctx) },
    onFailure,
  });
}
