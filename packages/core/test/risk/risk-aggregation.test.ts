import { describe, expect, it } from "vitest";
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
