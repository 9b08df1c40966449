import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { riskRank } from "../../src/domain/enums.js";
import type { FiredRisk } from "../../src/domain/records.js";
import { DEFAULT_RISK_MODEL } from "../../src/risk/default-risk-model.js";
import { evaluateRisks } from "../../src/risk/evaluate-risks.js";
import { collapseRisks } from "../../src/risk/risk-collapse.js";

const key = (r: FiredRisk) => `${r.riskType}|${r.entityCategory}|${r.proximity}`;

/** Fired risks of a counterparty that is sanctioned, and an exposure with sanctions at `share`. */
function firedFor(share: number): FiredRisk[] {
  return evaluateRisks({
    model: DEFAULT_RISK_MODEL,
    direction: "incoming",
    isAttempt: false,
    transferValue: 1_000,
    exposure: {
      direct: null,
      shares: [
        {
          category: "sanctions",
          proximity: "indirect",
          share,
          valueInFiat: 1_000 * share,
          entityNames: [],
          minHops: 2,
          path: [],
        },
        {
          category: "undefined",
          proximity: "indirect",
          share: 1 - share,
          valueInFiat: 1_000 * (1 - share),
          entityNames: [],
          minHops: 5,
          path: [],
        },
      ],
      truncated: false,
      edgesRead: 3,
      hops: 2,
    },
    counterparty: { address: "0x1", entity: { name: "Bad", category: "sanctions" }, exposure: null },
    sanctions: {
      address: "0x1",
      hit: true,
      listings: [
        {
          network: "ETH",
          address: "0x1",
          listName: "OFAC",
          program: null,
          entity: "Bad",
          listedAt: null,
          delistedAt: null,
        },
      ],
    },
  });
}

describe("collapseRisks", () => {
  it("keeps one risk per finding: the strongest tier, and the sanctions check's over the counterparty's", () => {
    const fired = firedFor(0.4);
    expect(fired.filter((r) => r.riskType === "origin_of_funds").map((r) => r.riskLevel)).toEqual([
      "severe",
      "high",
    ]);
    const kept = collapseRisks(fired);
    expect(kept.filter((r) => r.riskType === "origin_of_funds").map((r) => r.riskLevel)).toEqual(["severe"]);
    const entity = kept.filter((r) => r.riskType === "sender_entity");
    expect(entity).toHaveLength(1);
    expect(entity[0]?.checkKind).toBe("sanctions");
  });

  it("keeps the highest level of every finding, whatever the input order", () => {
    fc.assert(
      fc.property(fc.double({ min: 0, max: 1, noNaN: true }), fc.infiniteStream(fc.nat()), (share, seeds) => {
        const fired = firedFor(share);
        const shuffled = [...fired].sort(() => (seeds.next().value % 3) - 1);
        const kept = collapseRisks(shuffled);
        expect(kept).toEqual(collapseRisks(fired));
        expect(new Set(kept.map(key)).size).toBe(kept.length);
        for (const risk of kept) {
          const max = Math.max(
            ...fired.filter((r) => key(r) === key(risk)).map((r) => riskRank(r.riskLevel)),
          );
          expect(riskRank(risk.riskLevel)).toBe(max);
        }
      }),
      { numRuns: 300 },
    );
  });
});
