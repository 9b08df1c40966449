/**
 * Migration 0011: `users` and `sessions`, the people who sign in to the console. A user's e-mail
 * is unique across accounts (it is what a person signs in with); a session is keyed by the
 * SHA-256 of its token, and indexed by user (sign every session of a disabled user out) and by
 * expiry (pruning).
 */
import type { Kysely, Migration } from "kysely";

/** Creates the tables and their indexes. */
async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("users")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("account_id", "text", (c) => c.notNull())
    .addColumn("email", "text", (c) => c.notNull().unique())
    .addColumn("role", "text", (c) => c.notNull())
    .addColumn("password_hash", "text", (c) => c.notNull())
    .addColumn("created_at", "bigint", (c) => c.notNull())
    .addColumn("disabled_at", "bigint")
    .execute();
  await db.schema.createIndex("users_account").on("users").columns(["account_id", "created_at"]).execute();
  await db.schema
    .createTable("sessions")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("user_id", "text", (c) => c.notNull())
    .addColumn("account_id", "text", (c) => c.notNull())
    .addColumn("csrf_token", "text", (c) => c.notNull())
    .addColumn("created_at", "bigint", (c) => c.notNull())
    .addColumn("expires_at", "bigint", (c) => c.notNull())
    .addColumn("revoked_at", "bigint")
    .execute();
  await db.schema.createIndex("sessions_user").on("sessions").column("user_id").execute();
  await db.schema.createIndex("sessions_expiry").on("sessions").column("expires_at").execute();
}

/** Drops them. */
async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("sessions").execute();
  await db.schema.dropTable("users").execute();
}

/** The users and sessions migration. */
export const usersMigration: Migration = { up, down };
