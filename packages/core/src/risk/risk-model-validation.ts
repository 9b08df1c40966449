/** Checks a risk model before it is stored or used; problems are named by field. */

import { isEntityCategory } from "../domain/entity-categories.js";
import { isRuleRiskLevel, isRuleSubType, isRuleType } from "../domain/enums.js";
import type { RiskModel } from "../domain/records.js";
import type { FieldErrors } from "../errors.js";
import { ruleKey } from "./rule-matching.js";

/**
 * The problems of `model`, by field (`id`, `name`, `version`, `rules[3].minValueShare`, ...);
 * empty when it is valid. Checked: a non-empty id and name, a positive integer version, known
 * rule types, sub types, levels and entity categories, shares in [0, 1], non-negative finite
 * fiat thresholds, an `entity` rule with sub type direct or all, and no two rules equal but for
 * their level. Messages name other rules by number (1-based: "rule 4"), as the console labels them;
 * field keys keep the 0-based wire path (`rules[3]`).
 */
export function validateRiskModel(model: RiskModel): FieldErrors {
  const errors: Record<string, string[]> = {};
  const add = (field: string, message: string) => {
    const list = errors[field] ?? [];
    list.push(message);
    errors[field] = list;
  };
  if (typeof model.id !== "string" || model.id.trim() === "") add("id", "must be a non-empty string");
  if (typeof model.name !== "string" || model.name.trim() === "") add("name", "must be a non-empty string");
  if (!Number.isInteger(model.version) || model.version < 1) add("version", "must be an integer >= 1");
  if (!Array.isArray(model.rules)) {
    add("rules", "must be a list");
    return errors;
  }
  const seen = new Map<string, number>();
  model.rules.forEach((rule, i) => {
    const at = `rules[${i}]`;
    if (!isRuleType(rule.ruleType)) add(`${at}.ruleType`, `unknown rule type ${String(rule.ruleType)}`);
    if (!isRuleSubType(rule.ruleSubType))
      add(`${at}.ruleSubType`, `unknown rule sub type ${String(rule.ruleSubType)}`);
    else if (rule.ruleType === "entity" && rule.ruleSubType === "indirect") {
      add(`${at}.ruleSubType`, "an entity rule looks at the counterparty itself: use direct or all");
    }
    if (!isRuleRiskLevel(rule.riskLevel))
      add(`${at}.riskLevel`, `unknown risk level ${String(rule.riskLevel)}`);
    if (!isEntityCategory(rule.entityCategory)) {
      add(`${at}.entityCategory`, `unknown entity category ${String(rule.entityCategory)}`);
    }
    const share = rule.minValueShare;
    if (share !== null && !(typeof share === "number" && share >= 0 && share <= 1)) {
      add(`${at}.minValueShare`, "must be null or a number in [0, 1]");
    }
    const fiat = rule.minValueInFiat;
    if (fiat !== null && !(typeof fiat === "number" && Number.isFinite(fiat) && fiat >= 0)) {
      add(`${at}.minValueInFiat`, "must be null or a non-negative number");
    }
    const key = ruleKey(rule);
    const first = seen.get(key);
    if (first === undefined) seen.set(key, i);
    else add(at, `duplicates rule ${first + 1} (same type, sub type, category and thresholds)`);
  });
  return errors;
}
