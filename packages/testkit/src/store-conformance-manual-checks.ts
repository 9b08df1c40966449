/** Conformance of the manual check members. */
import { describe, expect, it } from "vitest";
import { type ConformanceContext, expectKytError, idsOf } from "./store-conformance.js";
import { makeExposure, makeManualCheck, BASE_TIME as T0 } from "./store-factories.js";

/** Registers the manual check tests. */
export function manualCheckConformance(ctx: ConformanceContext): void {
  describe("manual checks", () => {
    it("inserts and gets a manual check with every field intact", async () => {
      const check = makeManualCheck({
        checkType: "deposit",
        txHash: "0xabc",
        outputAddress: "0xout",
        direction: "incoming",
        address: null,
        txStatus: "bound",
        occurredAt: T0 - 10,
        inputAddress: "0xin",
        counterpartyAddress: "0xin",
        amount: 2.5,
        valueInFiat: 5000.5,
        riskLevel: "medium",
        riskScore: 0.5,
        exposure: makeExposure(),
        counterparty: { address: "0xin", entity: null, exposure: makeExposure({ truncated: true }) },
        sanctions: {
          address: "0xin",
          hit: true,
          listings: [
            {
              network: "ETH",
              address: "0xin",
              listName: "OFAC SDN",
              program: "CYBER2",
              entity: "Someone",
              listedAt: null,
              delistedAt: null,
            },
          ],
        },
      });
      await ctx.store().insertManualCheck(check);
      expect(await ctx.store().getManualCheck(check.id)).toEqual(check);
      expect(await ctx.store().getManualCheck("unknown")).toBeNull();
    });

    it("refuses a duplicate id with CONFLICT and an unknown update with NOT_FOUND", async () => {
      const check = makeManualCheck({ checkStatus: "checking", checkedAt: null });
      await ctx.store().insertManualCheck(check);
      await expectKytError(ctx.store().insertManualCheck(makeManualCheck({ id: check.id })), "CONFLICT");
      const done = { ...check, checkStatus: "checked" as const, checkedAt: T0 + 5, updatedAt: T0 + 5 };
      await ctx.store().updateManualCheck(done);
      expect(await ctx.store().getManualCheck(check.id)).toEqual(done);
      await expectKytError(ctx.store().updateManualCheck(makeManualCheck()), "NOT_FOUND");
    });

    it("lists an account's checks newest first, ties by id descending, paged", async () => {
      const rows = [
        makeManualCheck({ id: "m-1", createdAt: T0 + 1 }),
        makeManualCheck({ id: "m-3", createdAt: T0 + 2 }),
        makeManualCheck({ id: "m-2", createdAt: T0 + 2 }),
        makeManualCheck({ id: "m-4", createdAt: T0 + 3 }),
        makeManualCheck({ id: "m-x", accountId: "acct-2", createdAt: T0 + 9 }),
      ];
      for (const row of rows) await ctx.store().insertManualCheck(row);
      const all = await ctx.store().listManualChecks("acct-1", { page: 1, pageSize: 10 });
      expect([idsOf(all.items), all.total]).toEqual([["m-4", "m-3", "m-2", "m-1"], 4]);
      const second = await ctx.store().listManualChecks("acct-1", { page: 2, pageSize: 3 });
      expect([idsOf(second.items), second.total]).toEqual([["m-1"], 4]);
      expect(await ctx.store().listManualChecks("acct-1", { page: 5, pageSize: 3 })).toEqual({
        items: [],
        total: 4,
      });
      const other = await ctx.store().listManualChecks("acct-2", { page: 1, pageSize: 10 });
      expect(idsOf(other.items)).toEqual(["m-x"]);
    });
  });
}
