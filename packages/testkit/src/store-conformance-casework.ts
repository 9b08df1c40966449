/**
 * Conformance of the casework members: decisions, the append-only audit log, SLA policies, saved
 * views, user roles, and the alert list's triage filters (assignee, active, overdue, search) and
 * orders (newest, oldest, level, value).
 */
import type { AuditEventRecord, DecisionRecord, SavedViewRecord, UserRecord } from "@openkyt/core";
import { describe, expect, it } from "vitest";
import { type ConformanceContext, expectKytError, idsOf } from "./store-conformance.js";
import { makeAlert, makeTransfer, BASE_TIME as T0 } from "./store-factories.js";

const HOUR = 3_600_000;
const ALL = { page: 1, pageSize: 50 };

function decision(id: string, transferId: string, decidedAt = T0): DecisionRecord {
  return {
    id,
    accountId: "acct-1",
    transferId,
    alertIds: [`${id}-a`, `${id}-b`],
    outcome: "false_positive",
    comment: "known exchange hot wallet",
    actor: "user:ana@example.com",
    decidedAt,
  };
}

function audit(id: string, at: number, overrides: Partial<AuditEventRecord> = {}): AuditEventRecord {
  return {
    id,
    accountId: "acct-1",
    at,
    actor: "user:ana@example.com",
    action: "case.decided",
    subject: "t-1",
    details: { outcome: "true_positive", alerts: 2 },
    ...overrides,
  };
}

function view(
  id: string,
  userId: string,
  name: string,
  shared = false,
  accountId = "acct-1",
): SavedViewRecord {
  return { id, accountId, userId, name, query: "alert_status=open&sort=level", createdAt: T0, shared };
}

