/**
 * Migration 0004: the alert workflow (assignee), risk-model management (creation and deletion
 * times) and webhooks (subscriptions, the outbox of events, delivery attempts).
 */
import { type Kysely, type Migration, sql } from "kysely";

/** Adds the columns and tables. */
async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("alerts").addColumn("assignee", "text").execute();
  await db.schema.alterTable("alert_history").addColumn("assignee", "text").execute();
  await db.schema
    .alterTable("risk_models")
    .addColumn("created_at", "bigint", (c) => c.notNull().defaultTo(sql`0`))
    .execute();
  await db.schema.alterTable("risk_models").addColumn("deleted_at", "bigint").execute();
  await db.schema
    .createTable("webhooks")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("account_id", "text", (c) => c.notNull())
    .addColumn("url", "text", (c) => c.notNull())
    .addColumn("events", "text", (c) => c.notNull())
    .addColumn("secret", "text", (c) => c.notNull())
    .addColumn("created_at", "bigint", (c) => c.notNull())
    .addColumn("deleted_at", "bigint")
    .execute();
  await db.schema
    .createIndex("webhooks_account")
    .on("webhooks")
    .columns(["account_id", "created_at"])
    .execute();
  await db.schema
    .createTable("webhook_events")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("account_id", "text", (c) => c.notNull())
    .addColumn("type", "text", (c) => c.notNull())
    .addColumn("payload", "text", (c) => c.notNull())
    .addColumn("created_at", "bigint", (c) => c.notNull())
    .execute();
  await db.schema
    .createTable("webhook_deliveries")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("webhook_id", "text", (c) => c.notNull())
    .addColumn("event_id", "text", (c) => c.notNull())
    .addColumn("attempt", "integer", (c) => c.notNull())
    .addColumn("at", "bigint", (c) => c.notNull())
    .addColumn("ok", "integer", (c) => c.notNull())
    .addColumn("status_code", "integer")
    .addColumn("error", "text")
    .addColumn("duration_ms", "integer", (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex("webhook_deliveries_webhook")
    .on("webhook_deliveries")
    .columns(["webhook_id", "at"])
    .execute();
  await db.schema.createIndex("jobs_kind_run_at").on("jobs").columns(["kind", "run_at"]).execute();
}

/** Drops them. */
async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex("jobs_kind_run_at").execute();
  await db.schema.dropTable("webhook_deliveries").execute();
  await db.schema.dropTable("webhook_events").execute();
  await db.schema.dropTable("webhooks").execute();
  await db.schema.alterTable("risk_models").dropColumn("deleted_at").execute();
  await db.schema.alterTable("risk_models").dropColumn("created_at").execute();
  await db.schema.alterTable("alert_history").dropColumn("assignee").execute();
  await db.schema.alterTable("alerts").dropColumn("assignee").execute();
}

/** The workflow migration. */
export const workflowMigration: Migration = { up, down };
