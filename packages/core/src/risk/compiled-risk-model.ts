/**
 * A risk model compiled for matching: its rules grouped by rule type and category, each group
 * split by the proximity its rules accept and kept in the order its risks are listed, with
 * numeric thresholds and the integers that order fired risks. The grouping is done once per
 * model object (a WeakMap); a group is compiled the first time an observation meets it, so a
 * model read afresh from a store costs little more than the old index.
 */
import {
  CHECK_KINDS,
  type CheckKind,
  RISK_TYPES,
  type RiskType,
  type RuleRiskLevel,
  type RuleType,
  riskRank,
} from "../domain/enums.js";
import type { RiskModel, RiskRule } from "../domain/records.js";
import { compareRules } from "./rule-matching.js";

/** One rule, ready to be checked against an observation and to order what it raises. */
export interface CompiledRule {
  /** The model's rule, frozen (a frozen copy when the model's own is not). */
  readonly rule: RiskRule;
  readonly riskLevel: RuleRiskLevel;
  /** `minValueShare`, or NaN when there is none (a share always passes). */
  readonly minShare: number;
  /** `minValueInFiat`, or NaN when there is none (any value, known or not, passes). */
  readonly minFiat: number;
  /**
   * First part of a fired risk's sort key: the level (highest first), then the category (in
   * string order among the model's categories). Lower sorts first.
   */
  readonly levelAndCategory: number;
  /**
   * Position of the rule in {@link compareRules} order within its group (equal rules share a
   * position). Fired risks are compared by it only when level, category, check and risk type
   * are equal, and then their rules share the category and the rule type (which the check and
   * the risk type decide): the same group.
   */
  readonly order: number;
}

/** The compiled rules of one rule type and one category, by the proximity they accept. */
export interface CategoryRules {
  /** Rules accepting `direct` observations (sub type `direct` or `all`), in listing order. */
  readonly direct: ReadonlyArray<CompiledRule>;
  /** Rules accepting `indirect` observations (sub type `indirect` or `all`), in listing order. */
  readonly indirect: ReadonlyArray<CompiledRule>;
}

/** The rules of one rule type and one category: as the model lists them, then compiled. */
export interface RuleGroup {
  /** The group's rules that can fire, in model order. */
  readonly rules: ReadonlyArray<RiskRule>;
  /** The category's position in string order among the model's categories. */
  readonly categoryPosition: number;
  /** Filled by {@link categoryRulesOf} on first use: a cache, invisible to callers. */
  compiled: CategoryRules | undefined;
}

/** A compiled model: per rule type, the rule group of each category. */
export interface CompiledRiskModel {
  readonly byRuleType: Readonly<Record<RuleType, ReadonlyMap<string, RuleGroup>>>;
  /** How many categories the model's rules name. */
  readonly categoryCount: number;
  /** More than any {@link CompiledRule.order} (the size of the largest group): a key's radix. */
  readonly orderCount: number;
}

/** Position of each risk type in string order, so positions compare as the texts do. */
const RISK_TYPE_POSITION: ReadonlyMap<RiskType, number> = new Map(
  [...RISK_TYPES].sort(compareText).map((t, i) => [t, i]),
);

/** Position of each check kind in string order: counterparty, exposure, sanctions. */
const CHECK_KIND_POSITION: ReadonlyMap<CheckKind, number> = new Map(
  [...CHECK_KINDS].sort(compareText).map((k, i) => [k, i]),
);

/**
 * The part of a fired risk's sort key that comes from the observation: check kind, then risk
 * type (each in string order). A fired risk's second key is
 * `(sourceKey * orderCount + rule order) * 2 + proximity` (direct 0, indirect 1).
 */
export function sourceKey(checkKind: CheckKind, riskType: RiskType): number {
  return (
    (CHECK_KIND_POSITION.get(checkKind) ?? 0) * RISK_TYPES.length + (RISK_TYPE_POSITION.get(riskType) ?? 0)
  );
}

function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * A threshold as the matcher compares it: null becomes NaN (no threshold); a number stays.
 * Undefined when the rule can never fire (a threshold that compares false with every value).
 */
function thresholdOf(value: number | null): number | undefined {
  if (value === null) return Number.NaN;
  const n = Number(value);
  return Number.isNaN(n) ? undefined : n;
}

