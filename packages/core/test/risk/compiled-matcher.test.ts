import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ENTITY_CATEGORY_CODES } from "../../src/domain/entity-categories.js";
import { RULE_RISK_LEVELS, RULE_SUB_TYPES, RULE_TYPES } from "../../src/domain/enums.js";
import type { ExposureResult, ExposureShare, RiskModel, RiskRule } from "../../src/domain/records.js";
import { DEFAULT_RISK_MODEL } from "../../src/risk/default-risk-model.js";
import { evaluateRisks, type RiskEvaluationInput } from "../../src/risk/evaluate-risks.js";
import { referenceEvaluateRisks } from "./reference-risk-evaluation.js";

/** Known codes and strings no table knows (upper case and empty sort before lower case). */
const CATEGORIES = ["sanctions", "mixer", "exchange", "undefined", "Zeta", "", "zz_custom"];

/** Shares and thresholds drawn from a few values, so equal values and the float-drift edge occur. */
const shareValue = fc.oneof(
  fc.constantFrom(0, 0.01, 0.2, 0.19999999999999998, 0.5, 1),
  fc.double({ min: 0, max: 1, noNaN: true }),
);
const fiatValue = fc.oneof(fc.constantFrom(0, 10, 100), fc.double({ min: 0, max: 2000, noNaN: true }));

const ruleArb: fc.Arbitrary<RiskRule> = fc
  .record({
    ruleType: fc.constantFrom(...RULE_TYPES),
    ruleSubType: fc.constantFrom(...RULE_SUB_TYPES),
    entityCategory: fc.constantFrom(...CATEGORIES),
    minValueShare: fc.option(shareValue, { nil: null }),
    minValueInFiat: fc.option(fiatValue, { nil: null }),
    riskLevel: fc.constantFrom(...RULE_RISK_LEVELS),
  })
  .chain((rule) => fc.boolean().map((frozen) => (frozen ? Object.freeze(rule) : rule)));

/** Rules, some of them repeated (the same object, or an equal copy at another level). */
const rulesArb = (maxLength: number) =>
  fc.array(ruleArb, { maxLength, size: "max" }).chain((rules) =>
    fc
      .array(fc.tuple(fc.nat(), fc.option(fc.constantFrom(...RULE_RISK_LEVELS), { nil: null })), {
        maxLength: 3,
      })
      .map((repeats) => {
        const out = [...rules];
        for (const [at, level] of repeats) {
          const rule = rules[at % Math.max(1, rules.length)];
          if (rule) out.push(level === null ? rule : { ...rule, riskLevel: level });
        }
        return out;
      }),
  );

const shareArb = (categories: ReadonlyArray<string>): fc.Arbitrary<ExposureShare> =>
  fc.record({
    category: fc.constantFrom(...categories),
    proximity: fc.constantFrom("direct" as const, "indirect" as const),
    share: shareValue,
    valueInFiat: fc.option(fiatValue, { nil: null }),
    entityNames: fc.array(fc.constantFrom("A", "B"), { maxLength: 2 }),
    minHops: fc.integer({ min: 1, max: 5 }),
    path: fc.constant(["s"]),
  });

/** Shares may repeat a category (and a proximity), so fired risks can tie on every sort key. */
const exposureArb = (categories: ReadonlyArray<string>, maxLength: number): fc.Arbitrary<ExposureResult> =>
  fc.record({
    direct: fc.constant(null),
    shares: fc.array(shareArb(categories), { maxLength, size: "max" }),
    truncated: fc.boolean(),
    edgesRead: fc.nat(),
    hops: fc.nat(),
  });