/** Registers the casework tests. */
export function caseworkConformance(ctx: ConformanceContext): void {
  describe("casework", () => {
    it("keeps decisions of a transfer oldest first and refuses a second with the same id", async () => {
      const s = ctx.store();
      await s.insertDecision(decision("d-2", "t-1", T0 + 2));
      await s.insertDecision(decision("d-1", "t-1", T0 + 1));
      await s.insertDecision(decision("d-9", "t-2", T0));
      expect(await s.listDecisionsOfTransfer("t-1")).toEqual([
        decision("d-1", "t-1", T0 + 1),
        decision("d-2", "t-1", T0 + 2),
      ]);
      await expectKytError(s.insertDecision(decision("d-1", "t-3")), "CONFLICT");
      expect(await s.listDecisionsOfTransfer("t-3")).toEqual([]);
    });

    it("appends audit entries and lists an account's newest first, filtered and paged", async () => {
      const s = ctx.store();
      await s.appendAuditEvent(audit("e-1", T0 + 1));
      await s.appendAuditEvent(
        audit("e-2", T0 + 2, { action: "api_key.created", subject: "k-1", actor: null }),
      );
      await s.appendAuditEvent(
        audit("e-3", T0 + 3, { action: "session.signed_in", subject: null, details: {} }),
      );
      await s.appendAuditEvent(audit("e-4", T0 + 4, { accountId: "acct-2" }));
      const all = await s.listAuditEvents("acct-1", {}, ALL);
      expect(all.total).toBe(3);
      expect(idsOf(all.items)).toEqual(["e-3", "e-2", "e-1"]);
      expect(all.items[2]).toEqual(audit("e-1", T0 + 1));
      expect(all.items[1]?.actor).toBeNull();
      expect(idsOf((await s.listAuditEvents("acct-1", { action: "api_key.created" }, ALL)).items)).toEqual([
        "e-2",
      ]);
      expect(
        idsOf((await s.listAuditEvents("acct-1", { actor: "user:ana@example.com" }, ALL)).items),
      ).toEqual(["e-3", "e-1"]);
      expect(idsOf((await s.listAuditEvents("acct-1", { subject: "t-1" }, ALL)).items)).toEqual(["e-1"]);
      expect(idsOf((await s.listAuditEvents("acct-1", { from: T0 + 2, to: T0 + 3 }, ALL)).items)).toEqual([
        "e-3",
        "e-2",
      ]);
      const second = await s.listAuditEvents("acct-1", {}, { page: 2, pageSize: 2 });
      expect({ total: second.total, ids: idsOf(second.items) }).toEqual({ total: 3, ids: ["e-1"] });
      await expectKytError(s.appendAuditEvent(audit("e-1", T0 + 9)), "CONFLICT");
      expect((await s.listAuditEvents("acct-1", {}, ALL)).total).toBe(3);
    });

    it("sets and replaces an account's SLA policy", async () => {
      const s = ctx.store();
      expect(await s.getSlaPolicy("acct-1")).toBeNull();
      const hours = { severe: 4, high: 24, medium: null, low: null };
      await s.putSlaPolicy({ accountId: "acct-1", hours, updatedAt: T0, updatedBy: "user:a@example.com" });
      await s.putSlaPolicy({ accountId: "acct-2", hours, updatedAt: T0, updatedBy: null });
      const next = { ...hours, medium: 100 };
      await s.putSlaPolicy({ accountId: "acct-1", hours: next, updatedAt: T0 + 1, updatedBy: null });
      expect(await s.getSlaPolicy("acct-1")).toEqual({
        accountId: "acct-1",
        hours: next,
        updatedAt: T0 + 1,
        updatedBy: null,
      });
      expect((await s.getSlaPolicy("acct-2"))?.hours).toEqual(hours);
    });

    it("keeps a user's saved views by name, a name once per user, deleted only by their owner", async () => {
      const s = ctx.store();
      await s.putSavedView(view("v-2", "u-1", "severe open"));
      await s.putSavedView(view("v-1", "u-1", "mine"));
      await s.putSavedView(view("v-3", "u-2", "mine"));
      expect(await s.listSavedViews("u-1")).toEqual([
        view("v-1", "u-1", "mine"),
        view("v-2", "u-1", "severe open"),
      ]);
      await expectKytError(s.putSavedView(view("v-4", "u-1", "mine")), "CONFLICT");
      await expectKytError(s.putSavedView(view("v-1", "u-3", "other")), "CONFLICT");
      expect(await s.deleteSavedView("u-2", "v-1")).toBe(false);
      expect(await s.deleteSavedView("u-1", "v-1")).toBe(true);
      expect(await s.deleteSavedView("u-1", "v-1")).toBe(false);
      expect(idsOf(await s.listSavedViews("u-1"))).toEqual(["v-2"]);
      expect(idsOf(await s.listSavedViews("u-2"))).toEqual(["v-3"]);
    });

    it("shares views with the account: listed for all, changed and deleted by their owner's id only", async () => {
      const s = ctx.store();
      await s.putSavedView(view("v-1", "u-1", "team severe", true));
      await s.putSavedView(view("v-2", "u-2", "b mine"));
      await s.putSavedView(view("v-3", "u-2", "a shared", true));
      await s.putSavedView(view("v-4", "u-9", "other account", true, "acct-2"));
      // Two users may give a shared view the same name: names are unique per user.
      await s.putSavedView(view("v-5", "u-2", "team severe", true));
      expect(idsOf(await s.listSharedViews("acct-1"))).toEqual(["v-3", "v-1", "v-5"]);
      expect(idsOf(await s.listSharedViews("acct-2"))).toEqual(["v-4"]);
      expect(await s.getSavedView("v-1")).toEqual(view("v-1", "u-1", "team severe", true));
      expect(await s.getSavedView("nope")).toBeNull();
      // Sharing is the owner's: another user's id changes nothing.
      expect(await s.setSavedViewShared("u-1", "v-2", true)).toBe(false);
      expect(await s.setSavedViewShared("u-2", "v-2", true)).toBe(true);
      expect(idsOf(await s.listSharedViews("acct-1"))).toEqual(["v-3", "v-2", "v-1", "v-5"]);
      expect(await s.setSavedViewShared("u-2", "v-3", false)).toBe(true);
      expect((await s.getSavedView("v-3"))?.shared).toBe(false);
      expect(idsOf(await s.listSavedViews("u-2"))).toEqual(["v-3", "v-2", "v-5"]);
      expect(await s.deleteSavedView("u-1", "v-5")).toBe(false);
      expect(await s.deleteSavedView("u-2", "v-5")).toBe(true);
      expect(idsOf(await s.listSharedViews("acct-1"))).toEqual(["v-2", "v-1"]);
    });

    it("changes a user's role", async () => {
      const s = ctx.store();
      const user: UserRecord = {
        id: "u-1",
        accountId: "acct-1",
        email: "a@example.com",
        role: "analyst",
        passwordHash: "scrypt$16384$8$1$salt$hash",
        createdAt: T0,
        disabledAt: null,
      };
      await s.putUser(user);
      expect(await s.setUserRole("u-1", "admin")).toBe(true);
      expect(await s.getUser("u-1")).toEqual({ ...user, role: "admin" });
      expect(await s.setUserRole("nobody", "admin")).toBe(false);
    });

    it("filters the alert list by assignee, active, overdue and search, and orders it", async () => {
      const s = ctx.store();
      const t1 = makeTransfer({
        id: "tr-1",
        clientId: "Client-77",
        txHash: "0xABCdef0011223344",
        inputAddress: "0xoYu1111",
        outputAddress: "0xout2222",
      });
      const t2 = makeTransfer({
        id: "tr-2",
        clientId: "client-2",
        txHash: "0x99887766",
        outputAddress: "0xo_ut",
      });
      await s.insertTransfer(t1);
      await s.insertTransfer(t2);
      const alerts = [
        makeAlert({
          id: "al-1",
          transferId: "tr-1",
          riskLevel: "medium",
          createdAt: T0,
          valueInFiat: 50,
          assignee: "a@x.test",
        }),
        makeAlert({
          id: "al-2",
          transferId: "tr-1",
          riskLevel: "severe",
          createdAt: T0 + 1,
          valueInFiat: null,
          dedupeKey: "k2",
        }),
        makeAlert({
          id: "al-3",
          transferId: "tr-2",
          riskLevel: "high",
          createdAt: T0 + 2,
          valueInFiat: 900,
          alertStatus: "done",
          assignee: "a@x.test",
        }),
        makeAlert({
          id: "al-4",
          transferId: "tr-2",
          riskLevel: "severe",
          createdAt: T0 + 3 * HOUR,
          valueInFiat: 10,
          dedupeKey: "k4",
        }),
      ];
      for (const a of alerts) await s.insertAlert(a);
      const list = async (filter: Parameters<typeof s.listAlerts>[1]) =>
        idsOf((await s.listAlerts("acct-1", filter, ALL)).items);
      expect(await list({ assignee: "a@x.test" })).toEqual(["al-3", "al-1"]);
      expect(await list({ assignee: null })).toEqual(["al-4", "al-2"]);
      expect(await list({ active: true })).toEqual(["al-4", "al-2", "al-1"]);
      // Severe is overdue after 2 hours, medium after 1; high has no due time.
      const now = T0 + 6 * HOUR;
      expect(await list({ overdue: { severe: now - 2 * HOUR, medium: now - HOUR } })).toEqual([
        "al-4",
        "al-2",
        "al-1",
      ]);
      expect(await list({ overdue: { severe: now - 2 * HOUR }, active: true })).toEqual(["al-4", "al-2"]);
      expect(await list({ overdue: {} })).toEqual([]);
      // Search: a part of a hash (any case), an address part, a client id or an alert id exactly.
      expect(await list({ search: "abcDEF00" })).toEqual(["al-2", "al-1"]);
      expect(await list({ search: "out22" })).toEqual(["al-2", "al-1"]);
      expect(await list({ search: "client-77" })).toEqual(["al-2", "al-1"]);
      expect(await list({ search: "AL-3" })).toEqual(["al-3"]);
      expect(await list({ search: "o_u" })).toEqual(["al-4", "al-3"]);
      expect(await list({ search: "%" })).toEqual([]);
      expect(await list({ search: "client" })).toEqual([]);
      // Orders: age both ways, level (severe first, newest first within), value (unknown last).
      expect(await list({ order: "oldest" })).toEqual(["al-1", "al-2", "al-3", "al-4"]);
      expect(await list({ order: "newest" })).toEqual(["al-4", "al-3", "al-2", "al-1"]);
      expect(await list({ order: "level" })).toEqual(["al-4", "al-2", "al-3", "al-1"]);
      expect(await list({ order: "value" })).toEqual(["al-3", "al-1", "al-4", "al-2"]);
      expect(await list({ order: "level", assignee: null, search: "0x" })).toEqual(["al-4", "al-2"]);
    });
  });
}
