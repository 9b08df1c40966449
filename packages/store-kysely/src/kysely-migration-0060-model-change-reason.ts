/**
 * Migration 0060: the reason given for each version of a risk model (`risk_models.change_reason`),
 * shown in the model's version history and read by the audit log. NULL for versions written
 * before it existed and for a model's first version when none was given.
 */
import type { Kysely, Migration } from "kysely";

/** Adds the nullable column. */
async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("risk_models").addColumn("change_reason", "text").execute();
}

/** Drops it. */
async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("risk_models").dropColumn("change_reason").execute();
}

/** The change reason migration. */
export const modelChangeReasonMigration: Migration = { up, down };
