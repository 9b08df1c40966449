import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { ENTITY_CATEGORIES } from "../../src/domain/entity-categories.js";
import type { RiskRule } from "../../src/domain/records.js";
import { DEFAULT_RISK_MODEL } from "../../src/risk/default-risk-model.js";
import { evaluateRisks } from "../../src/risk/evaluate-risks.js";

/** The cells of one row of the full rule table in docs/risk-model.md. */
function ruleCells(rule: RiskRule): string[] {
  const show = (v: number | null) => (v === null ? "—" : String(v));
  return [
    rule.entityCategory,
    rule.ruleType,
    rule.ruleSubType,
    show(rule.minValueShare),
    show(rule.minValueInFiat),
    rule.riskLevel,
  ];
}

/** The cells of the rows of a markdown table (header and separator rows left out). */
function tableCells(table: string): string[][] {
  return table
    .split("\n")
    .filter((line) => line.startsWith("|"))
    .map((line) =>
      line
        .split("|")
        .slice(1, -1)
        .map((cell) => cell.trim()),
    )
    .filter((cells) => cells[0] !== "category" && !/^-+$/.test(cells[0] ?? ""));
}

const docPath = fileURLToPath(new URL("../../../../docs/risk-model.md", import.meta.url));

describe("DEFAULT_RISK_MODEL", () => {
  it("is the default model, version 1, with 9 rules for each of the 21 risky categories", () => {
    expect(DEFAULT_RISK_MODEL).toMatchObject({ id: "default", name: "OpenKYT default", version: 1 });
    expect(DEFAULT_RISK_MODEL.rules.length).toBe(21 * 9);
    const ruled = new Set(DEFAULT_RISK_MODEL.rules.map((r) => r.entityCategory));
    for (const c of ENTITY_CATEGORIES)
      expect(ruled.has(c.code)).toBe(c.group === "severe" || c.group === "high" || c.group === "medium");
    expect(Object.isFrozen(DEFAULT_RISK_MODEL.rules)).toBe(true);
  });

  it("holds the published example: sanctions, origin of funds, indirect, 0.2 and 10 USD -> severe", () => {
    expect(DEFAULT_RISK_MODEL.rules).toContainEqual({
      ruleType: "origin_of_funds",
      ruleSubType: "indirect",
      entityCategory: "sanctions",
      minValueInFiat: 10,
      minValueShare: 0.2,
      riskLevel: "severe",
    });
  });

  it("raises each risky group's level on the counterparty itself", () => {
    for (const [category, level] of [
      ["terrorist_financing", "severe"],
      ["exchange_sanctioned_us", "high"],
      ["p2p_exchange", "medium"],
    ] as const) {
      const fired = evaluateRisks({
        model: DEFAULT_RISK_MODEL,
        direction: "incoming",
        isAttempt: false,
        transferValue: 1,
        counterparty: { address: "s", entity: { name: "n", category }, exposure: null },
      });
      expect(fired.map((r) => r.riskLevel)).toEqual([level]);
    }
  });

  it("is documented rule by rule in docs/risk-model.md", () => {
    const doc = readFileSync(docPath, "utf8");
    const table = doc.split("<!-- rules:start -->")[1]?.split("<!-- rules:end -->")[0] ?? "";
    expect(tableCells(table)).toEqual(DEFAULT_RISK_MODEL.rules.map(ruleCells));
  });
});
