/**
 * The reference matcher: what `evaluateRisks` must compute, written from docs/risk-model.md
 * alone (§4 "Rules and when they fire"), as plainly as possible: every observation of the check
 * results against every rule of the model, then one sort. Nothing but types comes from
 * src/risk/, so a bug in the implementation's predicate or order cannot hide in here too.
 * No index, no compilation, no precomputed keys.
 */
import type { CheckKind, Proximity, RiskType, RuleType } from "../../src/domain/enums.js";
import type { FiredRisk, RiskRule } from "../../src/domain/records.js";
import type { RiskEvaluationInput } from "../../src/risk/evaluate-risks.js";

/** One observation offered to the rules, with the check it came from. */
interface Observation {
  readonly checkKind: CheckKind;
  readonly ruleType: RuleType;
  readonly riskType: RiskType;
  readonly category: string;
  readonly entityName: string | null;
  readonly proximity: Proximity;
  readonly share: number;
  readonly valueInFiat: number | null;
}

/**
 * §4, "What each check offers to the rules" (the table), and: "For an attempt (not bound yet)
 * the counterparty and sanctions risk types get the `attempt_` prefix".
 */
function observationsOf(input: RiskEvaluationInput): Observation[] {
  const out: Observation[] = [];
  const incoming = input.direction === "incoming";
  const prefix = input.isAttempt ? "attempt_" : "";
  const side = incoming ? "sender" : "recipient";
  const entityRiskType = `${prefix}${side}_entity` as RiskType;
  const exposureRiskType = `${prefix}${side}_exposure` as RiskType;

  // exposure | each share: category, proximity, share, share × V |
  //   `origin_of_funds` (incoming) / `destination_of_funds` (outgoing) | same risk_type.
  // §1 "Shares": "`value_in_fiat` of a share is `share × V` (null when V is unknown)".
  const flow = incoming ? "origin_of_funds" : "destination_of_funds";
  for (const s of input.exposure?.shares ?? []) {
    out.push({
      checkKind: "exposure",
      ruleType: flow,
      riskType: flow,
      category: s.category,
      // §4: "an entity name (a share's first name, the one with most weight; ...)".
      entityName: s.entityNames.length > 0 ? s.entityNames[0]! : null,
      proximity: s.proximity,
      share: s.share,
      valueInFiat: s.valueInFiat,
    });
  }

  const cp = input.counterparty;
  if (cp?.entity) {
    // counterparty, identified | its category, direct, share 1, value V | `entity` |
    //   `sender_entity` (incoming) / `recipient_entity` (outgoing).
    out.push({
      checkKind: "counterparty",
      ruleType: "entity",
      riskType: entityRiskType,
      category: cp.entity.category,
      // §4: "...; the counterparty's entity; ...".
      entityName: cp.entity.name,
      proximity: "direct",
      share: 1,
      valueInFiat: input.transferValue,
    });
  } else if (cp?.exposure) {
    // counterparty, not identified | each share of its address exposure, value null |
    //   `address_exposure` | `sender_exposure` / `recipient_exposure`.
    for (const s of cp.exposure.shares) {
      out.push({
        checkKind: "counterparty",
        ruleType: "address_exposure",
        riskType: exposureRiskType,
        category: s.category,
        entityName: s.entityNames.length > 0 ? s.entityNames[0]! : null,
        proximity: s.proximity,
        share: s.share,
        valueInFiat: null,
      });
    }
  }

  // sanctions, hit | category `sanctions`, direct, share 1, value V | `entity` | as for an
  //   identified counterparty.
  // §3: "Sanctioned: one of its listings is valid ..." (a hit has a listing), and §4: "a
  //   sanctions hit's first listing: its entity, else its list's name".
  const listing = input.sanctions?.hit ? input.sanctions.listings[0] : undefined;
  if (listing) {
    out.push({
      checkKind: "sanctions",
      ruleType: "entity",
      riskType: entityRiskType,
      category: "sanctions",
      entityName: listing.entity !== null ? listing.entity : listing.listName,
      proximity: "direct",
      share: 1,
      valueInFiat: input.transferValue,
    });
  }
  return out;
}

/**
 * §4: "A rule fires when the category matches, its sub type accepts the proximity, the share is
 * at least `min_value_share` (shares within 1e-9 below a threshold count as reaching it, ...)
 * and the value is at least `min_value_in_fiat`." The rule type is the one the check offers
 * its observations to (the table's "rules" column).
 */
