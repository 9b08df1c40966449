/** Conformance of the transfer members: writes, identity, every list filter, paging, order. */
import type { TransferFilter, TransferRecord } from "@openkyt/core";
import { describe, expect, it } from "vitest";
import { type ConformanceContext, expectKytError, idsOf } from "./store-conformance.js";
import { makeExposure, makeTransfer, BASE_TIME as T0 } from "./store-factories.js";

/** Four transfers of acct-1 (A oldest .. D newest) and one of acct-2 that matches everything A does. */
function listFixture(): Record<"A" | "B" | "C" | "D" | "E", TransferRecord> {
  const A = makeTransfer({
    id: "t-a",
    clientId: "c1",
    direction: "incoming",
    network: "ETH",
    tokenId: "native",
    tokenSymbol: "ETH",
    txHash: "0xhash-a",
    inputAddress: "0xin-1",
    outputAddress: "0xout-1",
    registeredAt: T0 + 1000,
    occurredAt: T0 + 100,
    riskLevel: "none",
    counterpartyName: "Binance",
    counterpartyCategory: "exchange",
  });
  const B = makeTransfer({
    id: "t-b",
    clientId: "c2",
    direction: "outgoing",
    network: "ETH",
    tokenId: "0xdac17f958d2ee523a2206206994597c13d831ec7",
    tokenSymbol: "USDT",
    txHash: "0xhash-b",
    inputAddress: "0xin-2",
    outputAddress: "0xout-2",
    registeredAt: T0 + 2000,
    occurredAt: T0 + 200,
    riskLevel: "high",
    counterpartyName: "Tornado Cash",
    counterpartyCategory: "mixer",
  });
  const C = makeTransfer({
    id: "t-c",
    clientId: "c1",
    direction: "incoming",
    network: "TRX",
    tokenId: "native",
    tokenSymbol: "TRX",
    txHash: "hash-c",
    inputAddress: "TIn3",
    outputAddress: "TOut3",
    registeredAt: T0 + 3000,
    occurredAt: T0 + 300,
    riskLevel: "severe",
    txStatus: "not_found",
  });
  const D = makeTransfer({
    id: "t-d",
    clientId: "c3",
    attemptId: "attempt-d",
    direction: "outgoing",
    network: "BSC",
    tokenId: "native",
    tokenSymbol: "BNB",
    txStatus: "none",
    txHash: null,
    inputAddress: "0xin-1",
    outputAddress: null,
    registeredAt: T0 + 4000,
    occurredAt: null,
    riskLevel: "undefined",
    riskScore: null,
  });
  const E = { ...A, id: "t-e", accountId: "acct-2", txHash: "0xhash-e", registeredAt: T0 + 5000 };
  return { A, B, C, D, E };
}