/** True when `rule` can fire on some observation: a known rule type and no NaN threshold. */
function canFire(rule: RiskRule, ruleTypes: object): boolean {
  return (
    thresholdOf(rule.minValueShare) !== undefined &&
    thresholdOf(rule.minValueInFiat) !== undefined &&
    Object.hasOwn(ruleTypes, rule.ruleType)
  );
}

/**
 * Groups the rules of `model` that can fire by rule type and category: see
 * {@link CompiledRiskModel}. Pure; the model is not modified.
 */
export function compileRiskModel(model: RiskModel): CompiledRiskModel {
  const grouped: Record<RuleType, Map<string, RiskRule[]>> = {
    origin_of_funds: new Map(),
    destination_of_funds: new Map(),
    address_exposure: new Map(),
    entity: new Map(),
  };
  const categories = new Set<string>();
  let orderCount = 1;
  for (const rule of model.rules) {
    if (!canFire(rule, grouped)) continue;
    const byCategory = grouped[rule.ruleType];
    const group = byCategory.get(rule.entityCategory);
    if (group) {
      group.push(rule);
      orderCount = Math.max(orderCount, group.length);
    } else byCategory.set(rule.entityCategory, [rule]);
    categories.add(rule.entityCategory);
  }
  const positions = new Map([...categories].sort(compareText).map((c, i) => [c, i]));
  const byRuleType = {} as Record<RuleType, Map<string, RuleGroup>>;
  for (const ruleType of Object.keys(grouped) as RuleType[]) {
    const groups = new Map<string, RuleGroup>();
    for (const [category, rules] of grouped[ruleType]) {
      groups.set(category, { rules, categoryPosition: positions.get(category) ?? 0, compiled: undefined });
    }
    byRuleType[ruleType] = groups;
  }
  return Object.freeze({ byRuleType: Object.freeze(byRuleType), categoryCount: categories.size, orderCount });
}

/** Highest level first; a stable sort keeps the order among rules of one level. */
const byLevel = (a: CompiledRule, b: CompiledRule) => riskRank(b.riskLevel) - riskRank(a.riskLevel);

/** Compiles one group: thresholds, keys, frozen rules, listing order, split by proximity. */
function compileGroup(group: RuleGroup, categoryCount: number): CategoryRules {
  // compareRules order (stable: equal rules keep model order) gives each rule its order.
  const sorted = [...group.rules].sort(compareRules);
  let order = 0;
  const rules = sorted
    .map((rule, i): CompiledRule => {
      const previous = sorted[i - 1];
      if (previous && compareRules(previous, rule) !== 0) order += 1;
      return {
        rule: Object.isFrozen(rule) ? rule : Object.freeze({ ...rule }),
        riskLevel: rule.riskLevel,
        minShare: thresholdOf(rule.minValueShare) ?? Number.NaN,
        minFiat: thresholdOf(rule.minValueInFiat) ?? Number.NaN,
        levelAndCategory: (7 - riskRank(rule.riskLevel)) * categoryCount + group.categoryPosition,
        order,
      };
    })
    .sort(byLevel);
  return Object.freeze({
    direct: Object.freeze(
      rules.filter((c) => c.rule.ruleSubType === "direct" || c.rule.ruleSubType === "all"),
    ),
    indirect: Object.freeze(
      rules.filter((c) => c.rule.ruleSubType === "indirect" || c.rule.ruleSubType === "all"),
    ),
  });
}

/** The compiled rules of `group` (a group of `model`), compiled on first use. */
export function categoryRulesOf(model: CompiledRiskModel, group: RuleGroup): CategoryRules {
  if (group.compiled === undefined) group.compiled = compileGroup(group, model.categoryCount);
  return group.compiled;
}

/** Compiled models by model object: a pure cache over data that is never mutated. */
const compiledModels = new WeakMap<RiskModel, CompiledRiskModel>();

/** The compiled form of `model`, compiled on first use and remembered for this model object. */
export function compiledRiskModelOf(model: RiskModel): CompiledRiskModel {
  let compiled = compiledModels.get(model);
  if (!compiled) {
    compiled = compileRiskModel(model);
    compiledModels.set(model, compiled);
  }
  return compiled;
}
