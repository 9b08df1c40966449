/**
 * Migration 0014: a bound transfer's place in its block (`block`, `log_index`), from the ledger
 * row it was bound to. The transfer exposure trace starts from that position, so funds received
 * earlier in the same block count (docs/risk-model.md, the order rule). NULL when unknown.
 */
import type { Kysely, Migration } from "kysely";

/** Adds the two columns. */
async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("transfers").addColumn("block", "bigint").execute();
  await db.schema.alterTable("transfers").addColumn("log_index", "bigint").execute();
}

/** Drops them. */
async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("transfers").dropColumn("log_index").execute();
  await db.schema.alterTable("transfers").dropColumn("block").execute();
}

/** The transfer position migration. */
export const transferPositionMigration: Migration = { up, down };
