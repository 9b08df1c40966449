/**
 * Migration 0007: `request_signatures`, the replay guard shared by every process on the
 * database. One row per signed request admitted (key id and signature digest, the primary
 * key), kept until `expires_at`; the index on `expires_at` lets the pruning find expired rows
 * without a scan.
 */
import type { Kysely, Migration } from "kysely";

/** Creates the table and its expiry index. */
async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("request_signatures")
    .addColumn("key_id", "text", (c) => c.notNull())
    .addColumn("digest", "text", (c) => c.notNull())
    .addColumn("expires_at", "bigint", (c) => c.notNull())
    .addPrimaryKeyConstraint("request_signatures_pkey", ["key_id", "digest"])
    .execute();
  await db.schema
    .createIndex("request_signatures_expiry")
    .on("request_signatures")
    .column("expires_at")
    .execute();
}

/** Drops them. */
async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex("request_signatures_expiry").execute();
  await db.schema.dropTable("request_signatures").execute();
}

/** The replay guard migration. */
export const replayGuardMigration: Migration = { up, down };
