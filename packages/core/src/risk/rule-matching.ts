/**
 * When one rule fires on one observation (a category met with a share, a value and a
 * proximity), and the order fired risks are listed in.
 */
import { type Proximity, type RuleSubType, riskRank } from "../domain/enums.js";
import type { RiskRule } from "../domain/records.js";

/**
 * Tolerance on shares: a traced share that is meant to equal a threshold (0.2) may come out of
 * float arithmetic a hair below it (0.19999999999999998). Shares within this of the threshold
 * reach it.
 */
export const SHARE_TOLERANCE = 1e-9;

/** What a rule is compared with. */
export interface Observation {
  readonly category: string;
  readonly proximity: Proximity;
  /** Share in [0, 1]. */
  readonly share: number;
  /** USD value, or null when not known (address exposure, or no price). */
  readonly valueInFiat: number | null;
}

/** True when a rule of `subType` looks at observations of `proximity` (`all` takes both). */
export function subTypeAccepts(subType: RuleSubType, proximity: Proximity): boolean {
  return subType === "all" || subType === proximity;
}

/**
 * True when `rule` fires on `seen`: same category, proximity accepted by the sub type, share
 * at least `minValueShare` and value at least `minValueInFiat`. A null threshold always
 * passes; a null value never passes a non-null fiat threshold. The rule type is the caller's
 * business.
 */
export function ruleFires(rule: RiskRule, seen: Observation): boolean {
  if (rule.entityCategory !== seen.category) return false;
  if (!subTypeAccepts(rule.ruleSubType, seen.proximity)) return false;
  if (rule.minValueShare !== null && !(seen.share + SHARE_TOLERANCE >= rule.minValueShare)) return false;
  if (
    rule.minValueInFiat !== null &&
    !(seen.valueInFiat !== null && seen.valueInFiat >= rule.minValueInFiat)
  ) {
    return false;
  }
  return true;
}

function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Null thresholds sort first. */
function compareThreshold(a: number | null, b: number | null): number {
  if (a === b) return 0;
  if (a === null) return -1;
  if (b === null) return 1;
  return a - b;
}

/** Total order of rules: type, sub type, category, level (highest first), share, fiat. */
export function compareRules(a: RiskRule, b: RiskRule): number {
  return (
    compareText(a.ruleType, b.ruleType) ||
    compareText(a.ruleSubType, b.ruleSubType) ||
    compareText(a.entityCategory, b.entityCategory) ||
    riskRank(b.riskLevel) - riskRank(a.riskLevel) ||
    compareThreshold(a.minValueShare, b.minValueShare) ||
    compareThreshold(a.minValueInFiat, b.minValueInFiat)
  );
}

/** Identity of a rule for duplicate detection: everything but the level. */
export function ruleKey(rule: RiskRule): string {
  return [
    rule.ruleType,
    rule.ruleSubType,
    rule.entityCategory,
    rule.minValueShare ?? "null",
    rule.minValueInFiat ?? "null",
  ].join("|");
}
