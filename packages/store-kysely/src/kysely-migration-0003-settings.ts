/** Migration 0003: the settings table (small named values such as ingestor cursors). */
import type { Kysely, Migration } from "kysely";

/** Creates the settings table. */
async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("settings")
    .addColumn("key", "text", (c) => c.primaryKey())
    .addColumn("value", "text", (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex("sanctions_listings_list")
    .on("sanctions_listings")
    .columns(["list_name", "address"])
    .execute();
}

/** Drops it. */
async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex("sanctions_listings_list").execute();
  await db.schema.dropTable("settings").execute();
}

/** The settings migration. */
export const settingsMigration: Migration = { up, down };
