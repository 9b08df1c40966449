/** Conformance of the risk, alert and alert history members. */
import type { AlertFilter } from "@openkyt/core";
import { describe, expect, it } from "vitest";
import { type ConformanceContext, expectKytError, idsOf } from "./store-conformance.js";
import { makeAlert, makeRisk, makeTransfer, BASE_TIME as T0 } from "./store-factories.js";

/** Registers the risk and alert tests. */
export function riskAlertConformance(ctx: ConformanceContext): void {
  describe("risks", () => {
    it("replaces only the risks of that subject and check", async () => {
      const s = ctx.store();
      const r1 = makeRisk({ id: "r-1", subjectId: "s-1", checkKind: "exposure" });
      const r2 = makeRisk({ id: "r-2", subjectId: "s-1", checkKind: "exposure", riskLevel: "low" });
      const r3 = makeRisk({
        id: "r-3",
        subjectId: "s-1",
        checkKind: "counterparty",
        riskType: "sender_entity",
      });
      const r4 = makeRisk({ id: "r-4", subjectId: "s-2", checkKind: "exposure" });
      const r5 = makeRisk({
        id: "r-5",
        subjectType: "manual_check",
        subjectId: "s-1",
        checkKind: "exposure",
      });
      await s.replaceRisks("transfer", "s-1", ["exposure"], [r1, r2]);
      await s.replaceRisks("transfer", "s-1", ["counterparty"], [r3]);
      await s.replaceRisks("transfer", "s-2", ["exposure"], [r4]);
      await s.replaceRisks("manual_check", "s-1", ["exposure"], [r5]);
      expect(idsOf(await s.listRisks("transfer", "s-1")).sort()).toEqual(["r-1", "r-2", "r-3"]);
      const r6 = makeRisk({ id: "r-6", subjectId: "s-1", checkKind: "exposure", riskLevel: "medium" });
      await s.replaceRisks("transfer", "s-1", ["exposure"], [r6]);
      expect(idsOf(await s.listRisks("transfer", "s-1")).sort()).toEqual(["r-3", "r-6"]);
      await s.replaceRisks("transfer", "s-1", ["exposure"], []);
      expect(await s.listRisks("transfer", "s-1")).toEqual([r3]);
      expect(await s.listRisks("transfer", "s-2")).toEqual([r4]);
      expect(await s.listRisks("manual_check", "s-1")).toEqual([r5]);
      expect(await s.listRisks("transfer", "unknown")).toEqual([]);
    });

    it("replaces the risks of several check kinds at once, and refuses a risk of another kind", async () => {
      const s = ctx.store();
      const exposure = makeRisk({ id: "k-1", subjectId: "k", checkKind: "exposure" });
      const counterparty = makeRisk({ id: "k-2", subjectId: "k", checkKind: "counterparty" });
      const sanctions = makeRisk({ id: "k-3", subjectId: "k", checkKind: "sanctions" });
      await s.replaceRisks(
        "transfer",
        "k",
        ["exposure", "counterparty", "sanctions"],
        [exposure, counterparty, sanctions],
      );
      expect(idsOf(await s.listRisks("transfer", "k")).sort()).toEqual(["k-1", "k-2", "k-3"]);
      // Exposure and counterparty replaced together; the sanctions risk is of another kind: kept.
      const newer = makeRisk({ id: "k-4", subjectId: "k", checkKind: "counterparty" });
      await s.replaceRisks("transfer", "k", ["exposure", "counterparty"], [newer]);
      expect(idsOf(await s.listRisks("transfer", "k")).sort()).toEqual(["k-3", "k-4"]);
      // A risk whose kind is not being replaced would outlive its own replacement: refused, nothing written.
      await expectKytError(
        s.replaceRisks(
          "transfer",
          "k",
          ["exposure"],
          [makeRisk({ id: "k-5", subjectId: "k", checkKind: "sanctions" })],
        ),
        "VALIDATION_ERROR",
      );
      expect(idsOf(await s.listRisks("transfer", "k")).sort()).toEqual(["k-3", "k-4"]);
      // No kinds: nothing replaced.
      await s.replaceRisks("transfer", "k", [], []);
      expect(idsOf(await s.listRisks("transfer", "k")).sort()).toEqual(["k-3", "k-4"]);
    });

    it("lists risks highest level first, then by createdAt and id", async () => {
      const risks = [
        makeRisk({ id: "r-low", subjectId: "s", riskLevel: "low", createdAt: T0 }),
        makeRisk({ id: "r-high-late", subjectId: "s", riskLevel: "high", createdAt: T0 + 5 }),
        makeRisk({ id: "r-high-b", subjectId: "s", riskLevel: "high", createdAt: T0 }),
        makeRisk({ id: "r-high-a", subjectId: "s", riskLevel: "high", createdAt: T0 }),
        makeRisk({ id: "r-severe", subjectId: "s", riskLevel: "severe", createdAt: T0 + 9 }),
        makeRisk({ id: "r-medium", subjectId: "s", riskLevel: "medium", createdAt: T0 }),
      ];
      await ctx.store().replaceRisks("transfer", "s", ["exposure"], risks);
      expect(idsOf(await ctx.store().listRisks("transfer", "s"))).toEqual([
        "r-severe",
        "r-high-a",
        "r-high-b",
        "r-high-late",
        "r-medium",
        "r-low",
      ]);
    });
  });

  describe("alerts", () => {
    it("inserts once per (transfer, dedupeKey)", async () => {
      const a = makeAlert({ transferId: "t-1" });
      expect(await ctx.store().insertAlert(a)).toBe(true);
      expect(await ctx.store().insertAlert(makeAlert({ transferId: "t-1", riskLevel: "low" }))).toBe(false);
      expect(await ctx.store().insertAlert(makeAlert({ transferId: "t-2" }))).toBe(true);
      expect(await ctx.store().insertAlert(makeAlert({ transferId: "t-1", dedupeKey: "other" }))).toBe(true);
      expect(await ctx.store().getAlert(a.id)).toEqual(a);
      expect(await ctx.store().listAlertsOfTransfer("t-1")).toHaveLength(2);
      expect(await ctx.store().getAlert("unknown")).toBeNull();
    });

    it("updates by id, and refuses an unknown id with NOT_FOUND", async () => {
      const a = makeAlert();
      await ctx.store().insertAlert(a);
      const progressed = { ...a, alertStatus: "in_progress" as const, updatedAt: T0 + 1 };
      await ctx.store().updateAlert(progressed);
      expect(await ctx.store().getAlert(a.id)).toEqual(progressed);
      await expectKytError(ctx.store().updateAlert(makeAlert()), "NOT_FOUND");
    });

    it("applies every alert filter alone, transfer fields included", async () => {
      const s = ctx.store();
      const t1 = makeTransfer({
        id: "t-1",
        clientId: "c1",
        network: "ETH",
        tokenId: "native",
        tokenSymbol: "ETH",
      });
      const t2 = makeTransfer({
        id: "t-2",
        clientId: "c2",
        network: "TRX",
        tokenId: "usdt-trc",
        tokenSymbol: "USDT",
      });
      await s.insertTransfer(t1);
      await s.insertTransfer(t2);
      const alerts = [
        makeAlert({
          id: "a-1",
          transferId: "t-1",
          dedupeKey: "k1",
          createdAt: T0 + 10,
          riskOccurredAt: T0 + 1,
        }),
        makeAlert({
          id: "a-2",
          transferId: "t-1",
          dedupeKey: "k2",
          createdAt: T0 + 20,
          riskOccurredAt: T0 + 2,
          riskType: "sender_entity",
          riskLevel: "medium",
          alertStatus: "done",
          entityCategory: "mixer",
          proximity: "direct",
        }),
        makeAlert({
          id: "a-3",
          transferId: "t-2",
          dedupeKey: "k1",
          createdAt: T0 + 30,
          riskOccurredAt: T0 + 3,
        }),
        makeAlert({
          id: "a-x",
          accountId: "acct-2",
          transferId: "t-9",
          createdAt: T0 + 40,
          riskOccurredAt: T0 + 2,
        }),
      ];
      for (const a of alerts) await s.insertAlert(a);
      const cases: Array<[AlertFilter, string[]]> = [
        [{}, ["a-3", "a-2", "a-1"]],
        [{ clientId: "c1" }, ["a-2", "a-1"]],
        [{ network: "TRX" }, ["a-3"]],
        [{ tokenId: "native" }, ["a-2", "a-1"]],
        [{ tokenSymbol: "USDT" }, ["a-3"]],
        [{ tokenSymbol: "usdt" }, ["a-3"]],
        [{ riskType: "sender_entity" }, ["a-2"]],
        [{ riskLevel: "severe" }, ["a-3", "a-1"]],
        [{ alertStatus: "open" }, ["a-3", "a-1"]],
        [{ createdFrom: T0 + 20 }, ["a-3", "a-2"]],
        [{ createdTo: T0 + 20 }, ["a-2", "a-1"]],
        [{ occurredFrom: T0 + 2, occurredTo: T0 + 2 }, ["a-2"]],
        [{ occurredTo: T0 + 1 }, ["a-1"]],
        [{ entityCategory: "mixer" }, ["a-2"]],
        [{ proximity: "indirect" }, ["a-3", "a-1"]],
        [{ clientId: "c1", proximity: "indirect" }, ["a-1"]],
      ];
      for (const [filter, expected] of cases) {
        const result = await s.listAlerts("acct-1", filter, { page: 1, pageSize: 50 });
        expect({ filter, ids: idsOf(result.items), total: result.total }).toEqual({
          filter,
          ids: expected,
          total: expected.length,
        });
      }
      expect(idsOf((await s.listAlerts("acct-2", {}, { page: 1, pageSize: 5 })).items)).toEqual(["a-x"]);
    });

    it("pages alerts newest first, ties by id descending", async () => {
      for (const [id, at] of [
        ["a-1", 1],
        ["a-3", 2],
        ["a-2", 2],
        ["a-4", 3],
      ] as const) {
        await ctx.store().insertAlert(makeAlert({ id, dedupeKey: id, createdAt: T0 + at }));
      }
      const first = await ctx.store().listAlerts("acct-1", {}, { page: 1, pageSize: 3 });
      expect([idsOf(first.items), first.total]).toEqual([["a-4", "a-3", "a-2"], 4]);
      const past = await ctx.store().listAlerts("acct-1", {}, { page: 3, pageSize: 3 });
      expect(past).toEqual({ items: [], total: 4 });
    });

    it("lists a transfer's alerts oldest first", async () => {
      await ctx
        .store()
        .insertAlert(makeAlert({ id: "a-2", transferId: "t", dedupeKey: "2", createdAt: T0 + 2 }));
      await ctx
        .store()
        .insertAlert(makeAlert({ id: "a-1", transferId: "t", dedupeKey: "1", createdAt: T0 + 1 }));
      await ctx.store().insertAlert(makeAlert({ id: "a-9", transferId: "u", createdAt: T0 }));
      expect(idsOf(await ctx.store().listAlertsOfTransfer("t"))).toEqual(["a-1", "a-2"]);
    });

    it("keeps an alert's history oldest first, appends of one instant in append order", async () => {
      const entry = (id: string, alertId: string, at: number, to: "open" | "in_progress" | "done") => ({
        id,
        alertId,
        at,
        actor: id === "h-1" ? null : "analyst@example.com",
        from: id === "h-1" ? null : ("open" as const),
        to,
        comment: id === "h-3" ? "looked at it" : null,
        assignee: id === "h-3" ? "analyst@example.com" : null,
      });
      await ctx.store().appendAlertHistory(entry("h-3", "a-1", T0 + 5, "done"));
      await ctx.store().appendAlertHistory(entry("h-1", "a-1", T0, "open"));
      await ctx.store().appendAlertHistory(entry("h-9", "a-1", T0 + 5, "in_progress"));
      await ctx.store().appendAlertHistory(entry("h-4", "a-2", T0, "open"));
      expect(await ctx.store().listAlertHistory("a-1")).toEqual([
        entry("h-1", "a-1", T0, "open"),
        entry("h-3", "a-1", T0 + 5, "done"),
        entry("h-9", "a-1", T0 + 5, "in_progress"),
      ]);
      expect(await ctx.store().listAlertHistory("unknown")).toEqual([]);
    });

    it("writes new alerts' first history entries together, refusing an alert that has history", async () => {
      const store = ctx.store();
      const opened = (id: string, alertId: string) => ({
        id,
        alertId,
        at: T0,
        actor: null,
        from: null,
        to: "open" as const,
        comment: null,
        assignee: null,
      });
      for (const id of ["a-1", "a-2", "a-3"])
        await store.insertAlert(makeAlert({ id, transferId: "t", dedupeKey: id }));
      await store.appendFirstAlertHistory([opened("h-1", "a-1"), opened("h-2", "a-2")]);
      await store.appendFirstAlertHistory([]);
      expect(await store.listAlertHistory("a-1")).toEqual([opened("h-1", "a-1")]);
      expect(await store.listAlertHistory("a-2")).toEqual([opened("h-2", "a-2")]);
      // Later entries append after the first one.
      const later = {
        ...opened("h-5", "a-1"),
        at: T0 + 1,
        from: "open" as const,
        to: "in_progress" as const,
      };
      await store.appendAlertHistory(later);
      expect(await store.listAlertHistory("a-1")).toEqual([opened("h-1", "a-1"), later]);
      // An alert with history, or one named twice: nothing of the call is written.
      await expectKytError(
        store.appendFirstAlertHistory([opened("h-3", "a-3"), opened("h-4", "a-1")]),
        "CONFLICT",
      );
      await expectKytError(
        store.appendFirstAlertHistory([opened("h-6", "a-3"), opened("h-7", "a-3")]),
        "CONFLICT",
      );
      expect(await store.listAlertHistory("a-3")).toEqual([]);
    });
  });
}
