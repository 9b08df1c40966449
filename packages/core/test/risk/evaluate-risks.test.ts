import { describe, expect, it } from "vitest";
import type {
  CounterpartyResult,
  ExposureResult,
  ExposureShare,
  RiskModel,
  RiskRule,
} from "../../src/domain/records.js";
import { DEFAULT_RISK_MODEL } from "../../src/risk/default-risk-model.js";
import { evaluateRisks } from "../../src/risk/evaluate-risks.js";

function share(
  category: string,
  value: number,
  proximity: "direct" | "indirect",
  valueInFiat: number | null,
): ExposureShare {
  return {
    category,
    share: value,
    proximity,
    valueInFiat,
    entityNames: [`${category} co`],
    minHops: 2,
    path: ["s", "x"],
  };
}

function exposure(shares: ExposureShare[]): ExposureResult {
  return { direct: null, shares, truncated: false, edgesRead: 3, hops: 2 };
}

const base = {
  model: DEFAULT_RISK_MODEL,
  direction: "incoming" as const,
  isAttempt: false,
  transferValue: 1000,
};
const brief = (r: { riskType: string; riskLevel: string; entityCategory: string; rule: RiskRule }) =>
  `${r.riskType} ${r.riskLevel} ${r.entityCategory} ${r.rule.ruleType}/${r.rule.ruleSubType} ${r.rule.minValueShare}/${r.rule.minValueInFiat}`;

describe("evaluateRisks with the default model", () => {
  it("fires the indirect tiers on an origin-of-funds exposure", () => {
    const fired = evaluateRisks({
      ...base,
      exposure: exposure([
        share("sanctions", 0.2, "indirect", 200),
        share("mixer", 0.3, "indirect", 300),
        share("exchange", 0.45, "indirect", 450),
        share("undefined", 0.05, "indirect", 50),
      ]),
    });
    expect(fired.map(brief)).toEqual([
      "origin_of_funds severe sanctions origin_of_funds/indirect 0.2/10",
      "origin_of_funds high sanctions origin_of_funds/indirect 0.01/null",
      "origin_of_funds low mixer origin_of_funds/indirect 0.2/null",
    ]);
    expect(fired[0]).toMatchObject({
      checkKind: "exposure",
      entityName: "sanctions co",
      proximity: "indirect",
      valueInFiat: 200,
      valueShare: 0.2,
    });
  });

  it("needs the fiat threshold to be reached by a known value", () => {
    const small = evaluateRisks({ ...base, exposure: exposure([share("sanctions", 0.5, "indirect", 9.99)]) });
    expect(small.map((r) => r.riskLevel)).toEqual(["high"]);
    const unknown = evaluateRisks({
      ...base,
      exposure: exposure([share("sanctions", 0.5, "indirect", null)]),
    });
    expect(unknown.map((r) => r.riskLevel)).toEqual(["high"]);
  });

  it("uses destination-of-funds rules for outgoing transfers and direct rules for a direct interaction", () => {
    const fired = evaluateRisks({
      ...base,
      direction: "outgoing",
      exposure: {
        ...exposure([share("darknet_market", 1, "direct", 1000)]),
        direct: { name: "Hydra", category: "darknet_market", valueInFiat: 1000 },
      },
    });
    expect(fired.map(brief)).toEqual([
      "destination_of_funds high darknet_market destination_of_funds/direct null/null",
    ]);
  });

  it("matches an identified counterparty with entity rules, attempts getting attempt_ types", () => {
    const counterparty: CounterpartyResult = {
      address: "s",
      entity: { name: "Tornado", category: "mixer" },
      exposure: null,
    };
    const fired = evaluateRisks({ ...base, counterparty });
    expect(fired).toEqual([
      {
        checkKind: "counterparty",
        riskType: "sender_entity",
        riskLevel: "medium",
        entityCategory: "mixer",
        entityName: "Tornado",
        proximity: "direct",
        valueInFiat: 1000,
        valueShare: 1,
        rule: {
          ruleType: "entity",
          ruleSubType: "direct",
          entityCategory: "mixer",
          minValueInFiat: null,
          minValueShare: null,
          riskLevel: "medium",
        },
      },
    ]);
    const attempt = evaluateRisks({ ...base, direction: "outgoing", isAttempt: true, counterparty });
    expect(attempt.map((r) => r.riskType)).toEqual(["attempt_recipient_entity"]);
  });

  it("matches a counterparty's exposure with address_exposure rules, without fiat values", () => {
    const counterparty: CounterpartyResult = {
      address: "s",
      entity: null,
      exposure: exposure([
        share("stolen_funds", 0.12, "indirect", null),
        share("gambling", 0.04, "direct", null),
        share("exchange", 0.84, "direct", null),
      ]),
    };
    const fired = evaluateRisks({ ...base, isAttempt: true, counterparty });
    expect(
      fired.map((r) => [r.riskType, r.riskLevel, r.entityCategory, r.valueInFiat, r.valueShare]),
    ).toEqual([
      ["attempt_sender_exposure", "high", "stolen_funds", null, 0.12],
      ["attempt_sender_exposure", "medium", "stolen_funds", null, 0.12],
    ]);
  });

  it("treats a sanctions hit as a direct interaction with category sanctions", () => {
    const fired = evaluateRisks({
      ...base,
      direction: "outgoing",
      transferValue: null,
      sanctions: {
        address: "s",
        hit: true,
        listings: [
          {
            network: "ETH",
            address: "s",
            listName: "OFAC SDN",
            program: null,
            entity: null,
            listedAt: null,
            delistedAt: null,
          },
        ],
      },
    });
    expect(
      fired.map((r) => [r.checkKind, r.riskType, r.riskLevel, r.entityName, r.valueInFiat, r.valueShare]),
    ).toEqual([["sanctions", "recipient_entity", "severe", "OFAC SDN", null, 1]]);
    expect(evaluateRisks({ ...base, sanctions: { address: "s", hit: false, listings: [] } })).toEqual([]);
  });

  it("lets a rule fire on `undefined` only when it names it, and accepts both proximities with `all`", () => {
    const model: RiskModel = {
      id: "m",
      name: "m",
      version: 1,
      rules: [
        {
          ruleType: "origin_of_funds",
          ruleSubType: "all",
          entityCategory: "undefined",
          minValueShare: 0.5,
          minValueInFiat: null,
          riskLevel: "low",
        },
        {
          ruleType: "origin_of_funds",
          ruleSubType: "direct",
          entityCategory: "exchange",
          minValueShare: null,
          minValueInFiat: null,
          riskLevel: "low",
        },
      ],
    };
    const fired = evaluateRisks({
      ...base,
      model,
      exposure: exposure([share("undefined", 0.6, "indirect", 600), share("exchange", 0.4, "indirect", 400)]),
    });
    expect(fired.map((r) => r.entityCategory)).toEqual(["undefined"]);
    expect(evaluateRisks({ ...base, exposure: exposure([share("undefined", 1, "indirect", 1000)]) })).toEqual(
      [],
    );
  });

  it("lets a share a hair below a threshold through float drift reach it", () => {
    const fired = evaluateRisks({
      ...base,
      exposure: exposure([share("sanctions", 0.19999999999999998, "indirect", 10)]),
    });
    expect(fired.map((r) => r.riskLevel)).toEqual(["severe", "high"]);
  });
});
