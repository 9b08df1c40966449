import { describe, expect, it } from "vitest";
import type { RiskModel, RiskRule } from "../../src/domain/records.js";
import { DEFAULT_RISK_MODEL } from "../../src/risk/default-risk-model.js";
import { validateRiskModel } from "../../src/risk/risk-model-validation.js";

const rule: RiskRule = {
  ruleType: "origin_of_funds",
  ruleSubType: "indirect",
  entityCategory: "mixer",
  minValueShare: 0.1,
  minValueInFiat: 10,
  riskLevel: "medium",
};

describe("validateRiskModel", () => {
  it("accepts the default model", () => {
    expect(validateRiskModel(DEFAULT_RISK_MODEL)).toEqual({});
  });

  it("names every problem by field", () => {
    const model = {
      id: "",
      name: "x",
      version: 0,
      rules: [
        rule,
        { ...rule, riskLevel: "high" },
        { ...rule, entityCategory: "casino", minValueShare: 1.5, minValueInFiat: -1 },
        { ...rule, ruleType: "vibes", ruleSubType: "sideways", riskLevel: "extreme" },
        { ...rule, ruleType: "entity", ruleSubType: "indirect" },
      ],
    } as unknown as RiskModel;
    expect(validateRiskModel(model)).toEqual({
      id: ["must be a non-empty string"],
      version: ["must be an integer >= 1"],
      "rules[1]": ["duplicates rule 1 (same type, sub type, category and thresholds)"],
      "rules[2].entityCategory": ["unknown entity category casino"],
      "rules[2].minValueShare": ["must be null or a number in [0, 1]"],
      "rules[2].minValueInFiat": ["must be null or a non-negative number"],
      "rules[3].ruleType": ["unknown rule type vibes"],
      "rules[3].ruleSubType": ["unknown rule sub type sideways"],
      "rules[3].riskLevel": ["unknown risk level extreme"],
      "rules[4].ruleSubType": ["an entity rule looks at the counterparty itself: use direct or all"],
    });
  });
});
