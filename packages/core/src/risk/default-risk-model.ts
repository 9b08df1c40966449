/**
 * The risk model that ships with the engine, built from the risk group of each entity category
 * (domain/entity-categories.ts) and one threshold table per group. Documented row by row in
 * docs/risk-model.md; a test keeps that page and this table in step.
 */

import { ENTITY_CATEGORIES } from "../domain/entity-categories.js";
import type { RuleRiskLevel } from "../domain/enums.js";
import type { RiskModel, RiskRule } from "../domain/records.js";

/** Groups that raise risks by default; `low` and `system` raise nothing. */
export type RiskyGroup = "severe" | "high" | "medium";

/** One line of a group's rule table: what the rule looks at, its thresholds and its level. */
export interface RuleTemplate {
  readonly ruleType: RiskRule["ruleType"];
  readonly ruleSubType: RiskRule["ruleSubType"];
  readonly minValueShare: number | null;
  readonly minValueInFiat: number | null;
  readonly riskLevel: RuleRiskLevel;
}

function row(
  ruleType: RiskRule["ruleType"],
  ruleSubType: RiskRule["ruleSubType"],
  minValueShare: number | null,
  minValueInFiat: number | null,
  riskLevel: RuleRiskLevel,
): RuleTemplate {
  return Object.freeze({ ruleType, ruleSubType, minValueShare, minValueInFiat, riskLevel });
}

/** The same rows for origin of funds (incoming) and destination of funds (outgoing). */
function bothDirections(
  ruleSubType: RiskRule["ruleSubType"],
  share: number | null,
  fiat: number | null,
  level: RuleRiskLevel,
): RuleTemplate[] {
  return [
    row("origin_of_funds", ruleSubType, share, fiat, level),
    row("destination_of_funds", ruleSubType, share, fiat, level),
  ];
}

/**
 * Per risky group: the counterparty itself raises the group's level; a direct interaction
 * too; indirect exposure raises the group's level above a share and a USD value, and one
 * level lower above a small share alone (so transfers of unknown value are still flagged);
 * address exposure uses shares only, with the same two tiers.
 */
export const DEFAULT_RULE_TABLE: Readonly<Record<RiskyGroup, ReadonlyArray<RuleTemplate>>> = Object.freeze({
  severe: Object.freeze([
    row("entity", "direct", null, null, "severe"),
    ...bothDirections("direct", null, null, "severe"),
    ...bothDirections("indirect", 0.2, 10, "severe"),
    ...bothDirections("indirect", 0.01, null, "high"),
    row("address_exposure", "all", 0.05, null, "severe"),
    row("address_exposure", "all", 0.005, null, "high"),
  ]),
  high: Object.freeze([
    row("entity", "direct", null, null, "high"),
    ...bothDirections("direct", null, null, "high"),
    ...bothDirections("indirect", 0.2, 100, "high"),
    ...bothDirections("indirect", 0.05, null, "medium"),
    row("address_exposure", "all", 0.1, null, "high"),
    row("address_exposure", "all", 0.02, null, "medium"),
  ]),
  medium: Object.freeze([
    row("entity", "direct", null, null, "medium"),
    ...bothDirections("direct", null, null, "medium"),
    ...bothDirections("indirect", 0.5, 100, "medium"),
    ...bothDirections("indirect", 0.2, null, "low"),
    row("address_exposure", "all", 0.25, null, "medium"),
    row("address_exposure", "all", 0.05, null, "low"),
  ]),
});

function isRiskyGroup(group: string): group is RiskyGroup {
  return group === "severe" || group === "high" || group === "medium";
}

/** Every rule of the default model: for each risky category (table order), its group's rows. */
function defaultRules(): ReadonlyArray<RiskRule> {
  const rules: RiskRule[] = [];
  for (const category of ENTITY_CATEGORIES) {
    if (!isRiskyGroup(category.group)) continue;
    for (const t of DEFAULT_RULE_TABLE[category.group]) {
      rules.push(
        Object.freeze({
          ruleType: t.ruleType,
          ruleSubType: t.ruleSubType,
          entityCategory: category.code,
          minValueInFiat: t.minValueInFiat,
          minValueShare: t.minValueShare,
          riskLevel: t.riskLevel,
        }),
      );
    }
  }
  return Object.freeze(rules);
}

/** The model applied when a request names none: id "default", version 1. */
export const DEFAULT_RISK_MODEL: RiskModel = Object.freeze({
  id: "default",
  name: "OpenKYT default",
  version: 1,
  rules: defaultRules(),
});
