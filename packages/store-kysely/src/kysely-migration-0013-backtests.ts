/**
 * Migration 0013: `backtests`, the backtests of risk models run as jobs: the request, the
 * progress and the report (JSON), read back by id within the account. The transfer scan of a
 * backtest walks the existing (account_id, registered_at) index of `transfers`.
 */
import type { Kysely, Migration } from "kysely";

/** Creates the table. */
async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("backtests")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("account_id", "text", (c) => c.notNull())
    .addColumn("status", "text", (c) => c.notNull())
    .addColumn("request", "text", (c) => c.notNull())
    .addColumn("scanned", "bigint", (c) => c.notNull())
    .addColumn("total", "bigint")
    .addColumn("report", "text")
    .addColumn("error", "text")
    .addColumn("created_at", "bigint", (c) => c.notNull())
    .addColumn("updated_at", "bigint", (c) => c.notNull())
    .execute();
}

/** Drops it. */
async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("backtests").execute();
}

/** The backtests migration. */
export const backtestsMigration: Migration = { up, down };
