/** Conformance of the risk model and API key members. */
import type { RiskModel } from "@openkyt/core";
import { describe, expect, it } from "vitest";
import { type ConformanceContext, expectKytError, idsOf } from "./store-conformance.js";
import { makeRule, BASE_TIME as T0 } from "./store-factories.js";

/** A model with two rules. */
function model(id: string, version: number): RiskModel {
  return {
    id,
    name: `Model ${id}`,
    version,
    rules: [
      makeRule(),
      makeRule({ ruleType: "entity", entityCategory: "mixer", riskLevel: "medium", minValueInFiat: 100 }),
    ],
  };
}

/** Registers the risk model and API key tests. */
export function keyModelConformance(ctx: ConformanceContext): void {
  describe("risk models", () => {
    it("keeps versions: the newest unless one is asked for", async () => {
      await ctx.store().putRiskModel("acct-1", model("strict", 1));
      await ctx.store().putRiskModel("acct-1", model("strict", 3));
      await ctx.store().putRiskModel("acct-1", model("strict", 2));
      expect(await ctx.store().getRiskModel("acct-1", "strict")).toEqual(model("strict", 3));
      expect(await ctx.store().getRiskModel("acct-1", "strict", 2)).toEqual(model("strict", 2));
      expect(await ctx.store().getRiskModel("acct-1", "strict", 7)).toBeNull();
      expect(await ctx.store().getRiskModel("acct-1", "other")).toBeNull();
    });

    it("refuses the same id and version with CONFLICT and keeps accounts apart", async () => {
      await ctx.store().putRiskModel("acct-1", model("strict", 1));
      await expectKytError(ctx.store().putRiskModel("acct-1", model("strict", 1)), "CONFLICT");
      expect(await ctx.store().getRiskModel("acct-2", "strict")).toBeNull();
      await ctx.store().putRiskModel("acct-2", { ...model("strict", 1), name: "theirs" });
      expect((await ctx.store().getRiskModel("acct-1", "strict"))?.name).toBe("Model strict");
    });

    it("keeps each version's change reason, null when none was given", async () => {
      await ctx.store().putRiskModel("acct-1", model("strict", 1), T0);
      await ctx.store().putRiskModel("acct-1", model("strict", 2), T0 + 1, {
        changeReason: "Mixers from USD 100: fewer false positives",
      });
      const versions = await ctx.store().listRiskModelVersions("acct-1", "strict");
      expect(versions.map((v) => [v.version, v.changeReason])).toEqual([
        [1, null],
        [2, "Mixers from USD 100: fewer false positives"],
      ]);
      const [listed] = await ctx.store().listRiskModels("acct-1");
      expect(listed?.changeReason).toBe("Mixers from USD 100: fewer false positives");
      // The reason is not part of the model a check evaluates.
      expect(await ctx.store().getRiskModel("acct-1", "strict")).toEqual(model("strict", 2));
    });

    it("keeps each version's approval: the version in force skips pending and rejected ones", async () => {
      const s = ctx.store();
      const pending = {
        state: "pending" as const,
        proposedBy: "user:ana@example.com",
        makeDefault: true,
        decidedBy: null,
        decidedAt: null,
        reason: null,
      };
      await s.putRiskModel("acct-1", model("strict", 1), T0);
      await s.putRiskModel("acct-1", model("strict", 2), T0 + 1, { changeReason: "v2", approval: pending });
      await s.putRiskModel("acct-1", model("fresh", 1), T0, { approval: pending });
      // Pending versions check nothing: the version in force is 1; a model whose only version
      // is pending has none.
      expect(await s.getRiskModel("acct-1", "strict")).toEqual(model("strict", 1));
      expect(await s.getRiskModel("acct-1", "strict", 2)).toEqual(model("strict", 2));
      expect(await s.getRiskModel("acct-1", "fresh")).toBeNull();
      // The list shows the newest version, pending too, with its approval.
      const listed = await s.listRiskModels("acct-1");
      expect(listed.map((m) => [m.id, m.version, m.approval?.state ?? null])).toEqual([
        ["fresh", 1, "pending"],
        ["strict", 2, "pending"],
      ]);
      const versions = await s.listRiskModelVersions("acct-1", "strict");
      expect(versions.map((v) => v.approval)).toEqual([null, pending]);
      // A decision is compare-and-set from pending.
      const approved = {
        ...pending,
        state: "approved" as const,
        decidedBy: "user:bo@example.com",
        decidedAt: T0 + 5,
        reason: null,
      };
      expect(await s.decideRiskModelVersion("acct-1", "strict", 2, approved)).toBe(true);
      expect(await s.decideRiskModelVersion("acct-1", "strict", 2, { ...approved, state: "rejected" })).toBe(
        false,
      );
      expect(await s.decideRiskModelVersion("acct-1", "strict", 1, approved)).toBe(false);
      expect(await s.decideRiskModelVersion("acct-2", "fresh", 1, approved)).toBe(false);
      expect(await s.getRiskModel("acct-1", "strict")).toEqual(model("strict", 2));
      expect((await s.listRiskModelVersions("acct-1", "strict"))[1]?.approval).toEqual(approved);
      // A rejected version never checks: the one before stays in force.
      await s.putRiskModel("acct-1", model("strict", 3), T0 + 6, { approval: pending });
      const rejected = {
        ...pending,
        state: "rejected" as const,
        decidedBy: "user:bo@example.com",
        decidedAt: T0 + 7,
        reason: "too loose",
      };
      expect(await s.decideRiskModelVersion("acct-1", "strict", 3, rejected)).toBe(true);
      expect(await s.getRiskModel("acct-1", "strict")).toEqual(model("strict", 2));
      expect((await s.listRiskModels("acct-1"))[1]?.approval).toEqual(rejected);
      // A deleted model's pending version is decided no more.
      expect(await s.deleteRiskModel("acct-1", "fresh", T0 + 8)).toBe(true);
      expect(await s.decideRiskModelVersion("acct-1", "fresh", 1, approved)).toBe(false);
    });
  });

  describe("api keys", () => {
    const key = (id: string, accountId: string, createdAt: number) => ({
      id,
      accountId,
      secret: `enc:${id}`,
      createdAt,
      revokedAt: null,
    });

    it("puts, gets and lists an account's keys oldest first", async () => {
      await ctx.store().putApiKey(key("k-2", "acct-1", T0 + 2));
      await ctx.store().putApiKey(key("k-1", "acct-1", T0 + 1));
      await ctx.store().putApiKey(key("k-9", "acct-2", T0));
      expect(await ctx.store().getApiKey("k-1")).toEqual(key("k-1", "acct-1", T0 + 1));
      expect(await ctx.store().getApiKey("unknown")).toBeNull();
      expect(idsOf(await ctx.store().listApiKeys("acct-1"))).toEqual(["k-1", "k-2"]);
      expect(idsOf(await ctx.store().listApiKeys("acct-3"))).toEqual([]);
      await expectKytError(ctx.store().putApiKey(key("k-1", "acct-1", T0)), "CONFLICT");
    });

    it("revokes a key once; revoked keys are still returned", async () => {
      await ctx.store().putApiKey(key("k-1", "acct-1", T0));
      expect(await ctx.store().revokeApiKey("k-1", T0 + 50)).toBe(true);
      expect(await ctx.store().revokeApiKey("k-1", T0 + 60)).toBe(false);
      expect(await ctx.store().revokeApiKey("unknown", T0)).toBe(false);
      expect(await ctx.store().getApiKey("k-1")).toEqual({ ...key("k-1", "acct-1", T0), revokedAt: T0 + 50 });
      expect(await ctx.store().listApiKeys("acct-1")).toHaveLength(1);
    });
  });
}
