/** Users and sessions of the kysely store. */
import {
  KytError,
  type SessionRecord,
  type UserRecord,
  type UserRole,
  type UserStoreOps,
} from "@openkyt/core";
import type { Selectable } from "kysely";
import { changedRows, type KyselyContext, orderText } from "./kysely-context.js";
import type { SessionsTable, UsersTable } from "./kysely-schema.js";
import { num, numOrNull } from "./kysely-values.js";

/** A row as a user. */
function userFromRow(r: Selectable<UsersTable>): UserRecord {
  return {
    id: r.id,
    accountId: r.account_id,
    email: r.email,
    role: r.role as UserRole,
    passwordHash: r.password_hash,
    createdAt: num(r.created_at),
    disabledAt: numOrNull(r.disabled_at),
  };
}

/** A row as a session. */
function sessionFromRow(r: Selectable<SessionsTable>): SessionRecord {
  return {
    id: r.id,
    userId: r.user_id,
    accountId: r.account_id,
    csrfToken: r.csrf_token,
    createdAt: num(r.created_at),
    expiresAt: num(r.expires_at),
    revokedAt: numOrNull(r.revoked_at),
  };
}

/** Creates the users and sessions members over `ctx`. */
export function kyselyUserOps(ctx: KyselyContext): UserStoreOps {
  const { db } = ctx;
  return {
    async putUser(record) {
      // No conflict target: either unique key (id, e-mail) refuses the row.
      const result = await db
        .insertInto("users")
        .values({
          id: record.id,
          account_id: record.accountId,
          email: record.email,
          role: record.role,
          password_hash: record.passwordHash,
          created_at: record.createdAt,
          disabled_at: record.disabledAt,
        })
        .onConflict((oc) => oc.doNothing())
        .executeTakeFirstOrThrow();
      if (changedRows(result) === 0) {
        throw new KytError("CONFLICT", `a user with id ${record.id} or e-mail ${record.email} exists`);
      }
    },
    async getUser(id) {
      const row = await db.selectFrom("users").selectAll().where("id", "=", id).executeTakeFirst();
      return row ? userFromRow(row) : null;
    },
    async findUserByEmail(email) {
      const row = await db.selectFrom("users").selectAll().where("email", "=", email).executeTakeFirst();
      return row ? userFromRow(row) : null;
    },
    async listUsers(accountId) {
      const rows = await db
        .selectFrom("users")
        .selectAll()
        .where("account_id", "=", accountId)
        .orderBy("created_at", "asc")
        .orderBy(orderText(ctx, "id"), "asc")
        .execute();
      return rows.map(userFromRow);
    },
    async countActiveUsers() {
      const row = await db
        .selectFrom("users")
        .select((eb) => eb.fn.countAll<number | string | bigint>().as("count"))
        .where("disabled_at", "is", null)
        .executeTakeFirst();
      return num(row?.count ?? 0);
    },
    async disableUser(id, at) {
      const result = await db
        .updateTable("users")
        .set({ disabled_at: at })
        .where("id", "=", id)
        .where("disabled_at", "is", null)
        .executeTakeFirstOrThrow();
      return changedRows(result) === 1;
    },
    async putSession(record) {
      const result = await db
        .insertInto("sessions")
        .values({
          id: record.id,
          user_id: record.userId,
          account_id: record.accountId,
          csrf_token: record.csrfToken,
          created_at: record.createdAt,
          expires_at: record.expiresAt,
          revoked_at: record.revokedAt,
        })
        .onConflict((oc) => oc.doNothing())
        .executeTakeFirstOrThrow();
      if (changedRows(result) === 0) throw new KytError("CONFLICT", "session exists");
    },
    async getSession(id) {
      const row = await db.selectFrom("sessions").selectAll().where("id", "=", id).executeTakeFirst();
      return row ? sessionFromRow(row) : null;
    },
    async revokeSession(id, at) {
      const result = await db
        .updateTable("sessions")
        .set({ revoked_at: at })
        .where("id", "=", id)
        .where("revoked_at", "is", null)
        .executeTakeFirstOrThrow();
      return changedRows(result) === 1;
    },
    async revokeUserSessions(userId, at) {
      const result = await db
        .updateTable("sessions")
        .set({ revoked_at: at })
        .where("user_id", "=", userId)
        .where("revoked_at", "is", null)
        .executeTakeFirstOrThrow();
      return changedRows(result);
    },
    async deleteSessionsBefore(before) {
      const result = await db
        .deleteFrom("sessions")
        .where((eb) => eb.or([eb("expires_at", "<", before), eb("revoked_at", "<", before)]))
        .executeTakeFirstOrThrow();
      return Number(result.numDeletedRows);
    },
  };
}