function fires(rule: RiskRule, seen: Observation): boolean {
  // "rule_type: origin_of_funds (exposure of an incoming transfer), destination_of_funds
  // (outgoing), address_exposure (the counterparty's exposure), entity (the counterparty
  // itself, or a sanctions hit)".
  if (rule.ruleType !== seen.ruleType) return false;
  // "entity_category: ...; `undefined` is matched only by a rule that names it".
  if (rule.entityCategory !== seen.category) return false;
  // "rule_sub_type: which proximity it looks at: `direct`, `indirect` or `all` (both)".
  const accepts =
    rule.ruleSubType === "all" ||
    (rule.ruleSubType === "direct" && seen.proximity === "direct") ||
    (rule.ruleSubType === "indirect" && seen.proximity === "indirect");
  if (!accepts) return false;
  // "min_value_share: the share must reach it (null: always passes)"; "shares within 1e-9
  // below a threshold count as reaching it".
  if (rule.minValueShare !== null) {
    const reaches = seen.share >= rule.minValueShare || rule.minValueShare - seen.share <= 1e-9;
    if (!reaches) return false;
  }
  // "min_value_in_fiat: the USD value must reach it (null: always passes; an unknown value
  // never passes a number)".
  if (rule.minValueInFiat !== null) {
    if (seen.valueInFiat === null) return false;
    if (!(seen.valueInFiat >= rule.minValueInFiat)) return false;
  }
  return true;
}

/**
 * §4, the order of risks: "Risks are listed highest level first, then by category, check, risk
 * type and rule." The levels are §4's `risk_level` values, `low`, `medium`, `high`, `severe`,
 * here lowest first.
 */
const LEVELS = ["low", "medium", "high", "severe"];

/**
 * §4: "Category, check (`counterparty`, `exposure`, `sanctions`) and risk type sort as strings
 * (by code unit, so upper case sorts before lower case)."
 */
function byText(a: string, b: string): number {
  if (a < b) return -1;
  if (a > b) return 1;
  return 0;
}

/** §4: "they sort by the rule's sub type (`all`, `direct`, `indirect`)". */
const SUB_TYPES = ["all", "direct", "indirect"];

/** §4: "then `min_value_share`, then `min_value_in_fiat` (none first, then lowest)". */
function byThreshold(a: number | null, b: number | null): number {
  if (a === b) return 0;
  if (a === null) return -1;
  if (b === null) return 1;
  return a - b;
}

/** §4: "direct sorts before indirect". */
const PROXIMITIES = ["direct", "indirect"];

function compareRisks(a: FiredRisk, b: FiredRisk): number {
  return (
    // "highest level first"
    LEVELS.indexOf(b.riskLevel) - LEVELS.indexOf(a.riskLevel) ||
    // "then by category, check, risk type"
    byText(a.entityCategory, b.entityCategory) ||
    byText(a.checkKind, b.checkKind) ||
    byText(a.riskType, b.riskType) ||
    // "and rule": "Risks still tied come from rules of the same type, category and level"
    SUB_TYPES.indexOf(a.rule.ruleSubType) - SUB_TYPES.indexOf(b.rule.ruleSubType) ||
    byThreshold(a.rule.minValueShare, b.rule.minValueShare) ||
    byThreshold(a.rule.minValueInFiat, b.rule.minValueInFiat) ||
    // "Beyond that, risks tie only when ...: direct sorts before indirect"
    PROXIMITIES.indexOf(a.proximity) - PROXIMITIES.indexOf(b.proximity)
  );
}

/** The risks of `input` by the definition: same contract as `evaluateRisks`. */
export function referenceEvaluateRisks(input: RiskEvaluationInput): FiredRisk[] {
  const fired: FiredRisk[] = [];
  for (const seen of observationsOf(input)) {
    for (const rule of input.model.rules) {
      if (!fires(rule, seen)) continue;
      // §4: "Each fired rule is one risk"; "A risk carries the observation it fired on".
      fired.push(
        Object.freeze({
          checkKind: seen.checkKind,
          riskType: seen.riskType,
          riskLevel: rule.riskLevel,
          entityCategory: seen.category,
          entityName: seen.entityName,
          proximity: seen.proximity,
          valueInFiat: seen.valueInFiat,
          valueShare: seen.share,
          rule: Object.isFrozen(rule) ? rule : Object.freeze({ ...rule }),
        }),
      );
    }
  }
  // §4: "what is still equal keeps the order it was found in (shares in their order, rules in
  // the model's order)": the loops above find them in that order, and the sort is stable.
  return fired.sort(compareRisks);
}
