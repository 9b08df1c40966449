/**
 * The wire shapes of backtests: the request (HTTP body and in-process call), the backtest
 * resource with its progress and report, and the presenter from records. Strict like every body.
 */
import { z } from "zod";
import type { BacktestRecord, BacktestReport } from "../domain/backtests.js";
import { BACKTEST_STATUSES } from "../domain/backtests.js";
import { DIRECTIONS, RISK_LEVELS, RISK_TYPES, RULE_RISK_LEVELS } from "../domain/enums.js";
import { dateField } from "./query-fields.js";
import { riskModelBodySchema } from "./requests-workflow.js";
import { formatOffsetTimestamp } from "./timestamps.js";
import { networkField } from "./wire-fields.js";
import { wireString } from "./wire-text.js";

/** Most transfer ids a backtest lists each way of the shift. */
export const BACKTEST_SHIFT_LIMIT_MAX = 1_000;

/** Filters of the transfers a backtest covers. */
const backtestFiltersSchema = z
  .strictObject({
    network: networkField.optional(),
    direction: z.enum(DIRECTIONS).optional().describe("incoming or outgoing."),
    token_id: wireString()
      .trim()
      .min(1)
      .max(200)
      .optional()
      .describe('Token id ("native" for native coins).'),
  })
  .describe("Only transfers that match every filter given.");

/** The fields of every backtest request: the window, the filters, how many ids to list. */
const scopeFields = {
  from: dateField("from", "First registration time covered."),
  to: dateField("to", "Last registration time covered."),
  filters: backtestFiltersSchema.optional(),
  shift_limit: z
    .number()
    .int()
    .min(0)
    .max(BACKTEST_SHIFT_LIMIT_MAX)
    .default(20)
    .describe("How many transfer ids to list each way of the level shift. Default 20."),
  retrace: z
    .boolean()
    .default(false)
    .describe(
      "Trace each transfer again against the current ledger, labels and lists for the candidate (slow: a trace per transfer). Default false: the stored results.",
    ),
};

/** A window that ends before it begins is refused, naming `to`. */
const fromNotAfterTo = (b: { from: number; to: number }) => b.from <= b.to;
const WINDOW_ERROR = { message: "from must not be after to", path: ["to"] };

/** Body of POST /v1/risk-models/{id}/backtest/: the model is the one of the path. */
export const backtestBodySchema = z
  .strictObject(scopeFields)
  .refine(fromNotAfterTo, WINDOW_ERROR)
  .describe("Which stored transfers to re-evaluate.");

/** A model id: "default" names the built-in one. */
const modelIdSchema = wireString().trim().min(1).max(200);

/**
 * A model id or a risk model body. The branch is chosen by the input's type, so a refusal names
 * the field and says what is wrong with it (a union would only say "Invalid input").
 */
const modelField = z
  .unknown()
  .transform((value, ctx): string | z.output<typeof riskModelBodySchema> => {
    const parsed = (typeof value === "string" ? modelIdSchema : riskModelBodySchema).safeParse(value);
    if (parsed.success) return parsed.data;
    for (const issue of parsed.error.issues) ctx.issues.push({ ...issue, input: value } as never);
    return z.NEVER;
  })
  .describe('A model id ("default": the built-in one), or a risk model body (name and rules).');

/** An in-process backtest: the body plus the model, by id or as rules (a risk model body). */
export const backtestRunSchema = z
  .strictObject({
    model: modelField,
    ...scopeFields,
  })
  .refine(fromNotAfterTo, WINDOW_ERROR)
  .describe("A backtest of a model given by id or by its rules.");

/** Parsed bodies. */
export type BacktestBodyInput = z.output<typeof backtestBodySchema>;
export type BacktestRunInput = z.output<typeof backtestRunSchema>;

const count = z.number().int().min(0);

