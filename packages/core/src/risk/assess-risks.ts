/**
 * What a model makes of a set of check results, end to end: the rules that fire, one risk per
 * finding (the strongest), and the aggregated level. The same steps a check job takes before it
 * writes, for callers that only want the answer (backtests).
 */

import type { FiredRisk } from "../domain/records.js";
import { evaluateRisks, type RiskEvaluationInput } from "./evaluate-risks.js";
import { type AggregatedRisk, aggregateRisk } from "./risk-aggregation.js";
import { collapseRisks } from "./risk-collapse.js";

/** The risks a model raises on some check results and the level they give. */
export interface RiskAssessment {
  /** One per finding (risk type, category, proximity), in `compareFiredRisks` order. */
  readonly risks: ReadonlyArray<FiredRisk>;
  readonly level: AggregatedRisk;
}

/**
 * Evaluates `input` (see `evaluateRisks`), keeps the strongest risk of each finding (see
 * `collapseRisks`) and aggregates them; `anyCheckFinished` decides between `none` and
 * `undefined` when nothing fires. Pure.
 */
export function assessRisks(input: RiskEvaluationInput, anyCheckFinished: boolean): RiskAssessment {
  const fired = evaluateRisks(input);
  // One risk or none is its own collapse (and already in order): most transfers, no Map, no sort.
  const risks = fired.length <= 1 ? fired : collapseRisks(fired);
  return { risks, level: aggregateRisk(risks, anyCheckFinished) };
}
