/**
 * Matching a risk model against the results of a transfer's (or a manual check's) three
 * checks. Pure: the same inputs give the same risks, in the same order.
 */
import type { CheckKind, Direction, Proximity, RiskType } from "../domain/enums.js";
import { riskRank } from "../domain/enums.js";
import type {
  CounterpartyResult,
  ExposureResult,
  ExposureShare,
  FiredRisk,
  RiskModel,
  SanctionsResult,
} from "../domain/records.js";
import {
  type CategoryRules,
  type CompiledRiskModel,
  categoryRulesOf,
  compiledRiskModelOf,
  type RuleGroup,
  sourceKey,
} from "./compiled-risk-model.js";
import { sortByKeys } from "./keyed-sort.js";
import { compareRules, SHARE_TOLERANCE } from "./rule-matching.js";

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

/** Risk type of a counterparty finding: sender for incoming, recipient for outgoing. */
function counterpartyRiskType(incoming: boolean, entity: boolean, isAttempt: boolean): RiskType {
  if (entity) {
    if (incoming) return isAttempt ? "attempt_sender_entity" : "sender_entity";
    return isAttempt ? "attempt_recipient_entity" : "recipient_entity";
  }
  if (incoming) return isAttempt ? "attempt_sender_exposure" : "sender_exposure";
  return isAttempt ? "attempt_recipient_exposure" : "recipient_exposure";
}

/** Fired risks in the order they were found, each with its two sort keys (see keyed-sort.ts). */
interface Found {
  readonly risks: FiredRisk[];
  readonly firsts: number[];
  readonly seconds: number[];
}

/** What every observation of one check shares: its check, its risk type and its key base. */
interface Source {
  readonly checkKind: CheckKind;
  readonly riskType: RiskType;
  /** {@link sourceKey} times the model's order count. */
  readonly base: number;
}

function sourceOf(model: CompiledRiskModel, checkKind: CheckKind, riskType: RiskType): Source {
  return { checkKind, riskType, base: sourceKey(checkKind, riskType) * model.orderCount };
}

/**
 * Adds to `found` a risk per rule of `rules` (one rule type, one category) that fires on one
 * observation. An observation of a proximity other than direct or indirect meets no rule.
 */
function matchObservation(
  found: Found,
  rules: CategoryRules,
  source: Source,
  category: string,
  entityName: string | null,
  proximity: Proximity,
  share: number,
  valueInFiat: number | null,
): void {
  const direct = proximity === "direct";
  const list = direct ? rules.direct : proximity === "indirect" ? rules.indirect : undefined;
  if (list === undefined || list.length === 0) return;
  const reached = share + SHARE_TOLERANCE;
  const value = valueInFiat === null ? Number.NaN : valueInFiat;
  for (let i = 0; i < list.length; i += 1) {
    const c = list[i]!;
    // A NaN threshold is none (always passes); a NaN (unknown) value reaches no threshold.
    if (!Number.isNaN(c.minShare) && !(reached >= c.minShare)) continue;
    if (!Number.isNaN(c.minFiat) && !(value >= c.minFiat)) continue;
    found.risks.push(
      Object.freeze({
        checkKind: source.checkKind,
        riskType: source.riskType,
        riskLevel: c.riskLevel,
        entityCategory: category,
        entityName,
        proximity,
        valueInFiat,
        valueShare: share,
        rule: c.rule,
      }),
    );
    found.firsts.push(c.levelAndCategory);
    found.seconds.push((source.base + c.order) * 2 + (direct ? 0 : 1));
  }
}

/** Matches every share of an exposure; `withValues` false drops their fiat values (address exposure). */
function matchShares(
  found: Found,
  model: CompiledRiskModel,
  byCategory: ReadonlyMap<string, RuleGroup>,
  source: Source,
  shares: ReadonlyArray<ExposureShare>,
  withValues: boolean,
): void {
  for (let i = 0; i < shares.length; i += 1) {
    const s = shares[i]!;
    const group = byCategory.get(s.category);
    if (group === undefined) continue;
    const name = s.entityNames[0] ?? null;
    const value = withValues ? s.valueInFiat : null;
    const rules = categoryRulesOf(model, group);
    matchObservation(found, rules, source, s.category, name, s.proximity, s.share, value);
  }
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
 * by {@link compareFiredRisks} (risks it ranks equal keep the order they were found in).
 *
 * The model is compiled once per model object (compiled-risk-model.ts); each observation then
 * meets only the rules of its rule type, category and proximity, and the list is ordered by
 * integer keys that rank risks as {@link compareFiredRisks} does. A plain reference matcher
 * in the tests holds this to the definition (test/risk/reference-risk-evaluation.ts).
 */
export function evaluateRisks(input: RiskEvaluationInput): FiredRisk[] {
  const model = compiledRiskModelOf(input.model);
  const found: Found = { risks: [], firsts: [], seconds: [] };
  const incoming = input.direction === "incoming";
  const { isAttempt, transferValue } = input;
  if (input.exposure) {
    const riskType = incoming ? "origin_of_funds" : "destination_of_funds";
    const source = sourceOf(model, "exposure", riskType);
    matchShares(found, model, model.byRuleType[riskType], source, input.exposure.shares, true);
  }
  const cp = input.counterparty;
  if (cp?.entity) {
    const group = model.byRuleType.entity.get(cp.entity.category);
    if (group !== undefined) {
      const rules = categoryRulesOf(model, group);
      const source = sourceOf(model, "counterparty", counterpartyRiskType(incoming, true, isAttempt));
      const { category, name } = cp.entity;
      matchObservation(found, rules, source, category, name, "direct", 1, transferValue);
    }
  } else if (cp?.exposure) {
    const source = sourceOf(model, "counterparty", counterpartyRiskType(incoming, false, isAttempt));
    matchShares(found, model, model.byRuleType.address_exposure, source, cp.exposure.shares, false);
  }
  const hit = input.sanctions?.hit ? input.sanctions.listings[0] : undefined;
  if (hit) {
    const group = model.byRuleType.entity.get("sanctions");
    if (group !== undefined) {
      const rules = categoryRulesOf(model, group);
      const source = sourceOf(model, "sanctions", counterpartyRiskType(incoming, true, isAttempt));
      const name = hit.entity ?? hit.listName;
      matchObservation(found, rules, source, "sanctions", name, "direct", 1, transferValue);
    }
  }
  return found.risks.length > 1 ? sortByKeys(found.risks, found.firsts, found.seconds) : found.risks;
}