/** Registers the transfer tests. */
export function transferConformance(ctx: ConformanceContext): void {
  describe("transfers", () => {
    it("inserts and gets a transfer with every field intact", async () => {
      const t = makeTransfer({
        amount: 0.123456789012,
        valueInFiat: 1e-6,
        disableAutoCheck: true,
        riskLevel: "high",
        riskScore: 0.75,
        riskModelId: "default",
        riskModelVersion: "default@3",
        exposure: makeExposure(),
        counterparty: { address: "0xcp", entity: { name: "Binance", category: "exchange" }, exposure: null },
        sanctions: { address: "0xcp", hit: false, listings: [] },
        counterpartyName: "Binance",
        counterpartyCategory: "exchange",
        lastError: "timeout",
        checks: {
          exposure: { state: "checked", at: T0 },
          counterparty: { state: "error", at: T0 + 1 },
          sanctions: { state: "none", at: null },
        },
      });
      await ctx.store().insertTransfer(t);
      expect(await ctx.store().getTransfer(t.id)).toEqual(t);
      expect(await ctx.store().getTransfer("unknown")).toBeNull();
    });

    it("gets a transfer's summary: the transfer without its checks' results", async () => {
      const t = makeTransfer({ exposure: makeExposure(), chainPosition: { block: 12, logIndex: 3 } });
      await ctx.store().insertTransfer(t);
      const { exposure: _e, counterparty: _c, sanctions: _s, ...summary } = t;
      expect(await ctx.store().getTransferSummary(t.id)).toEqual(summary);
      expect(await ctx.store().getTransferSummary("unknown")).toBeNull();
      const checked = { ...t, riskLevel: "high" as const, updatedAt: t.updatedAt + 1 };
      await ctx.store().updateTransfer(checked);
      expect(await ctx.store().getTransferSummary(t.id)).toMatchObject({ riskLevel: "high" });
    });

    it("hands out copies, never its own objects", async () => {
      const t = makeTransfer({ exposure: makeExposure() });
      await ctx.store().insertTransfer(t);
      const first = (await ctx.store().getTransfer(t.id)) as { exposure: { hops: number } };
      first.exposure.hops = 99;
      expect(await ctx.store().getTransfer(t.id)).toEqual(t);
    });

    it("refuses a duplicate id or identity with CONFLICT, but not two attempts without a hash", async () => {
      const t = makeTransfer();
      await ctx.store().insertTransfer(t);
      await expectKytError(ctx.store().insertTransfer(makeTransfer({ id: t.id })), "CONFLICT");
      await expectKytError(ctx.store().insertTransfer({ ...t, id: "other" }), "CONFLICT");
      const attempt = makeTransfer({ txHash: null, outputAddress: "0xsame", txStatus: "none" });
      await ctx.store().insertTransfer(attempt);
      await ctx.store().insertTransfer({ ...attempt, id: "attempt-2" });
      expect(await ctx.store().getTransfer("attempt-2")).not.toBeNull();
      expect(await ctx.store().getTransfer(t.id)).toEqual(t);
    });

    it("updates by id, and refuses an unknown id with NOT_FOUND", async () => {
      const t = makeTransfer({ txStatus: "binding", occurredAt: null });
      await ctx.store().insertTransfer(t);
      const bound = {
        ...t,
        txStatus: "bound" as const,
        occurredAt: T0 - 5,
        riskLevel: "low" as const,
        updatedAt: T0 + 9,
      };
      await ctx.store().updateTransfer(bound);
      expect(await ctx.store().getTransfer(t.id)).toEqual(bound);
      await expectKytError(ctx.store().updateTransfer(makeTransfer()), "NOT_FOUND");
    });

    it("gets several transfers of any account, leaving unknown ids out", async () => {
      const a = makeTransfer();
      const b = makeTransfer({ accountId: "acct-2" });
      await ctx.store().insertTransfer(a);
      await ctx.store().insertTransfer(b);
      const got = await ctx.store().getTransfers([b.id, "unknown", a.id]);
      expect(idsOf(got).sort()).toEqual([a.id, b.id].sort());
      expect(await ctx.store().getTransfers([])).toEqual([]);
    });

    it("finds a transfer by its identity, and only by all of it", async () => {
      const t = makeTransfer();
      await ctx.store().insertTransfer(t);
      await ctx.store().insertTransfer(makeTransfer({ txHash: null }));
      const identity = {
        accountId: t.accountId,
        network: t.network,
        txHash: t.txHash!,
        tokenId: t.tokenId,
        outputAddress: t.outputAddress!,
        direction: t.direction,
      };
      expect(await ctx.store().findTransfer(identity)).toEqual(t);
      for (const change of [
        { accountId: "acct-2" },
        { network: "BSC" },
        { txHash: "0xother" },
        { tokenId: "0xtoken" },
        { outputAddress: "0xother" },
        { direction: "outgoing" as const },
      ]) {
        expect(await ctx.store().findTransfer({ ...identity, ...change })).toBeNull();
      }
    });

    it("applies every list filter alone, inclusive time bounds included", async () => {
      const { A, B, C, D, E } = listFixture();
      for (const t of [A, B, C, D, E]) await ctx.store().insertTransfer(t);
      const cases: Array<[TransferFilter, string[]]> = [
        [{}, ["t-d", "t-c", "t-b", "t-a"]],
        [{ clientId: "c1" }, ["t-c", "t-a"]],
        [{ direction: "outgoing" }, ["t-d", "t-b"]],
        [{ network: "ETH" }, ["t-b", "t-a"]],
        [{ tokenId: B.tokenId }, ["t-b"]],
        [{ tokenSymbol: "USDT" }, ["t-b"]],
        [{ tokenSymbol: "usdt" }, ["t-b"]],
        [{ txHash: "0xhash-b" }, ["t-b"]],
        [{ inputAddress: "0xin-1" }, ["t-d", "t-a"]],
        [{ outputAddress: "TOut3" }, ["t-c"]],
        [{ registeredFrom: T0 + 2000 }, ["t-d", "t-c", "t-b"]],
        [{ registeredTo: T0 + 2000 }, ["t-b", "t-a"]],
        [{ registeredFrom: T0 + 2000, registeredTo: T0 + 2000 }, ["t-b"]],
        [{ occurredFrom: T0 + 200 }, ["t-c", "t-b"]],
        [{ occurredTo: T0 + 200 }, ["t-b", "t-a"]],
        [{ riskLevel: "high" }, ["t-b"]],
        [{ riskLevel: "undefined" }, ["t-d"]],
        [{ txStatus: "not_found" }, ["t-c"]],
        [{ txStatus: "bound" }, ["t-b", "t-a"]],
        [{ txStatus: "none" }, ["t-d"]],
        [{ txStatus: "error" }, []],
        [{ counterpartyName: "Tornado Cash" }, ["t-b"]],
        [{ counterpartyCategory: "exchange" }, ["t-a"]],
        [{ network: "ETH", direction: "incoming" }, ["t-a"]],
        [{ clientId: "nobody" }, []],
      ];
      for (const [filter, expected] of cases) {
        const result = await ctx.store().listTransfers("acct-1", filter, { page: 1, pageSize: 50 });
        expect({ filter, ids: idsOf(result.items), total: result.total }).toEqual({
          filter,
          ids: expected,
          total: expected.length,
        });
      }
      const other = await ctx.store().listTransfers("acct-2", {}, { page: 1, pageSize: 50 });
      expect(other).toEqual({ items: [E], total: 1 });
    });

    it("pages newest first, with the right total past the end", async () => {
      const { A, B, C, D } = listFixture();
      for (const t of [C, A, D, B]) await ctx.store().insertTransfer(t);
      const page = (n: number) => ctx.store().listTransfers("acct-1", {}, { page: n, pageSize: 3 });
      const first = await page(1);
      expect([idsOf(first.items), first.total]).toEqual([["t-d", "t-c", "t-b"], 4]);
      expect(first.items[0]).toEqual(D);
      const second = await page(2);
      expect([idsOf(second.items), second.total]).toEqual([["t-a"], 4]);
      expect(await page(3)).toEqual({ items: [], total: 4 });
    });

    it("breaks ties of registeredAt by id descending", async () => {
      for (const id of ["tie-1", "tie-3", "tie-2"]) await ctx.store().insertTransfer(makeTransfer({ id }));
      const result = await ctx.store().listTransfers("acct-1", {}, { page: 1, pageSize: 10 });
      expect(idsOf(result.items)).toEqual(["tie-3", "tie-2", "tie-1"]);
    });
  });
}