const resultsArb = (categories: ReadonlyArray<string>, maxShares: number) =>
  fc.record({
    direction: fc.constantFrom("incoming" as const, "outgoing" as const),
    isAttempt: fc.boolean(),
    transferValue: fc.option(fiatValue, { nil: null }),
    exposure: fc.option(exposureArb(categories, maxShares), { nil: null }),
    counterparty: fc.option(
      fc.oneof(
        fc.record({
          address: fc.constant("s"),
          entity: fc.record({ name: fc.constant("E"), category: fc.constantFrom(...categories) }),
          exposure: fc.constant(null),
        }),
        fc.record({
          address: fc.constant("s"),
          entity: fc.constant(null),
          exposure: exposureArb(categories, maxShares),
        }),
      ),
      { nil: null },
    ),
    sanctions: fc.option(
      fc.record({
        address: fc.constant("s"),
        hit: fc.boolean(),
        listings: fc.array(
          fc.record({
            network: fc.constant("ETH"),
            address: fc.constant("s"),
            listName: fc.constant("L"),
            program: fc.constant(null),
            entity: fc.option(fc.constant("Sanctioned Co"), { nil: null }),
            listedAt: fc.constant(null),
            delistedAt: fc.constant(null),
          }),
          { maxLength: 2 },
        ),
      }),
      { nil: null },
    ),
  });

const modelOf = (rules: RiskRule[]): RiskModel => ({ id: "m", name: "m", version: 1, rules });

/** Same risks, same order, same fields in the same order, same rule objects, all frozen. */
function expectSameAsReference(input: RiskEvaluationInput): void {
  const expected = referenceEvaluateRisks(input);
  const actual = evaluateRisks(input);
  expect(actual).toEqual(expected);
  expect(JSON.stringify(actual)).toBe(JSON.stringify(expected));
  actual.forEach((risk, i) => {
    expect(Object.isFrozen(risk)).toBe(true);
    expect(Object.isFrozen(risk.rule)).toBe(true);
    const rule = expected[i]!.rule;
    if (input.model.rules.includes(rule)) expect(risk.rule).toBe(rule);
  });
}

describe("the compiled matcher", () => {
  it("gives the reference matcher's risks, in its order, on random models and check results", () => {
    fc.assert(
      fc.property(resultsArb(CATEGORIES, 6), rulesArb(20), (results, rules) => {
        expectSameAsReference({ ...results, model: modelOf(rules) });
      }),
      { numRuns: 1000 },
    );
  });

  it("agrees with the reference when many risks fire (past the insertion-sort size)", () => {
    const few = ["sanctions", "mixer", "Zeta"];
    fc.assert(
      fc.property(resultsArb(few, 30), rulesArb(60), (results, rules) => {
        expectSameAsReference({ ...results, model: modelOf(rules) });
      }),
      { numRuns: 200 },
    );
  });

  it("agrees with the reference on the default model over every category", () => {
    fc.assert(
      fc.property(resultsArb(ENTITY_CATEGORY_CODES, 20), (results) => {
        expectSameAsReference({ ...results, model: DEFAULT_RISK_MODEL });
      }),
      { numRuns: 500 },
    );
  });

  it("gives the same risks when the same model object is evaluated again (compiled once)", () => {
    const model = modelOf([
      {
        ruleType: "origin_of_funds",
        ruleSubType: "all",
        entityCategory: "mixer",
        minValueShare: 0.1,
        minValueInFiat: null,
        riskLevel: "high",
      },
    ]);
    const input: RiskEvaluationInput = {
      model,
      direction: "incoming",
      isAttempt: false,
      transferValue: 100,
      exposure: {
        direct: null,
        shares: [
          {
            category: "mixer",
            proximity: "direct",
            share: 0.5,
            valueInFiat: 50,
            entityNames: [],
            minHops: 1,
            path: [],
          },
        ],
        truncated: false,
        edgesRead: 1,
        hops: 1,
      },
    };
    const first = evaluateRisks(input);
    expect(first.map((r) => r.riskLevel)).toEqual(["high"]);
    expect(evaluateRisks(input)).toEqual(first);
    expect(evaluateRisks({ ...input, model: modelOf([]) })).toEqual([]);
  });
});
