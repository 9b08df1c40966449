/**
 * Migration 0070: the rewind log (`Store.scanRewinds`). Each time a chain follower removes the
 * rows of replaced blocks (`rewindFollowedChain`, `deleteUtxoBlocksFrom`) the store appends one
 * row here in the same transaction: which ledger, the network, the first replaced height, and
 * the scan position up to which nothing changed. Warm in-memory copies, in any process, read it
 * to drop the same rows. Ids are given out by the writer (the highest plus one), under the
 * ledger writers' lock on Postgres, so they follow commit order.
 */
import type { Kysely, Migration } from "kysely";

/** Creates the table. */
async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("ledger_rewinds")
    .addColumn("id", "bigint", (c) => c.primaryKey())
    .addColumn("ledger", "text", (c) => c.notNull())
    .addColumn("network", "text", (c) => c.notNull())
    .addColumn("from_height", "bigint", (c) => c.notNull())
    .addColumn("resume_after", "bigint", (c) => c.notNull())
    .execute();
}

/** Drops it. */
async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("ledger_rewinds").execute();
}

/** The rewind log migration. */
export const ledgerRewindsMigration: Migration = { up, down };
