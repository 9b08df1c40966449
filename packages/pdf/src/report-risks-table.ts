/**
 * The risks: each rule that fired, with its level, what it looked at, the category, proximity
 * and entity, the value and share that matched, and the rule's own thresholds.
 */
import type { RiskResponse, RiskRuleResponse, RuleRiskLevel } from "@openkyt/core";
import type { Content, TableCell } from "pdfmake/interfaces";
import { paragraph, ruledTable, section } from "./report-blocks.js";
import { capitalised, categoryName, formatShare, formatUsd, words } from "./report-format.js";
import { byLevelDesc, levelCell } from "./report-risk-level.js";

/** The rule as the interface's codes, then its thresholds ("any" when the rule has none). */
export function ruleText(rule: RiskRuleResponse): Content {
  const minValue = rule.min_value_in_fiat === null ? "any" : formatUsd(rule.min_value_in_fiat);
  const minShare = rule.min_value_share === null ? "any" : formatShare(rule.min_value_share);
  return {
    stack: [
      { text: `${rule.rule_type} / ${rule.rule_sub_type} / ${rule.entity_category}`, bold: true },
      { text: `min value ${minValue}; min share ${minShare}` },
    ],
  };
}

/** "2 severe, 1 high" from the levels of the rows. */
export function levelCounts(rows: ReadonlyArray<{ risk_level: RuleRiskLevel }>): string {
  const counts = new Map<RuleRiskLevel, number>();
  for (const r of [...rows].sort(byLevelDesc)) counts.set(r.risk_level, (counts.get(r.risk_level) ?? 0) + 1);
  return [...counts.entries()].map(([level, n]) => `${n} ${level}`).join(", ");
}

function row(r: RiskResponse, index: number): TableCell[] {
  return [
    { text: String(index + 1), alignment: "right" },
    levelCell(r.risk_level),
    { text: capitalised(words(r.risk_type)) },
    {
      text: [
        { text: categoryName(r.entity_category), bold: true },
        ` (${r.proximity})`,
        ...(r.entity_name ? [`\n${r.entity_name}`] : []),
      ],
    },
    { text: formatUsd(r.value_in_fiat), alignment: "right" },
    { text: formatShare(r.value_share), alignment: "right" },
    ruleText(r.rule),
  ];
}

/** The risks section, highest level first; `computed` is false while no check has produced risks. */
export function risksSection(risks: ReadonlyArray<RiskResponse>, computed: boolean): Content[] {
  if (risks.length === 0) {
    const why = computed
      ? "No rule of the risk model fired: no risk was detected."
      : "No risk is computed yet: the checks have not finished.";
    return [section("Risks", [paragraph(why)])];
  }
  const count = risks.length === 1 ? "1 risk" : `${risks.length} risks`;
  return [
    section("Risks", [paragraph(`${count} detected (${levelCounts(risks)}), highest level first.`)]),
    ruledTable(
      [
        { title: "#", width: 14, right: true },
        { title: "Level", width: 38 },
        { title: "Risk type", width: 62 },
        { title: "Category (proximity), entity", width: "*" },
        { title: "Value", width: 58, right: true },
        { title: "Share", width: 30, right: true },
        { title: "Rule that fired: type / sub type / category", width: 150 },
      ],
      [...risks].sort(byLevelDesc).map(row),
    ),
  ];
}
