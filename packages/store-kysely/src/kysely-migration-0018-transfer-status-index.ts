/**
 * Migration 0018: an index for the transfer list's `tx_status` filter. The transfers worth
 * finding by status are few (still binding, not found on chain, in error) among an account's
 * bound ones, so without it a page of them read the account's every transfer through
 * (account_id, registered_at); with it a page reads the rows it returns, newest first.
 */
import type { Kysely, Migration } from "kysely";

/** Creates the index. */
async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createIndex("transfers_account_status")
    .on("transfers")
    .columns(["account_id", "tx_status", "registered_at"])
    .execute();
}

/** Drops it. */
async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex("transfers_account_status").execute();
}

/** The transfer status index migration. */
export const transferStatusIndexMigration: Migration = { up, down };
