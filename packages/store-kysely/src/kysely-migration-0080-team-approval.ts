/**
 * Migration 0080: team work. A risk model version's approval by a second admin (columns of
 * `risk_models`: `approval_state` pending/approved/rejected, NULL for versions written while
 * approval was off; who proposed it, whether approving it makes the model the default, who
 * decided, when and why), and `saved_views.shared` (a view shared with the account, 0 for
 * every view made before). The account settings (approval required, explorers) are named
 * settings and need no table.
 */
import type { Kysely, Migration } from "kysely";

const APPROVAL_COLUMNS = [
  ["approval_state", "text"],
  ["proposed_by", "text"],
  ["make_default", "integer"],
  ["decided_by", "text"],
  ["decided_at", "bigint"],
  ["decision_reason", "text"],
] as const;

/** Adds the nullable approval columns and the shared flag. */
async function up(db: Kysely<unknown>): Promise<void> {
  for (const [name, type] of APPROVAL_COLUMNS)
    await db.schema.alterTable("risk_models").addColumn(name, type).execute();
  await db.schema
    .alterTable("saved_views")
    .addColumn("shared", "integer", (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema
    .createIndex("saved_views_shared")
    .on("saved_views")
    .columns(["account_id", "shared"])
    .execute();
}

/** Drops them. */
async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex("saved_views_shared").execute();
  await db.schema.alterTable("saved_views").dropColumn("shared").execute();
  for (const [name] of [...APPROVAL_COLUMNS].reverse())
    await db.schema.alterTable("risk_models").dropColumn(name).execute();
}

/** The team approval migration. */
export const teamApprovalMigration: Migration = { up, down };
