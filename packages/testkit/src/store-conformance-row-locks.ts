/**
 * Conformance of the row-locking contract of `transaction`: a transfer, manual check or alert
 * read by id inside a transaction stays as read until the transaction ends, so concurrent
 * read-modify-write transactions (in one process or several) lose no update. Also: concurrent
 * risk replacements and alert history appends of one subject lose nothing and duplicate nothing.
 */
import type { StoreOps } from "@openkyt/core";
import { describe, expect, it } from "vitest";
import type { ConformanceContext } from "./store-conformance.js";
import { makeAlert, makeManualCheck, makeRisk, makeTransfer, BASE_TIME as T0 } from "./store-factories.js";

/** How many transactions race for one row. */
const RACERS = 8;

/** A pause that lets the other racers run between a read and its write. */
function pause(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 2 + Math.floor(Math.random() * 8)));
}

/** Runs `RACERS` transactions at once, each reading a row, pausing, and writing it back changed. */
async function race(ctx: ConformanceContext, step: (tx: StoreOps) => Promise<void>): Promise<void> {
  await Promise.all(Array.from({ length: RACERS }, () => ctx.store().transaction(step)));
}

/** Registers the row-locking tests. */
export function rowLockConformance(ctx: ConformanceContext): void {
  describe("row locks in transactions", () => {
    it("loses no increment of a transfer read and written by concurrent transactions", async () => {
      const t = makeTransfer({ updatedAt: T0 });
      await ctx.store().insertTransfer(t);
      await race(ctx, async (tx) => {
        const current = await tx.getTransfer(t.id);
        await pause();
        if (current) await tx.updateTransfer({ ...current, updatedAt: current.updatedAt + 1 });
      });
      expect((await ctx.store().getTransfer(t.id))?.updatedAt).toBe(T0 + RACERS);
    });

    it("loses no increment of a transfer found by its identity", async () => {
      const t = makeTransfer({ updatedAt: T0 });
      await ctx.store().insertTransfer(t);
      const identity = {
        accountId: t.accountId,
        network: t.network,
        txHash: t.txHash ?? "",
        tokenId: t.tokenId,
        outputAddress: t.outputAddress ?? "",
        direction: t.direction,
      };
      await race(ctx, async (tx) => {
        const current = await tx.findTransfer(identity);
        await pause();
        if (current) await tx.updateTransfer({ ...current, updatedAt: current.updatedAt + 1 });
      });
      expect((await ctx.store().getTransfer(t.id))?.updatedAt).toBe(T0 + RACERS);
    });

    it("loses no increment of a manual check or an alert", async () => {
      const check = makeManualCheck({ updatedAt: T0 });
      const alert = makeAlert({ updatedAt: T0 });
      await ctx.store().insertManualCheck(check);
      await ctx.store().insertAlert(alert);
      await race(ctx, async (tx) => {
        const current = await tx.getManualCheck(check.id);
        await pause();
        if (current) await tx.updateManualCheck({ ...current, updatedAt: current.updatedAt + 1 });
      });
      await race(ctx, async (tx) => {
        const current = await tx.getAlert(alert.id);
        await pause();
        if (current) await tx.updateAlert({ ...current, updatedAt: (current.updatedAt ?? 0) + 1 });
      });
      expect((await ctx.store().getManualCheck(check.id))?.updatedAt).toBe(T0 + RACERS);
      expect((await ctx.store().getAlert(alert.id))?.updatedAt).toBe(T0 + RACERS);
    });

    it("leaves exactly one whole set after concurrent replacements of a subject's risks", async () => {
      const t = makeTransfer();
      await ctx.store().insertTransfer(t);
      const sets = Array.from({ length: RACERS }, () => [
        makeRisk({ subjectId: t.id, checkKind: "exposure" }),
        makeRisk({ subjectId: t.id, checkKind: "exposure", riskLevel: "low" }),
      ]);
      await Promise.all(sets.map((risks) => ctx.store().replaceRisks("transfer", t.id, ["exposure"], risks)));
      await Promise.all(
        sets.map((risks) =>
          ctx.store().transaction((tx) => tx.replaceRisks("transfer", t.id, ["exposure"], risks)),
        ),
      );
      const ids = (await ctx.store().listRisks("transfer", t.id)).map((r) => r.id).sort();
      expect(sets.map((risks) => risks.map((r) => r.id).sort())).toContainEqual(ids);
    });

    it("keeps every entry of concurrent appends to one alert's history, in distinct positions", async () => {
      const alert = makeAlert();
      await ctx.store().insertAlert(alert);
      await Promise.all(
        Array.from({ length: RACERS }, (_, i) =>
          ctx.store().appendAlertHistory({
            id: `h-${i}`,
            alertId: alert.id,
            at: T0,
            actor: `analyst-${i}`,
            from: "open",
            to: "in_progress",
            comment: null,
            assignee: null,
          }),
        ),
      );
      const history = await ctx.store().listAlertHistory(alert.id);
      expect(history.map((h) => h.id).sort()).toEqual(
        Array.from({ length: RACERS }, (_, i) => `h-${i}`).sort(),
      );
    });
  });
}
