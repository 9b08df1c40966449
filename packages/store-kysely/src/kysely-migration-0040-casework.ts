/**
 * Migration 0040: casework. `decisions` (a case's decision: outcome, comment, the alerts it
 * closed), `audit_events` (the account's audit log, append-only: a trigger refuses every UPDATE
 * and DELETE of its rows, in SQLite and in Postgres), `sla_policies` (per account),
 * `saved_views` (a user's named queue filters, a name once per user), and a `name` for API keys.
 */
import { type Kysely, type Migration, PostgresAdapter, sql } from "kysely";

/** True on Postgres, whose triggers call a function. */
function onPostgres(db: Kysely<unknown>): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}

/** Refuses changes to the audit log in the database itself. */
async function auditGuard(db: Kysely<unknown>): Promise<void> {
  if (onPostgres(db)) {
    await sql`create function audit_events_append_only() returns trigger language plpgsql as $$
      begin raise exception 'audit_events is append-only'; end $$`.execute(db);
    await sql`create trigger audit_events_append_only before update or delete on audit_events
      for each row execute function audit_events_append_only()`.execute(db);
    return;
  }
  await sql`create trigger audit_events_no_update before update on audit_events
    begin select raise(abort, 'audit_events is append-only'); end`.execute(db);
  await sql`create trigger audit_events_no_delete before delete on audit_events
    begin select raise(abort, 'audit_events is append-only'); end`.execute(db);
}

/** Creates the tables, their indexes and the guard. */
async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("decisions")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("account_id", "text", (c) => c.notNull())
    .addColumn("transfer_id", "text", (c) => c.notNull())
    .addColumn("alert_ids", "text", (c) => c.notNull())
    .addColumn("outcome", "text", (c) => c.notNull())
    .addColumn("comment", "text", (c) => c.notNull())
    .addColumn("actor", "text")
    .addColumn("decided_at", "bigint", (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex("decisions_transfer")
    .on("decisions")
    .columns(["transfer_id", "decided_at"])
    .execute();
  await db.schema
    .createTable("audit_events")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("account_id", "text", (c) => c.notNull())
    .addColumn("at", "bigint", (c) => c.notNull())
    .addColumn("actor", "text")
    .addColumn("action", "text", (c) => c.notNull())
    .addColumn("subject", "text")
    .addColumn("details", "text", (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex("audit_events_account")
    .on("audit_events")
    .columns(["account_id", "at"])
    .execute();
  await auditGuard(db);
  await db.schema
    .createTable("sla_policies")
    .addColumn("account_id", "text", (c) => c.primaryKey())
    .addColumn("hours", "text", (c) => c.notNull())
    .addColumn("updated_at", "bigint", (c) => c.notNull())
    .addColumn("updated_by", "text")
    .execute();
  await db.schema
    .createTable("saved_views")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("account_id", "text", (c) => c.notNull())
    .addColumn("user_id", "text", (c) => c.notNull())
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("query", "text", (c) => c.notNull())
    .addColumn("created_at", "bigint", (c) => c.notNull())
    .addUniqueConstraint("saved_views_user_name", ["user_id", "name"])
    .execute();
  await db.schema.alterTable("api_keys").addColumn("name", "text").execute();
}

/** Drops them. */
async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("api_keys").dropColumn("name").execute();
  await db.schema.dropTable("saved_views").execute();
  await db.schema.dropTable("sla_policies").execute();
  await db.schema.dropTable("audit_events").execute();
  if (onPostgres(db)) await sql`drop function audit_events_append_only()`.execute(db);
  await db.schema.dropTable("decisions").execute();
}

/** The casework migration. */
export const caseworkMigration: Migration = { up, down };
