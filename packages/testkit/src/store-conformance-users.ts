/** Conformance of the users and sessions members (the console's sign-in). */
import type { SessionRecord, UserRecord } from "@openkyt/core";
import { describe, expect, it } from "vitest";
import { type ConformanceContext, expectKytError, idsOf } from "./store-conformance.js";
import { BASE_TIME as T0 } from "./store-factories.js";

const HOUR = 3_600_000;

function user(id: string, accountId: string, email: string, createdAt = T0): UserRecord {
  return {
    id,
    accountId,
    email,
    role: "analyst",
    passwordHash: `scrypt$16384$8$1$salt-${id}$hash-${id}`,
    createdAt,
    disabledAt: null,
  };
}

function session(id: string, userId: string, expiresAt = T0 + HOUR): SessionRecord {
  return {
    id,
    userId,
    accountId: "acct-1",
    csrfToken: `csrf-${id}`,
    createdAt: T0,
    expiresAt,
    revokedAt: null,
  };
}

/** Registers the users and sessions tests. */
export function userConformance(ctx: ConformanceContext): void {
  describe("users", () => {
    it("puts, gets, finds by e-mail and lists an account's users oldest first", async () => {
      const s = ctx.store();
      await s.putUser(user("u-2", "acct-1", "b@example.com", T0 + 2));
      await s.putUser({ ...user("u-1", "acct-1", "a@example.com", T0 + 1), role: "admin" });
      await s.putUser(user("u-9", "acct-2", "c@example.com", T0));
      expect(await s.getUser("u-1")).toEqual({
        ...user("u-1", "acct-1", "a@example.com", T0 + 1),
        role: "admin",
      });
      expect(await s.getUser("unknown")).toBeNull();
      expect((await s.findUserByEmail("c@example.com"))?.id).toBe("u-9");
      expect(await s.findUserByEmail("nobody@example.com")).toBeNull();
      expect(idsOf(await s.listUsers("acct-1"))).toEqual(["u-1", "u-2"]);
      expect(await s.listUsers("acct-3")).toEqual([]);
    });

    it("refuses a second user with the same id or the same e-mail, in any account", async () => {
      const s = ctx.store();
      await s.putUser(user("u-1", "acct-1", "a@example.com"));
      await expectKytError(s.putUser(user("u-1", "acct-1", "other@example.com")), "CONFLICT");
      await expectKytError(s.putUser(user("u-2", "acct-2", "a@example.com")), "CONFLICT");
      expect(await s.getUser("u-2")).toBeNull();
      expect(await s.findUserByEmail("other@example.com")).toBeNull();
    });

    it("disables a user once", async () => {
      const s = ctx.store();
      await s.putUser(user("u-1", "acct-1", "a@example.com"));
      await s.putUser(user("u-2", "acct-2", "b@example.com"));
      expect(await s.countActiveUsers()).toBe(2);
      expect(await s.disableUser("u-1", T0 + 5)).toBe(true);
      expect(await s.countActiveUsers()).toBe(1);
      expect(await s.disableUser("u-1", T0 + 6)).toBe(false);
      expect(await s.disableUser("unknown", T0)).toBe(false);
      expect((await s.getUser("u-1"))?.disabledAt).toBe(T0 + 5);
    });

    it("rolls a user back with its transaction", async () => {
      const s = ctx.store();
      await expect(
        s.transaction(async (tx) => {
          await tx.putUser(user("u-1", "acct-1", "a@example.com"));
          throw new Error("abort");
        }),
      ).rejects.toThrow("abort");
      expect(await s.findUserByEmail("a@example.com")).toBeNull();
    });
  });

  describe("sessions", () => {
    it("puts and gets a session; the same id is CONFLICT", async () => {
      const s = ctx.store();
      await s.putSession(session("s-1", "u-1"));
      expect(await s.getSession("s-1")).toEqual(session("s-1", "u-1"));
      expect(await s.getSession("unknown")).toBeNull();
      await expectKytError(s.putSession(session("s-1", "u-2")), "CONFLICT");
    });

    it("revokes one session once, or every live session of a user", async () => {
      const s = ctx.store();
      await s.putSession(session("s-1", "u-1"));
      await s.putSession(session("s-2", "u-1"));
      await s.putSession(session("s-3", "u-1"));
      await s.putSession(session("s-9", "u-2"));
      expect(await s.revokeSession("s-1", T0 + 10)).toBe(true);
      expect(await s.revokeSession("s-1", T0 + 11)).toBe(false);
      expect(await s.revokeSession("unknown", T0)).toBe(false);
      expect(await s.revokeUserSessions("u-1", T0 + 20)).toBe(2);
      expect(await s.revokeUserSessions("u-1", T0 + 30)).toBe(0);
      expect((await s.getSession("s-1"))?.revokedAt).toBe(T0 + 10);
      expect((await s.getSession("s-3"))?.revokedAt).toBe(T0 + 20);
      expect((await s.getSession("s-9"))?.revokedAt).toBeNull();
    });

    it("deletes sessions that expired or ended before a time, and only those", async () => {
      const s = ctx.store();
      await s.putSession(session("expired", "u-1", T0 + 5));
      await s.putSession(session("ended", "u-1", T0 + HOUR));
      await s.putSession(session("ended-later", "u-1", T0 + HOUR));
      await s.putSession(session("live", "u-1", T0 + HOUR));
      await s.revokeSession("ended", T0 + 1);
      await s.revokeSession("ended-later", T0 + 50);
      expect(await s.deleteSessionsBefore(T0 + 10)).toBe(2);
      expect(await s.getSession("expired")).toBeNull();
      expect(await s.getSession("ended")).toBeNull();
      expect(await s.getSession("ended-later")).not.toBeNull();
      expect(await s.getSession("live")).not.toBeNull();
    });
  });
}
