/**
 * The PDF report of a backtest: the report of a stored backtest once it is done (GET
 * /v1/backtests/{id}/report/), or of one run in process (`openkyt backtest --pdf`). The data is
 * the report as the interface answers it, the window and the candidate model; the renderer
 * (ReportRenderer port) lays it out.
 */
import type { BacktestRecord } from "../../domain/backtests.js";
import { KytError } from "../../errors.js";
import type { BacktestReportData, ReportModel } from "../../ports/report-renderer.js";
import { type BacktestReportResponse, presentBacktest } from "../../schemas/index.js";
import type { EngineContext } from "../engine-context.js";
import { modelOf, type RenderedReport, render, renderer } from "./report-assembly.js";
import { isBuiltin } from "./risk-model-management.js";

/** The model a report's candidate tag names (`id@version`, or `inline:NAME`). */
async function candidateOf(ctx: EngineContext, accountId: string, tag: string): Promise<ReportModel> {
  if (tag.startsWith("inline:")) return { id: "inline", name: tag.slice("inline:".length), version: tag };
  const id = tag.slice(0, tag.lastIndexOf("@"));
  if (isBuiltin(ctx, id)) return { id, name: ctx.defaultModel.name, version: tag };
  return modelOf(ctx, accountId, id, tag);
}

/** Renders the report of a backtest run in process over `window` (not stored: no backtest id). */
export async function renderBacktestReport(
  ctx: EngineContext,
  accountId: string,
  report: BacktestReportResponse,
  window: { readonly from: string; readonly to: string },
  backtestId: string | null = null,
): Promise<RenderedReport> {
  renderer(ctx);
  const data: BacktestReportData = {
    kind: "backtest",
    backtestId,
    from: window.from,
    to: window.to,
    report,
    riskModel: await candidateOf(ctx, accountId, report.candidate),
  };
  return render(ctx, data, true, `backtest-${backtestId ?? "run"}`);
}

/**
 * Renders the report of a stored backtest (the caller has checked the account). Only a done
 * backtest has one: queued or running, or ended in error, is ILLEGAL_TRANSITION (409) saying so.
 */
export async function storedBacktestReport(
  ctx: EngineContext,
  record: BacktestRecord,
): Promise<RenderedReport> {
  const b = presentBacktest(record);
  if (b.status !== "done" || b.report === null) {
    const progress =
      b.status === "error"
        ? `it ended in error (${b.error ?? "no reason recorded"})`
        : `it is ${b.status} (${b.progress.scanned} of ${b.progress.total ?? "?"} transfers read)`;
    throw new KytError(
      "ILLEGAL_TRANSITION",
      `backtest ${b.id} has no report: ${progress}; a report exists once its status is done`,
      {
        details: { status: b.status },
      },
    );
  }
  return renderBacktestReport(ctx, record.accountId, b.report, { from: b.from, to: b.to }, b.id);
}