/** The report of a finished backtest. */
export const backtestReportSchema = z
  .strictObject({
    candidate: z.string().describe("The model tried: id@version, or inline:NAME for rules given inline."),
    candidate_model: z
      .strictObject({ id: z.string(), name: z.string(), version: z.number().int() })
      .nullable()
      .describe("The model tried by name and version; null on reports stored before it was kept."),
    evaluated: count.describe("Transfers in scope with stored results, evaluated under both models."),
    unchecked: count.describe("Transfers in scope never checked: not evaluated."),
    retraced: z.boolean().describe("The candidate saw fresh traces (retrace) instead of the stored results."),
    retrace_failures: count.describe("Checks a retrace could not run; their stored result was used."),
    actual_models: z
      .array(z.strictObject({ version: z.string(), transfers: count }))
      .describe("The model versions that actually checked the evaluated transfers."),
    actual_model_missing: count.describe(
      "Evaluated transfers whose model version is gone: no actual alerts counted.",
    ),
    levels: z
      .array(z.strictObject({ level: z.enum(RISK_LEVELS), actual: count, candidate: count }))
      .describe("Transfers by risk level: as checked (stored) and under the candidate."),
    alerts: z
      .array(
        z.strictObject({
          risk_type: z.enum(RISK_TYPES),
          category: z.string(),
          actual: count,
          candidate: count,
        }),
      )
      .describe("Alerts each model opens, one per finding, by risk type and category."),
    alert_levels: z
      .array(z.strictObject({ level: z.enum(RULE_RISK_LEVELS), actual: count, candidate: count }))
      .describe(
        "Alerts each model opens, one per finding, by the level of the rule that raised them (every rule level; empty on older reports).",
      ),
    moved: z
      .array(
        z.strictObject({
          id: z.string(),
          network: z.string(),
          tx_hash: z.string().nullable().describe("Null for an attempt not bound yet."),
          amount: z.number().nullable(),
          token_symbol: z.string().nullable(),
          value_in_fiat: z.number().nullable().describe("USD."),
          from: z.enum(RISK_LEVELS).describe("The level as checked."),
          to: z.enum(RISK_LEVELS).describe("The level under the candidate."),
        }),
      )
      .describe("The first transfers whose level moves (up ones, then down ones), with hash and value."),
    sanctions_dropped: z
      .strictObject({
        count: count.describe("Transfers with a sanctions finding as checked and none under the candidate."),
        ids: z.array(z.string()).describe("The first of them (registration order)."),
      })
      .describe("Sanctions findings the candidate would drop: a non-zero count is a warning."),
    shift: z.strictObject({
      up: count,
      down: count,
      same: count,
      moves: z.array(z.strictObject({ from: z.enum(RISK_LEVELS), to: z.enum(RISK_LEVELS), count })),
      up_ids: z.array(z.string()).describe("The first transfers (registration order) whose level goes up."),
      down_ids: z.array(z.string()),
    }),
    elapsed_ms: z.number().min(0),
    transfers_per_second: z.number().min(0),
  })
  .describe("What the candidate would have done, beside what the checking model did.");

/** A backtest resource. */
export const backtestResponseSchema = z
  .strictObject({
    id: z.string(),
    status: z.enum(BACKTEST_STATUSES).describe("queued, running, done or error."),
    model: z.string().describe("The model of the path."),
    from: z.string(),
    to: z.string(),
    created_at: z.string(),
    updated_at: z.string(),
    progress: z.strictObject({
      scanned: count.describe("Transfers in scope read so far."),
      total: count.nullable().describe("Transfers in scope when the run began; null while queued."),
    }),
    report: backtestReportSchema.nullable().describe("Null until done."),
    error: z.string().nullable().describe("Why it failed; null unless status is error."),
  })
  .describe("A backtest of a risk model on stored transfers: its progress, then its report.");

export type BacktestReportResponse = z.output<typeof backtestReportSchema>;
export type BacktestResponse = z.output<typeof backtestResponseSchema>;

/** A report on the wire. */
export function presentBacktestReport(r: BacktestReport): BacktestReportResponse {
  return {
    candidate: r.candidate,
    candidate_model: r.candidateModel
      ? { id: r.candidateModel.id, name: r.candidateModel.name, version: r.candidateModel.version }
      : null,
    evaluated: r.evaluated,
    unchecked: r.unchecked,
    retraced: r.retraced,
    retrace_failures: r.retraceFailures,
    actual_models: r.actualModels.map((m) => ({ version: m.version, transfers: m.transfers })),
    actual_model_missing: r.actualModelMissing,
    levels: r.levels.map((l) => ({ level: l.level, actual: l.actual, candidate: l.candidate })),
    alerts: r.alerts.map((a) => ({
      risk_type: a.riskType,
      category: a.category,
      actual: a.actual,
      candidate: a.candidate,
    })),
    alert_levels: (r.alertLevels ?? []).map((a) => ({
      level: a.level,
      actual: a.actual,
      candidate: a.candidate,
    })),
    moved: (r.moved ?? []).map((m) => ({
      id: m.id,
      network: m.network,
      tx_hash: m.txHash,
      amount: m.amount,
      token_symbol: m.tokenSymbol,
      value_in_fiat: m.valueInFiat,
      from: m.from,
      to: m.to,
    })),
    sanctions_dropped: {
      count: r.sanctionsDropped?.count ?? 0,
      ids: [...(r.sanctionsDropped?.ids ?? [])],
    },
    shift: {
      up: r.shift.up,
      down: r.shift.down,
      same: r.shift.same,
      moves: r.shift.moves.map((m) => ({ from: m.from, to: m.to, count: m.count })),
      up_ids: [...r.shift.upIds],
      down_ids: [...r.shift.downIds],
    },
    elapsed_ms: r.elapsedMs,
    transfers_per_second: r.transfersPerSecond,
  };
}

/** A backtest on the wire. */
export function presentBacktest(b: BacktestRecord): BacktestResponse {
  const candidate = b.request.candidate;
  return {
    id: b.id,
    status: b.status,
    model: candidate.kind === "stored" ? candidate.id : `inline:${candidate.name}`,
    from: formatOffsetTimestamp(b.request.scope.from),
    to: formatOffsetTimestamp(b.request.scope.to),
    created_at: formatOffsetTimestamp(b.createdAt),
    updated_at: formatOffsetTimestamp(b.updatedAt),
    progress: { scanned: b.scanned, total: b.total },
    report: b.report === null ? null : presentBacktestReport(b.report),
    error: b.error,
  };
}
