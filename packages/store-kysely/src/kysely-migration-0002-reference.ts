/**
 * Migration 0002: reference data (ledger, attributions, sanctions, tokens, prices) with the
 * ledger's tracing indexes.
 */
import type { Kysely, Migration } from "kysely";

/** Creates the reference data tables. */
async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("ledger_transfers")
    .addColumn("network", "text", (c) => c.notNull())
    .addColumn("tx_hash", "text", (c) => c.notNull())
    .addColumn("log_index", "integer", (c) => c.notNull())
    .addColumn("token_id", "text", (c) => c.notNull())
    .addColumn("from_address", "text", (c) => c.notNull())
    .addColumn("to_address", "text", (c) => c.notNull())
    .addColumn("amount", "double precision", (c) => c.notNull())
    .addColumn("occurred_at", "bigint", (c) => c.notNull())
    .addColumn("block", "bigint")
    .addColumn("value_usd", "double precision")
    .addPrimaryKeyConstraint("ledger_transfers_pk", ["network", "tx_hash", "log_index"])
    .execute();
  await db.schema
    .createIndex("ledger_transfers_incoming")
    .on("ledger_transfers")
    .columns(["network", "token_id", "to_address", "occurred_at"])
    .execute();
  await db.schema
    .createIndex("ledger_transfers_outgoing")
    .on("ledger_transfers")
    .columns(["network", "token_id", "from_address", "occurred_at"])
    .execute();

  await db.schema
    .createTable("attributions")
    .addColumn("network", "text", (c) => c.notNull())
    .addColumn("address", "text", (c) => c.notNull())
    .addColumn("entity_name", "text", (c) => c.notNull())
    .addColumn("entity_category", "text", (c) => c.notNull())
    .addColumn("source", "text")
    .addPrimaryKeyConstraint("attributions_pk", ["network", "address"])
    .execute();

  await db.schema
    .createTable("sanctions_listings")
    .addColumn("address", "text", (c) => c.notNull())
    .addColumn("list_name", "text", (c) => c.notNull())
    .addColumn("listed_at", "bigint", (c) => c.notNull())
    .addColumn("network", "text", (c) => c.notNull())
    .addColumn("program", "text")
    .addColumn("entity", "text")
    .addColumn("delisted_at", "bigint")
    .addPrimaryKeyConstraint("sanctions_listings_pk", ["address", "list_name", "listed_at"])
    .execute();

  await db.schema
    .createTable("tokens")
    .addColumn("network", "text", (c) => c.notNull())
    .addColumn("token_id", "text", (c) => c.notNull())
    .addColumn("symbol", "text", (c) => c.notNull())
    .addColumn("decimals", "integer", (c) => c.notNull())
    .addColumn("name", "text")
    .addPrimaryKeyConstraint("tokens_pk", ["network", "token_id"])
    .execute();

  await db.schema
    .createTable("prices")
    .addColumn("network", "text", (c) => c.notNull())
    .addColumn("token_id", "text", (c) => c.notNull())
    .addColumn("day", "text", (c) => c.notNull())
    .addColumn("usd", "double precision", (c) => c.notNull())
    .addPrimaryKeyConstraint("prices_pk", ["network", "token_id", "day"])
    .execute();
}

/** Drops the reference data tables. */
async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ["prices", "tokens", "sanctions_listings", "attributions", "ledger_transfers"]) {
    await db.schema.dropTable(table).execute();
  }
}

/** Migration 0002. */
export const referenceTablesMigration: Migration = { up, down };
