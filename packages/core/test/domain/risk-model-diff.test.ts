import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { type DiffRule, diffRiskModelRules, isEmptyDiff } from "../../src/domain/risk-model-diff.js";

const rule = (over: Partial<DiffRule> = {}): DiffRule => ({
  rule_type: "entity",
  rule_sub_type: "direct",
  entity_category: "mixer",
  min_value_in_fiat: null,
  min_value_share: null,
  risk_level: "high",
  ...over,
});

const ruleArb: fc.Arbitrary<DiffRule> = fc.record({
  rule_type: fc.constantFrom("entity", "exposure"),
  rule_sub_type: fc.constantFrom("direct", "indirect"),
  entity_category: fc.constantFrom("mixer", "sanctions", "exchange"),
  min_value_in_fiat: fc.constantFrom(null, 0, 100),
  min_value_share: fc.constantFrom(null, 0.1),
  risk_level: fc.constantFrom("low", "high", "severe"),
});

describe("diffRiskModelRules", () => {
  it("names added, removed and changed rules by their 1-based numbers", () => {
    const before = [
      rule(),
      rule({ entity_category: "sanctions", risk_level: "severe" }),
      rule({ entity_category: "gambling" }),
    ];
    const after = [
      rule({ entity_category: "sanctions", risk_level: "severe" }),
      rule({ min_value_in_fiat: 100 }),
      rule({ entity_category: "scam" }),
    ];
    const diff = diffRiskModelRules(before, after);
    expect(diff.unchanged).toBe(1);
    expect(diff.changed).toEqual([
      { number: 2, previousNumber: 1, before: before[0], after: after[1], fields: ["min_value_in_fiat"] },
    ]);
    expect(diff.added).toEqual([{ number: 3, rule: after[2] }]);
    expect(diff.removed).toEqual([{ number: 3, rule: before[2] }]);
  });

  it("a level change is a change of that one field", () => {
    const diff = diffRiskModelRules([rule()], [rule({ risk_level: "low" })]);
    expect(diff.changed.map((c) => c.fields)).toEqual([["risk_level"]]);
  });

  it("counts every rule of both sides once; a version against itself or reordered is empty", () => {
    // Valid models never hold two rules equal but for their level (validation refuses them).
    const model = fc.uniqueArray(ruleArb, {
      maxLength: 12,
      selector: (r) =>
        [r.rule_type, r.rule_sub_type, r.entity_category, r.min_value_in_fiat, r.min_value_share].join(),
    });
    fc.assert(
      fc.property(
        fc.array(ruleArb, { maxLength: 12 }),
        fc.array(ruleArb, { maxLength: 12 }),
        model,
        (a, b, m) => {
          const d = diffRiskModelRules(a, b);
          expect(d.added.length + d.changed.length + d.unchanged).toBe(b.length);
          expect(d.removed.length + d.changed.length + d.unchanged).toBe(a.length);
          expect(isEmptyDiff(diffRiskModelRules(a, a))).toBe(true);
          expect(isEmptyDiff(diffRiskModelRules(m, [...m].reverse()))).toBe(true);
        },
      ),
    );
  });
});
