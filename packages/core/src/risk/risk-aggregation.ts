/** From fired risks to the level and score of a transfer or a manual check. */
import { RISK_SCORES, type RiskLevel, type RuleRiskLevel, riskRank } from "../domain/enums.js";

/** The aggregated level and its score. */
export interface AggregatedRisk {
  readonly riskLevel: RiskLevel;
  /** From RISK_SCORES: none 0, low 0.25, medium 0.5, high 0.75, severe 1; null for undefined. */
  readonly riskScore: number | null;
}

/**
 * The highest level among `risks`; `none` when nothing fired but a check finished;
 * `undefined` (score null) when nothing fired and no check finished yet. Independent of the
 * order of the risks.
 */
export function aggregateRisk(
  risks: ReadonlyArray<{ readonly riskLevel: RuleRiskLevel }>,
  anyCheckFinished: boolean,
): AggregatedRisk {
  let level: RiskLevel = anyCheckFinished ? "none" : "undefined";
  for (const r of risks) if (riskRank(r.riskLevel) > riskRank(level)) level = r.riskLevel;
  return Object.freeze({ riskLevel: level, riskScore: RISK_SCORES[level] });
}
