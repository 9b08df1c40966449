/**
 * Migration 0008: the state of a webhook. A webhook whose deliveries keep failing is paused
 * (`state`, `paused_at`, `paused_reason`) after a number of consecutive failures
 * (`consecutive_failures`, reset by a success), and resumed by its account.
 */
import { type Kysely, type Migration, sql } from "kysely";

/** Adds the columns; existing webhooks are active with no failure counted. */
async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable("webhooks")
    .addColumn("state", "text", (c) => c.notNull().defaultTo(sql`'active'`))
    .execute();
  await db.schema.alterTable("webhooks").addColumn("paused_at", "bigint").execute();
  await db.schema.alterTable("webhooks").addColumn("paused_reason", "text").execute();
  await db.schema
    .alterTable("webhooks")
    .addColumn("consecutive_failures", "integer", (c) => c.notNull().defaultTo(0))
    .execute();
}

/** Drops them. */
async function down(db: Kysely<unknown>): Promise<void> {
  for (const column of ["consecutive_failures", "paused_reason", "paused_at", "state"]) {
    await db.schema.alterTable("webhooks").dropColumn(column).execute();
  }
}

/** The webhook-state migration. */
export const webhookStateMigration: Migration = { up, down };
