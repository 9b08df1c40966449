import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  RISK_SCORES,
  RULE_RISK_LEVELS,
  RULE_SUB_TYPES,
  RULE_TYPES,
  riskRank,
} from "../../src/domain/enums.js";
import type { ExposureResult, RiskModel, RiskRule } from "../../src/domain/records.js";
import { evaluateRisks, type RiskEvaluationInput } from "../../src/risk/evaluate-risks.js";
import { aggregateRisk } from "../../src/risk/risk-aggregation.js";

const CATEGORIES = ["sanctions", "mixer", "exchange", "undefined"];

const threshold = fc.option(fc.double({ min: 0, max: 1, noNaN: true }), { nil: null });
const fiat = fc.option(fc.double({ min: 0, max: 2000, noNaN: true }), { nil: null });

const ruleArb: fc.Arbitrary<RiskRule> = fc.record({
  ruleType: fc.constantFrom(...RULE_TYPES),
  ruleSubType: fc.constantFrom(...RULE_SUB_TYPES),
  entityCategory: fc.constantFrom(...CATEGORIES),
  minValueShare: threshold,
  minValueInFiat: fiat,
  riskLevel: fc.constantFrom(...RULE_RISK_LEVELS),
});

const shareArb = fc.record({
  category: fc.constantFrom(...CATEGORIES),
  proximity: fc.constantFrom("direct" as const, "indirect" as const),
  share: fc.double({ min: 0, max: 1, noNaN: true }),
  valueInFiat: fiat,
  entityNames: fc.constant([] as string[]),
  minHops: fc.integer({ min: 1, max: 5 }),
  path: fc.constant(["s"]),
});

const exposureArb: fc.Arbitrary<ExposureResult> = fc.record({
  direct: fc.constant(null),
  shares: fc.uniqueArray(shareArb, { selector: (s) => s.category, maxLength: 4 }),
  truncated: fc.boolean(),
  edgesRead: fc.nat(),
  hops: fc.nat(),
});

/** Random check results (without the model). */
const resultsArb = fc.record({
  direction: fc.constantFrom("incoming" as const, "outgoing" as const),
  isAttempt: fc.boolean(),
  transferValue: fiat,
  exposure: fc.option(exposureArb, { nil: null }),
  counterparty: fc.option(
    fc.oneof(
      fc.record({
        address: fc.constant("s"),
        entity: fc.record({ name: fc.constant("E"), category: fc.constantFrom(...CATEGORIES) }),
        exposure: fc.constant(null),
      }),
      fc.record({ address: fc.constant("s"), entity: fc.constant(null), exposure: exposureArb }),
    ),
    { nil: null },
  ),
  sanctions: fc.option(
    fc.record({
      address: fc.constant("s"),
      hit: fc.constant(true),
      listings: fc.constant([
        {
          network: "ETH",
          address: "s",
          listName: "L",
          program: null,
          entity: null,
          listedAt: null,
          delistedAt: null,
        },
      ]),
    }),
    { nil: null },
  ),
});

const modelOf = (rules: RiskRule[]): RiskModel => ({ id: "m", name: "m", version: 1, rules });

/** The rule with each threshold raised by a non-negative amount (a null threshold may become a number). */
const raisedArb = (rule: RiskRule) =>
  fc
    .record({
      share: fc.option(fc.double({ min: 0, max: 1, noNaN: true }), { nil: null }),
      fiat: fc.option(fc.double({ min: 0, max: 1000, noNaN: true }), { nil: null }),
    })
    .map(({ share, fiat: extra }) => ({
      ...rule,
      minValueShare: share === null ? rule.minValueShare : Math.min(1, (rule.minValueShare ?? 0) + share),
      minValueInFiat: extra === null ? rule.minValueInFiat : (rule.minValueInFiat ?? 0) + extra,
    }));

const input = (results: Omit<RiskEvaluationInput, "model">, rules: RiskRule[]): RiskEvaluationInput => ({
  ...results,
  model: modelOf(rules),
});

describe("risk properties", () => {
  it("raising min_value_share or min_value_in_fiat never makes more rules fire", () => {
    const arb = fc
      .array(ruleArb, { maxLength: 12 })
      .chain((rules) => fc.tuple(fc.constant(rules), fc.tuple(...rules.map(raisedArb))));
    fc.assert(
      fc.property(resultsArb, arb, (results, [rules, raised]) => {
        rules.forEach((rule, i) => {
          const before = evaluateRisks(input(results, [rule])).length;
          const after = evaluateRisks(input(results, [raised[i]!])).length;
          expect(after).toBeLessThanOrEqual(before);
        });
        expect(evaluateRisks(input(results, raised)).length).toBeLessThanOrEqual(
          evaluateRisks(input(results, rules)).length,
        );
      }),
      { numRuns: 300 },
    );
  });

  it("gives the same risks and the same aggregate whatever the order of the rules and of the risks", () => {
    fc.assert(
      fc.property(
        resultsArb,
        fc.array(ruleArb, { maxLength: 15 }),
        fc.boolean(),
        (results, rules, finished) => {
          const fired = evaluateRisks(input(results, rules));
          const reversed = evaluateRisks(input(results, [...rules].reverse()));
          expect(reversed).toEqual(fired);
          expect(aggregateRisk([...fired].reverse(), finished)).toEqual(aggregateRisk(fired, finished));
          const rotated = fired.length > 1 ? [...fired.slice(1), fired[0]!] : fired;
          expect(aggregateRisk(rotated, finished)).toEqual(aggregateRisk(fired, finished));
        },
      ),
      { numRuns: 300 },
    );
  });

  it("aggregates to the highest fired level, with its score", () => {
    fc.assert(
      fc.property(resultsArb, fc.array(ruleArb, { maxLength: 15 }), (results, rules) => {
        const fired = evaluateRisks(input(results, rules));
        const { riskLevel, riskScore } = aggregateRisk(fired, true);
        if (fired.length === 0) expect(riskLevel).toBe("none");
        else {
          const max = fired.reduce(
            (m, r) => (riskRank(r.riskLevel) > riskRank(m) ? r.riskLevel : m),
            fired[0]!.riskLevel,
          );
          expect(riskLevel).toBe(max);
          expect(riskLevel).toBe(fired[0]!.riskLevel);
        }
        expect(riskScore).toBe(RISK_SCORES[riskLevel]);
      }),
      { numRuns: 300 },
    );
  });

  it("fires only rules of the category, type and proximity observed, each within its thresholds", () => {
    fc.assert(
      fc.property(resultsArb, fc.array(ruleArb, { maxLength: 15 }), (results, rules) => {
        for (const r of evaluateRisks(input(results, rules))) {
          expect(r.rule.entityCategory).toBe(r.entityCategory);
          expect(r.rule.ruleSubType === "all" || r.rule.ruleSubType === r.proximity).toBe(true);
          if (r.rule.minValueInFiat !== null) expect(r.valueInFiat).not.toBeNull();
          if (r.rule.ruleType === "address_exposure") expect(r.valueInFiat).toBeNull();
          expect(Object.isFrozen(r)).toBe(true);
        }
      }),
      { numRuns: 300 },
    );
  });
});
