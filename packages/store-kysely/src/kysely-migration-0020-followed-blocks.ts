/**
 * Migration 0020: the blocks chain followers wrote (`openkyt follow`): per network, each block's
 * height and hash, so a follower resumes after the highest one and sees a reorganisation when
 * the node's hash of a followed block changes. Also an index of the ledger by (network, block),
 * so that undoing the blocks a reorganisation replaced deletes their rows by range.
 */
import type { Kysely, Migration } from "kysely";

/** Creates the table and the index. */
async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("followed_blocks")
    .addColumn("network", "text", (c) => c.notNull())
    .addColumn("height", "bigint", (c) => c.notNull())
    .addColumn("hash", "text", (c) => c.notNull())
    .addPrimaryKeyConstraint("followed_blocks_pkey", ["network", "height"])
    .execute();
  await db.schema
    .createIndex("ledger_transfers_block")
    .on("ledger_transfers")
    .columns(["network", "block"])
    .execute();
}

/** Drops them. */
async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex("ledger_transfers_block").execute();
  await db.schema.dropTable("followed_blocks").execute();
}

/** The followed blocks migration. */
export const followedBlocksMigration: Migration = { up, down };
