/**
 * Matching a risk model against the results of a transfer's (or a manual check's) three
 * checks. Pure: the same inputs give the same risks, in the same order.
 */
import type { CheckKind, Direction, Proximity, RiskType, RuleRiskLevel, RuleType } from "../domain/enums.js";
import { riskRank } from "../domain/enums.js";
import type {
  CounterpartyResult,
  ExposureResult,
  RiskModel,
  RiskRule,
  SanctionsResult,
} from "../domain/records.js";
import { compareRules, type Observation, ruleFires } from "./rule-matching.js";

/** A rule that fired, with what it fired on. One per fired rule. */
export interface FiredRisk {
  readonly checkKind: CheckKind;
  readonly riskType: RiskType;
  readonly riskLevel: RuleRiskLevel;
  readonly entityCategory: string;
  readonly entityName: string | null;
  readonly proximity: Proximity;
  readonly valueInFiat: number | null;
  readonly valueShare: number | null;
  readonly rule: RiskRule;
}

/** What {@link evaluateRisks} matches. Absent or null results contribute nothing. */
export interface RiskEvaluationInput {
  readonly model: RiskModel;
  readonly direction: Direction;
  /** An attempt not bound yet: counterparty and sanctions risks get the `attempt_` types. */
  readonly isAttempt: boolean;
  /** The transfer's USD value (used for entity and sanctions hits), when known. */
  readonly transferValue: number | null;
  readonly exposure?: ExposureResult | null;
  readonly counterparty?: CounterpartyResult | null;
  readonly sanctions?: SanctionsResult | null;
}

interface Source {
  readonly checkKind: CheckKind;
  readonly ruleType: RuleType;
  readonly riskType: RiskType;
  readonly seen: Observation & { readonly entityName: string | null };
}

/** Risk types of the counterparty side: sender for incoming, recipient for outgoing. */
function counterpartyRiskType(
  direction: Direction,
  kind: "entity" | "exposure",
  isAttempt: boolean,
): RiskType {
  const side = direction === "incoming" ? "sender" : "recipient";
  return `${isAttempt ? "attempt_" : ""}${side}_${kind}` as RiskType;
}

/** Every observation the checks produced, tagged with the rule type and risk type it answers to. */
function sourcesOf(input: RiskEvaluationInput): Source[] {
  const out: Source[] = [];
  const { direction, isAttempt, transferValue } = input;
  if (input.exposure) {
    const incoming = direction === "incoming";
    for (const s of input.exposure.shares) {
      out.push({
        checkKind: "exposure",
        ruleType: incoming ? "origin_of_funds" : "destination_of_funds",
        riskType: incoming ? "origin_of_funds" : "destination_of_funds",
        seen: { ...s, entityName: s.entityNames[0] ?? null },
      });
    }
  }
  const cp = input.counterparty;
  if (cp?.entity) {
    out.push({
      checkKind: "counterparty",
      ruleType: "entity",
      riskType: counterpartyRiskType(direction, "entity", isAttempt),
      seen: {
        category: cp.entity.category,
        entityName: cp.entity.name,
        proximity: "direct",
        share: 1,
        valueInFiat: transferValue,
      },
    });
  } else if (cp?.exposure) {
    for (const s of cp.exposure.shares) {
      out.push({
        checkKind: "counterparty",
        ruleType: "address_exposure",
        riskType: counterpartyRiskType(direction, "exposure", isAttempt),
        seen: { ...s, valueInFiat: null, entityName: s.entityNames[0] ?? null },
      });
    }
  }
  const hit = input.sanctions?.hit ? input.sanctions.listings[0] : undefined;
  if (hit) {
    out.push({
      checkKind: "sanctions",
      ruleType: "entity",
      riskType: counterpartyRiskType(direction, "entity", isAttempt),
      seen: {
        category: "sanctions",
        entityName: hit.entity ?? hit.listName,
        proximity: "direct",
        share: 1,
        valueInFiat: transferValue,
      },
    });
  }
  return out;
}

/**
 * Rules by (rule type, category), so an observation meets only the rules that can fire on it.
 * Memoised per model object: a pure cache over data that is never mutated, invisible to callers.
 */
const ruleIndexes = new WeakMap<RiskModel, ReadonlyMap<string, ReadonlyArray<RiskRule>>>();

function ruleIndexOf(model: RiskModel): ReadonlyMap<string, ReadonlyArray<RiskRule>> {
  let index = ruleIndexes.get(model);
  if (!index) {
    const built = new Map<string, RiskRule[]>();
    for (const rule of model.rules) {
      const key = `${rule.ruleType}|${rule.entityCategory}`;
      const list = built.get(key);
      if (list) list.push(rule);
      else built.set(key, [rule]);
    }
    index = built;
    ruleIndexes.set(model, index);
  }
  return index;
}

/** Highest level first, then category, check, risk type and rule. */
export function compareFiredRisks(a: FiredRisk, b: FiredRisk): number {
  const text = (x: string, y: string) => (x < y ? -1 : x > y ? 1 : 0);
  return (
    riskRank(b.riskLevel) - riskRank(a.riskLevel) ||
    text(a.entityCategory, b.entityCategory) ||
    text(a.checkKind, b.checkKind) ||
    text(a.riskType, b.riskType) ||
    compareRules(a.rule, b.rule) ||
    text(a.proximity, b.proximity)
  );
}

/**
 * The risks `model` raises on the check results. Exposure shares meet `origin_of_funds`
 * (incoming) or `destination_of_funds` (outgoing) rules; an identified counterparty meets
 * `entity` rules (share 1, the transfer's value, direct); a counterparty's exposure meets
 * `address_exposure` rules (no value); a sanctions hit is a direct interaction with category
 * `sanctions` and meets `entity` rules. Each fired rule is one frozen risk; the list is sorted
 * by {@link compareFiredRisks}.
 */
export function evaluateRisks(input: RiskEvaluationInput): FiredRisk[] {
  const fired: FiredRisk[] = [];
  const index = ruleIndexOf(input.model);
  for (const source of sourcesOf(input)) {
    for (const rule of index.get(`${source.ruleType}|${source.seen.category}`) ?? []) {
      if (!ruleFires(rule, source.seen)) continue;
      fired.push(
        Object.freeze({
          checkKind: source.checkKind,
          riskType: source.riskType,
          riskLevel: rule.riskLevel,
          entityCategory: source.seen.category,
          entityName: source.seen.entityName,
          proximity: source.seen.proximity,
          valueInFiat: source.seen.valueInFiat,
          valueShare: source.seen.share,
          rule: Object.isFrozen(rule) ? rule : Object.freeze({ ...rule }),
        }),
      );
    }
  }
  return fired.sort(compareFiredRisks);
}
