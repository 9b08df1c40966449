/** Conformance of `transaction`: commit, rollback of every kind of write, isolation from root reads. */
import { describe, expect, it } from "vitest";
import type { ConformanceContext } from "./store-conformance.js";
import { rowLockConformance } from "./store-conformance-row-locks.js";
import {
  makeAlert,
  makeJob,
  makeLedgerTransfer,
  makeManualCheck,
  makeRisk,
  makeTransfer,
  BASE_TIME as T0,
} from "./store-factories.js";

/** Registers the transaction tests, the row-locking contract's included. */
export function transactionConformance(ctx: ConformanceContext): void {
  describe("transactions", () => {
    it("commits every write and returns what fn returned", async () => {
      const t = makeTransfer();
      const job = makeJob({ subjectId: t.id });
      const result = await ctx.store().transaction(async (tx) => {
        await tx.insertTransfer(t);
        await tx.enqueueJob(job);
        return "done";
      });
      expect(result).toBe("done");
      expect(await ctx.store().getTransfer(t.id)).toEqual(t);
      expect(await ctx.store().listJobs(t.id)).toEqual([job]);
    });

    it("sees its own writes inside", async () => {
      const t = makeTransfer();
      const row = makeLedgerTransfer({ to: "0xsink", occurredAt: T0 });
      await ctx.store().transaction(async (tx) => {
        await tx.insertTransfer(t);
        await tx.updateTransfer({ ...t, riskLevel: "low" });
        expect((await tx.getTransfer(t.id))?.riskLevel).toBe("low");
        expect((await tx.listTransfers(t.accountId, {}, { page: 1, pageSize: 5 })).total).toBe(1);
        await tx.putLedgerTransfers([row]);
        expect(await tx.ledgerIncoming("ETH", "native", [{ address: "0xsink", before: T0 + 1 }], 5)).toEqual([
          row,
        ]);
      });
    });

    it("rolls every write back when fn throws, and rethrows the error unchanged", async () => {
      const s = ctx.store();
      const existing = makeTransfer();
      await s.insertTransfer(existing);
      const keptRisk = makeRisk({ subjectId: existing.id });
      await s.replaceRisks("transfer", existing.id, ["exposure"], [keptRisk]);
      const keptJob = makeJob();
      await s.enqueueJob(keptJob);
      const fresh = makeTransfer();
      const check = makeManualCheck();
      const alert = makeAlert({ transferId: existing.id });
      const row = makeLedgerTransfer();
      const failure = new Error("boom");
      const attempt = s.transaction(async (tx) => {
        await tx.insertTransfer(fresh);
        await tx.updateTransfer({ ...existing, riskLevel: "severe" });
        await tx.replaceRisks("transfer", existing.id, ["exposure"], [makeRisk({ subjectId: existing.id })]);
        await tx.insertManualCheck(check);
        await tx.insertAlert(alert);
        await tx.appendAlertHistory({
          id: "h",
          alertId: alert.id,
          at: T0,
          actor: null,
          from: null,
          to: "open",
          comment: null,
          assignee: null,
        });
        await tx.claimJobs({ now: T0, limit: 5, leaseMs: 1000, owner: "w1" });
        await tx.enqueueJob(makeJob({ subjectId: fresh.id }));
        await tx.putApiKey({ id: "k", accountId: "acct-1", secret: "s", createdAt: T0, revokedAt: null });
        await tx.putLedgerTransfers([row]);
        await tx.putAttributions([
          { network: "ETH", address: "0xa", entityName: "X", entityCategory: "scam", source: null },
        ]);
        await tx.putTokens([{ network: "ETH", tokenId: "0xt", symbol: "T", decimals: 6, name: null }]);
        await tx.putPrices([{ network: "ETH", tokenId: "native", day: "2024-01-01", usd: 2000 }]);
        throw failure;
      });
      await expect(attempt).rejects.toBe(failure);
      expect(await s.getTransfer(fresh.id)).toBeNull();
      expect(await s.getTransfer(existing.id)).toEqual(existing);
      expect(await s.listRisks("transfer", existing.id)).toEqual([keptRisk]);
      expect(await s.getManualCheck(check.id)).toBeNull();
      expect(await s.getAlert(alert.id)).toBeNull();
      expect(await s.listAlertHistory(alert.id)).toEqual([]);
      expect(await s.listJobs()).toEqual([keptJob]);
      expect(await s.getApiKey("k")).toBeNull();
      expect(await s.ledgerByTxHash("ETH", row.txHash)).toEqual([]);
      expect(await s.ledgerIncoming("ETH", "native", [{ address: row.to, before: T0 + 1 }], 5)).toEqual([]);
      expect(await s.putLedgerTransfers([row])).toBe(1);
      expect(await s.getAttributions("ETH", ["0xa"])).toEqual([]);
      expect(await s.getToken("ETH", "0xt")).toBeNull();
      expect(await s.getPrice("ETH", "native", "2024-01-01")).toBeNull();
    });

    it("keeps uncommitted writes from a read made while it is open", async () => {
      const t = makeTransfer();
      const failure = new Error("rolled back");
      let release = (): void => {};
      const gate = new Promise<void>((resolve) => {
        release = resolve;
      });
      let written = (): void => {};
      const insertDone = new Promise<void>((resolve) => {
        written = resolve;
      });
      const attempt = ctx.store().transaction(async (tx) => {
        await tx.insertTransfer(t);
        written();
        await gate;
        throw failure;
      });
      await insertDone;
      const read = ctx.store().getTransfer(t.id);
      release();
      await expect(attempt).rejects.toBe(failure);
      expect(await read).toBeNull();
    });

    it("runs concurrent transactions without losing either", async () => {
      const a = makeTransfer();
      const b = makeTransfer();
      await Promise.all([
        ctx.store().transaction(async (tx) => tx.insertTransfer(a)),
        ctx.store().transaction(async (tx) => tx.insertTransfer(b)),
      ]);
      expect(await ctx.store().getTransfers([a.id, b.id])).toHaveLength(2);
    });

    it("keeps many concurrent transactions apart: the ones that throw leave nothing, the others land", async () => {
      // Stores that commit concurrent transactions together (SQLite's group commit) must still
      // give each one its own outcome.
      const s = ctx.store();
      const shared = makeTransfer();
      await s.insertTransfer(shared);
      const transfers = Array.from({ length: 40 }, () => makeTransfer());
      const outcomes = await Promise.allSettled(
        transfers.map((t, i) =>
          s.transaction(async (tx) => {
            await tx.insertTransfer(t);
            await tx.enqueueJob(makeJob({ subjectId: t.id }));
            if (i % 3 === 0) throw new Error(`member ${i} fails`);
            // A duplicate identity: CONFLICT inside the transaction, after its own writes.
            if (i % 7 === 1) await tx.insertTransfer({ ...shared, id: `${shared.id}-again-${i}` });
            return i;
          }),
        ),
      );
      for (const [i, outcome] of outcomes.entries()) {
        const t = transfers[i] as (typeof transfers)[number];
        const kept = await s.getTransfer(t.id);
        if (i % 3 === 0) {
          expect(outcome).toMatchObject({ status: "rejected", reason: { message: `member ${i} fails` } });
          expect(kept).toBeNull();
          expect(await s.listJobs(t.id)).toEqual([]);
        } else if (i % 7 === 1) {
          expect(outcome).toMatchObject({ status: "rejected", reason: { code: "CONFLICT" } });
          expect(kept).toBeNull();
          expect(await s.listJobs(t.id)).toEqual([]);
        } else {
          expect(outcome).toEqual({ status: "fulfilled", value: i });
          expect(kept).toEqual(t);
          expect(await s.listJobs(t.id)).toHaveLength(1);
        }
      }
    });

    it("lets a later transaction see what an earlier concurrent one committed", async () => {
      const s = ctx.store();
      const t = makeTransfer();
      const first = s.transaction(async (tx) => tx.insertTransfer(t));
      const second = s.transaction(async (tx) => {
        const seen = await tx.getTransfer(t.id);
        if (seen) await tx.updateTransfer({ ...seen, riskLevel: "high" });
        return seen !== null;
      });
      await first;
      const sawIt = await second;
      expect((await s.getTransfer(t.id))?.riskLevel).toBe(sawIt ? "high" : t.riskLevel);
    });
    rowLockConformance(ctx);
  });
}
