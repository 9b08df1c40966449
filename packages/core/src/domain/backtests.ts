/**
 * Backtests: what a candidate risk model would have done to transfers already screened. A
 * backtest re-evaluates the stored check results (exposure, counterparty, sanctions) of an
 * account's transfers under the candidate and sets the outcome beside the level each transfer
 * actually got. It writes no result of a transfer and opens no alert; what it keeps is the
 * backtest itself (its request, progress and report), read back by id.
 */
import type { Direction, RiskLevel, RiskType, RuleRiskLevel } from "./enums.js";
import type { Millis, RiskRule } from "./records.js";

/** States of a backtest run as a job: queued -> running -> done or error. */
export const BACKTEST_STATUSES = ["queued", "running", "done", "error"] as const;
export type BacktestStatus = (typeof BACKTEST_STATUSES)[number];

/** Which transfers a backtest covers: registered within [from, to] (inclusive), plus filters. */
export interface BacktestScope {
  readonly from: Millis;
  readonly to: Millis;
  readonly network?: string;
  readonly direction?: Direction;
  readonly tokenId?: string;
}

/** The model a backtest tries: a stored model of the account (or "default"), or rules given inline. */
export type BacktestCandidate =
  | { readonly kind: "stored"; readonly id: string }
  | { readonly kind: "inline"; readonly name: string; readonly rules: ReadonlyArray<RiskRule> };

/** What a backtest was asked to do. */
export interface BacktestRequest {
  readonly candidate: BacktestCandidate;
  readonly scope: BacktestScope;
  /** How many transfer ids to list per direction of the shift (up, down). */
  readonly shiftLimit: number;
  /**
   * Trace each transfer again against the current ledger, labels and lists, and evaluate the
   * candidate on those results instead of the stored ones (the actual side stays as checked).
   * Absent on backtests stored before it existed: false.
   */
  readonly retrace?: boolean;
}

/** How many transfers ended at one level, under the model that checked them and the candidate. */
export interface LevelCount {
  readonly level: RiskLevel;
  readonly actual: number;
  readonly candidate: number;
}

/** How many alerts one (risk type, category) would open, under each model. */
export interface AlertCount {
  readonly riskType: RiskType;
  readonly category: string;
  readonly actual: number;
  readonly candidate: number;
}

/** Transfers that moved from one level to another. */
export interface LevelMove {
  readonly from: RiskLevel;
  readonly to: RiskLevel;
  readonly count: number;
}

/** Alerts one model opens at one level (one per finding, as alerts open). */
export interface AlertLevelCount {
  readonly level: RuleRiskLevel;
  readonly actual: number;
  readonly candidate: number;
}

/** A transfer whose level the candidate moves, with what an analyst recognises it by. */
export interface MovedTransfer {
  readonly id: string;
  readonly network: string;
  /** Null for an attempt not bound to a transaction yet. */
  readonly txHash: string | null;
  readonly amount: number | null;
  readonly tokenSymbol: string | null;
  readonly valueInFiat: number | null;
  readonly from: RiskLevel;
  readonly to: RiskLevel;
}

/** The model a backtest tried, by name and version. */
export interface BacktestModelName {
  /** The model id ("inline" for rules given inline). */
  readonly id: string;
  readonly name: string;
  readonly version: number;
}

/** What a backtest found. Counts cover the evaluated transfers only. */
export interface BacktestReport {
  /** The candidate as `id@version` (inline rules: `inline:<name>`). */
  readonly candidate: string;
  /** The candidate by name and version; absent on reports stored before it was kept. */
  readonly candidateModel?: BacktestModelName;
  /** Alerts by the level they raise, under each model, every rule level; absent on older reports. */
  readonly alertLevels?: ReadonlyArray<AlertLevelCount>;
  /**
   * The first transfers whose level moves (up ones first, then down ones, at most `shiftLimit`
   * each), with hash, value and from -> to level; absent on older reports.
   */
  readonly moved?: ReadonlyArray<MovedTransfer>;
  /**
   * Transfers where the model that checked them raised a sanctions finding and the candidate
   * raises none: how many, and the ids of the first (at most `shiftLimit`). Absent on older reports.
   */
  readonly sanctionsDropped?: { readonly count: number; readonly ids: ReadonlyArray<string> };
  readonly scope: BacktestScope;
  /** Transfers in scope with stored results (checked at least once), evaluated under both models. */
  readonly evaluated: number;
  /** Transfers in scope never checked (no model version recorded): not evaluated. */
  readonly unchecked: number;
  /** True when the candidate saw fresh traces (`retrace`), false when the stored results. */
  readonly retraced: boolean;
  /** Checks a retrace could not run (their stored result was used instead); 0 without retrace. */
  readonly retraceFailures: number;
  /** The model versions that actually checked the evaluated transfers, with how many each. */
  readonly actualModels: ReadonlyArray<{ readonly version: string; readonly transfers: number }>;
  /**
   * Evaluated transfers whose recorded model version is gone from the store: their actual level
   * is known (it is stored), their actual alerts are not counted.
   */
  readonly actualModelMissing: number;
  /** Every level, in RISK_LEVELS order. */
  readonly levels: ReadonlyArray<LevelCount>;
  /** Every (risk type, category) that either model raises, by risk type then category. */
  readonly alerts: ReadonlyArray<AlertCount>;
  readonly shift: {
    readonly up: number;
    readonly down: number;
    readonly same: number;
    /** Every (from, to) pair with a transfer, by from then to (RISK_LEVELS order), same level too. */
    readonly moves: ReadonlyArray<LevelMove>;
    /** Ids of the first transfers (registration order) whose level would go up, at most `shiftLimit`. */
    readonly upIds: ReadonlyArray<string>;
    readonly downIds: ReadonlyArray<string>;
  };
  /** Wall time of the evaluation and transfers evaluated per second. */
  readonly elapsedMs: number;
  readonly transfersPerSecond: number;
}

/** A backtest kept by the store: request, progress and, once done, its report. */
export interface BacktestRecord {
  readonly id: string;
  readonly accountId: string;
  readonly status: BacktestStatus;
  readonly request: BacktestRequest;
  /** Transfers in scope read so far. */
  readonly scanned: number;
  /** Transfers in scope when the run began; null before it began. */
  readonly total: number | null;
  readonly report: BacktestReport | null;
  /** Why it failed; null unless status is `error`. */
  readonly error: string | null;
  readonly createdAt: Millis;
  readonly updatedAt: Millis;
}
