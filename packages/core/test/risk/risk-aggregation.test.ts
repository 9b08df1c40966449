import { describe, expect, it } from "vitest";
import { RISK_LEVELS, RISK_SCORES, type RuleRiskLevel, riskRank } from "../../src/domain/enums.js";
import { aggregateRisk } from "../../src/risk/risk-aggregation.js";

describe("aggregateRisk", () => {
  it("is undefined with a null score before any check finished", () => {
    expect(aggregateRisk([], false)).toEqual({ riskLevel: "undefined", riskScore: null });
  });
  it("is none with score 0 when a check finished and nothing fired", () => {
    expect(aggregateRisk([], true)).toEqual({ riskLevel: "none", riskScore: 0 });
  });
  it.each([
    [["low"], "low", 0.25],
    [["low", "medium"], "medium", 0.5],
    [["medium", "high", "low"], "high", 0.75],
    [["severe", "low", "high"], "severe", 1],
  ] as const)("takes the highest of %j", (levels, level, score) => {
    expect(
      aggregateRisk(
        levels.map((riskLevel) => ({ riskLevel })),
        true,
      ),
    ).toEqual({ riskLevel: level, riskScore: score });
  });
});

describe("aggregateRisk over every pair of levels", () => {
  it("keeps the level riskRank ranks higher, with its score, frozen", () => {
    for (const a of RISK_LEVELS) {
      for (const b of RISK_LEVELS) {
        const levels = [{ riskLevel: a }, { riskLevel: b }] as unknown as { riskLevel: RuleRiskLevel }[];
        const highest = riskRank(a) >= riskRank(b) ? a : b;
        const result = aggregateRisk(levels, false);
        expect(result).toEqual({ riskLevel: highest, riskScore: RISK_SCORES[highest] });
        expect(Object.isFrozen(result)).toBe(true);
      }
    }
  });

  it("ignores a value that is not a level", () => {
    const odd = [{ riskLevel: "extreme" }] as unknown as { riskLevel: RuleRiskLevel }[];
    expect(aggregateRisk(odd, true)).toEqual({ riskLevel: "none", riskScore: 0 });
  });
});
