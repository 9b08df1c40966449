/**
 * Backtesting a risk model: what a candidate model would have done to an account's transfers
 * already screened. The stored check results (exposure, counterparty, sanctions) of every
 * transfer in scope are streamed from the store a page at a time and evaluated under the
 * candidate, beside the level the transfer actually got and the alerts its recorded model
 * version raises on the same results. Nothing is written: no result, no risk, no alert.
 */

import type {
  BacktestCandidate,
  BacktestReport,
  BacktestRequest,
  MovedTransfer,
} from "../../domain/backtests.js";
import type { RiskLevel } from "../../domain/enums.js";
import type { RiskModel } from "../../domain/records.js";
import { notFound } from "../../errors.js";
import type { TransferFilter } from "../../ports/store.js";
import type { ScreenedTransfer, TransferCursor } from "../../ports/store-backtests.js";
import { assessRisks } from "../../risk/index.js";
import { type BacktestRunInput, backtestRunSchema, parseInput } from "../../schemas/index.js";
import type { EngineContext } from "../engine-context.js";
import { createWorkSlicer } from "../jobs/work-slices.js";
import { modelVersionTag } from "../screening/model-resolution.js";
import { retracePage } from "./backtest-retrace.js";
import { createBacktestTally } from "./backtest-tally.js";
import { checkModel, isBuiltin, rulesOf } from "./risk-model-management.js";

/** Transfers read per page of the scan. */
export const BACKTEST_PAGE_SIZE = 1_000;

/** How far a run is: transfers in scope read so far, of those in scope when it began. */
export interface BacktestProgress {
  readonly scanned: number;
  readonly total: number;
}

/** Options of {@link runBacktest}. */
export interface BacktestRunOptions {
  /** Called after each page (and once before the first); awaited, so it may write progress. */
  readonly onProgress?: (progress: BacktestProgress) => void | Promise<void>;
}

/** A backtest request from the in-process body (model by id, or a risk model body). */
export async function backtestRequestOf(
  ctx: EngineContext,
  accountId: string,
  body: unknown,
): Promise<BacktestRequest> {
  const input: BacktestRunInput = parseInput(backtestRunSchema, body, "backtest");
  const candidate: BacktestCandidate =
    typeof input.model === "string"
      ? { kind: "stored", id: input.model }
      : { kind: "inline", name: input.model.name, rules: await rulesOf(ctx, accountId, input.model) };
  return requestOf(candidate, input);
}

/** A request for `candidate` over the window and filters of a parsed body. */
export function requestOf(
  candidate: BacktestCandidate,
  input: Pick<BacktestRunInput, "from" | "to" | "filters" | "shift_limit" | "retrace">,
): BacktestRequest {
  const f = input.filters ?? {};
  return {
    candidate,
    scope: {
      from: input.from,
      to: input.to,
      ...(f.network === undefined ? {} : { network: f.network }),
      ...(f.direction === undefined ? {} : { direction: f.direction }),
      ...(f.token_id === undefined ? {} : { tokenId: f.token_id }),
    },
    shiftLimit: input.shift_limit,
    retrace: input.retrace,
  };
}

/**
 * The candidate model: the built-in one ("default"), a live model of the account by id (its
 * newest version; unknown or deleted: NOT_FOUND), or inline rules (validated like a model body).
 */
export async function candidateModel(
  ctx: EngineContext,
  accountId: string,
  candidate: BacktestCandidate,
): Promise<{ model: RiskModel; tag: string }> {
  if (candidate.kind === "inline") {
    const model: RiskModel = { id: "inline", name: candidate.name, version: 1, rules: candidate.rules };
    checkModel(model);
    return { model, tag: `inline:${candidate.name}` };
  }
  if (candidate.id === "default" || isBuiltin(ctx, candidate.id)) {
    return { model: ctx.defaultModel, tag: modelVersionTag(ctx.defaultModel) };
  }
  // The newest version, a proposal awaiting approval too: a second admin backtests it before
  // approving it (docs/http-api.md).
  const versions = await ctx.store.listRiskModelVersions(accountId, candidate.id);
  const newest = versions[versions.length - 1];
  if (!newest || newest.deletedAt !== null) throw notFound("risk model", candidate.id);
  const model: RiskModel = { id: newest.id, name: newest.name, version: newest.version, rules: newest.rules };
  return { model, tag: modelVersionTag(model) };
}

/** The model a recorded `id@version` tag names, or null when the store no longer has it. */
async function recordedModel(ctx: EngineContext, accountId: string, tag: string): Promise<RiskModel | null> {
  const at = tag.lastIndexOf("@");
  const id = tag.slice(0, at);
  const version = Number(tag.slice(at + 1));
  if (at <= 0 || !Number.isInteger(version)) return null;
  if (isBuiltin(ctx, id)) return version === ctx.defaultModel.version ? ctx.defaultModel : null;
  return ctx.store.getRiskModel(accountId, id, version);
}

