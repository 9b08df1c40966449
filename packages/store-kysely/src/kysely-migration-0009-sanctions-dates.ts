/**
 * Migration 0009: a listing's designation date. `listed_at` is the start of a listing's validity:
 * the designation date when the list's source gives one, else the date of the first snapshot (or
 * history record) it was read from. `designated_at` keeps the designation date itself, NULL when
 * the source gives none, so that a report can say "listed since" or "in list snapshot of".
 */
import type { Kysely, Migration } from "kysely";

/** Adds the column. */
async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("sanctions_listings").addColumn("designated_at", "bigint").execute();
}

/** Drops it. */
async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("sanctions_listings").dropColumn("designated_at").execute();
}

/** The sanctions dates migration. */
export const sanctionsDatesMigration: Migration = { up, down };
