/**
 * Backtests of one account: run one in this process and get its report, or start one as a
 * durable job (`backtest.run`) and read its progress and report by id; either report as a PDF. A started backtest is a
 * record and a job written in one transaction; the job runs it (engine/jobs/backtest-job.ts).
 */
import type { BacktestRecord } from "../../domain/backtests.js";
import { KytError, notFound } from "../../errors.js";
import type { BacktestReportResponse } from "../../schemas/index.js";
import {
  backtestBodySchema,
  lookupId,
  parseInput,
  presentBacktest,
  presentBacktestReport,
} from "../../schemas/index.js";
import type { BacktestRunRequest, BacktestStartRequest } from "../../schemas/request-types.js";
import type { EngineContext } from "../engine-context.js";
import { newJob } from "../jobs/job-factory.js";
import {
  type BacktestRunOptions,
  backtestRequestOf,
  candidateModel,
  requestOf,
  runBacktest,
} from "./backtest.js";
import { renderBacktestReport, storedBacktestReport } from "./backtest-report.js";
import { type CallOptions, callContext } from "./call-origin.js";

/**
 * Most backtests one account may have queued or running at once: one more is refused with
 * LIMIT_REACHED (429) until one ends. The backtest runner runs one backtest at a time for the
 * whole engine, so an account never runs more than one at once.
 */
export const BACKTESTS_PENDING_PER_ACCOUNT = 3;

/** The backtest operations of one account. */
export function backtestRuns(ctx: EngineContext, accountId: string) {
  return Object.freeze({
    /**
     * Runs a backtest here and now (`{ model, from, to, filters, shift_limit }`; the model by id
     * or as a risk model body) and answers its report. Writes nothing.
     */
    async run(body: BacktestRunRequest, options: BacktestRunOptions = {}) {
      const request = await backtestRequestOf(ctx, accountId, body);
      return presentBacktestReport(await runBacktest(ctx, accountId, request, options));
    },
    /** POST /v1/risk-models/{id}/backtest/: starts a backtest of the model as a job (queued). */
    async start(modelId: string, body: BacktestStartRequest, options?: CallOptions) {
      // The model first: another account's model is a 404 whatever the body.
      const candidate = { kind: "stored", id: lookupId("risk model", modelId) } as const;
      await candidateModel(ctx, accountId, candidate);
      const request = requestOf(candidate, parseInput(backtestBodySchema, body ?? {}, "backtest"));
      const now = ctx.clock.now();
      const record: BacktestRecord = {
        id: ctx.ids.next(),
        accountId,
        status: "queued",
        request,
        scanned: 0,
        total: null,
        report: null,
        error: null,
        createdAt: now,
        updatedAt: now,
      };
      await ctx.store.transaction(async (tx) => {
        const pending = await tx.countPendingBacktests(accountId);
        if (pending >= BACKTESTS_PENDING_PER_ACCOUNT) {
          throw new KytError(
            "LIMIT_REACHED",
            `this account has ${pending} backtests queued or running, the most it may; start another when one is done`,
            { details: { pending, limit: BACKTESTS_PENDING_PER_ACCOUNT } },
          );
        }
        await tx.putBacktest(record);
        await tx.enqueueJob(newJob(callContext(ctx, options), "backtest.run", accountId, record.id, {}));
      });
      ctx.wake();
      return presentBacktest(record);
    },
    /** GET /v1/backtests/{id}/: progress while it runs, the report once done. */
    async get(id: string) {
      const record = await ctx.store.getBacktest(accountId, lookupId("backtest", id));
      if (!record) throw notFound("backtest", id);
      return presentBacktest(record);
    },
    /**
     * GET /v1/backtests/{id}/report/: the PDF report of a done backtest; another account's or an
     * unknown id is NOT_FOUND, one not done yet (or ended in error) ILLEGAL_TRANSITION.
     */
    async report(id: string) {
      const record = await ctx.store.getBacktest(accountId, lookupId("backtest", id));
      if (!record) throw notFound("backtest", id);
      return storedBacktestReport(ctx, record);
    },
    /** The PDF report of a backtest `run` here over `window` (the `from` and `to` it was given). */
    async renderReport(report: BacktestReportResponse, window: { from: string; to: string }) {
      return renderBacktestReport(ctx, accountId, report, window);
    },
  });
}
