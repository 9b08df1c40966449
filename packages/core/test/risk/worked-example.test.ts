import { expect, it } from "vitest";
import { traceTransferExposure } from "../../src/exposure/transfer-exposure.js";
import { DEFAULT_RISK_MODEL } from "../../src/risk/default-risk-model.js";
import { evaluateRisks } from "../../src/risk/evaluate-risks.js";
import { aggregateRisk } from "../../src/risk/risk-aggregation.js";
import { attr, ledgerOf, resolverOf, tr } from "../exposure/trace-fixtures.js";

it("reproduces the worked example of docs/risk-model.md end to end", async () => {
  const exposure = await traceTransferExposure({
    ledger: ledgerOf([
      tr("x", "s", 70, 500),
      tr("y", "s", 30, 600),
      tr("m", "y", 25, 400),
      tr("d", "y", 75, 300),
      tr("z", "y", 999, 700),
      tr("q", "s", 999, 1000),
    ]),
    resolver: resolverOf([
      attr("x", "exchange", "Binance"),
      attr("m", "mixer", "Tornado"),
      attr("d", "darknet_market", "Hydra"),
      attr("z", "scam"),
      attr("q", "scam"),
    ]),
    network: "ETH",
    tokenId: "native",
    direction: "incoming",
    counterparty: "s",
    at: 1000,
    value: 1000,
    span: { from: 1000, to: 2000 },
  });
  const fired = evaluateRisks({
    model: DEFAULT_RISK_MODEL,
    direction: "incoming",
    isAttempt: false,
    transferValue: 1000,
    exposure,
  });
  expect(
    fired.map((r) => [
      r.riskType,
      r.riskLevel,
      r.entityCategory,
      r.entityName,
      r.rule.minValueShare,
      r.rule.minValueInFiat,
    ]),
  ).toEqual([
    ["origin_of_funds", "high", "darknet_market", "Hydra", 0.2, 100],
    ["origin_of_funds", "medium", "darknet_market", "Hydra", 0.05, null],
  ]);
  expect(aggregateRisk(fired, true)).toEqual({ riskLevel: "high", riskScore: 0.75 });
});