/** The risks and level `model` gives the stored results of `t`. */
function assess(model: RiskModel, t: ScreenedTransfer) {
  return assessRisks(
    {
      model,
      direction: t.direction,
      isAttempt: t.txStatus !== "bound",
      transferValue: t.valueInFiat,
      exposure: t.exposure,
      counterparty: t.counterparty,
      sanctions: t.sanctions,
    },
    t.anyChecked,
  );
}

/**
 * Runs a backtest of `request` over the account's transfers registered within its window. Reads
 * a page of {@link BACKTEST_PAGE_SIZE} transfers at a time, so memory stays bounded however many
 * there are. A transfer never checked (no model version recorded) is counted as `unchecked`.
 * The actual level is the stored one; the actual alerts are those its recorded model version
 * raises on the stored results (one per finding, as alerts open). With `retrace`, the candidate
 * is evaluated on the results of checks run again now (backtest-retrace.ts). It works in slices
 * (jobs/work-slices.ts), so the process answers other requests however long it runs.
 */
export async function runBacktest(
  ctx: EngineContext,
  accountId: string,
  request: BacktestRequest,
  options: BacktestRunOptions = {},
): Promise<BacktestReport> {
  const { model, tag } = await candidateModel(ctx, accountId, request.candidate);
  const s = request.scope;
  const filter: TransferFilter = {
    registeredFrom: s.from,
    registeredTo: s.to,
    ...(s.network === undefined ? {} : { network: s.network }),
    ...(s.direction === undefined ? {} : { direction: s.direction }),
    ...(s.tokenId === undefined ? {} : { tokenId: s.tokenId }),
  };
  const { total } = await ctx.store.listTransfers(accountId, filter, { page: 1, pageSize: 1 });
  await options.onProgress?.({ scanned: 0, total });
  // A run meets few model versions: each is read once.
  const recorded = new Map<string, RiskModel | null>();
  const tally = createBacktestTally(request.shiftLimit);
  const started = ctx.clock.now();
  const slices = createWorkSlicer(ctx.timer);
  let scanned = 0;
  let after: TransferCursor | null = null;
  do {
    const page = await ctx.store.scanTransfers(accountId, filter, after, BACKTEST_PAGE_SIZE);
    const fresh = request.retrace ? await retracePage(ctx, page.rows, slices) : null;
    for (const t of page.rows) {
      await slices.pause();
      if (t.riskModelVersion === null) {
        tally.addUnchecked();
        continue;
      }
      const version = t.riskModelVersion;
      if (!recorded.has(version)) recorded.set(version, await recordedModel(ctx, accountId, version));
      const actualModel = recorded.get(version) ?? null;
      const actual = actualModel === null ? null : assess(actualModel, t).risks;
      const again = fresh?.get(t.id);
      if (again) tally.addRetraceFailures(again.failures);
      const candidate = assess(model, again ? { ...t, ...again.results } : t);
      tally.add(t.id, t.riskLevel, candidate.level.riskLevel, actual, candidate.risks, version);
    }
    scanned += page.rows.length;
    after = page.next;
    await options.onProgress?.({ scanned, total: Math.max(total, scanned) });
  } while (after !== null);
  const report = tally.report(tag, s, ctx.clock.now() - started, request.retrace === true);
  return {
    ...report,
    candidateModel: { id: model.id, name: model.name, version: model.version },
    moved: await movedTransfers(ctx, accountId, report, tally.movedLevels()),
  };
}

/**
 * The transfers the report lists as moving level (up ones, then down ones), read back for their
 * hash and value: at most `shiftLimit` each way, so a few reads by id. A transfer gone from the
 * store meanwhile is left out.
 */
async function movedTransfers(
  ctx: EngineContext,
  accountId: string,
  report: BacktestReport,
  levels: ReadonlyMap<string, { readonly from: RiskLevel; readonly to: RiskLevel }>,
): Promise<MovedTransfer[]> {
  const moved: MovedTransfer[] = [];
  for (const id of [...report.shift.upIds, ...report.shift.downIds]) {
    const t = await ctx.store.getTransfer(id);
    const level = levels.get(id);
    if (t === null || t.accountId !== accountId || level === undefined) continue;
    moved.push({
      id,
      network: t.network,
      txHash: t.txHash,
      amount: t.amount,
      tokenSymbol: t.tokenSymbol,
      valueInFiat: t.valueInFiat,
      from: level.from,
      to: level.to,
    });
  }
  return moved;
}
