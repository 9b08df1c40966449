/**
 * Migration 0030: the UTXO ledger (Bitcoin, Litecoin; `domain/utxo.ts`). Three tables keyed by
 * txid first (hashes are spread evenly, so the key is selective from its first column, as the
 * ledger's key since migration 0006):
 * - `utxo_transactions`, one row per transaction, with `(network, block)` for a reorg's delete;
 * - `utxo_outputs`, one row per output, with `(address, network, occurred_at)` for an address's
 *   receipts (address checks); the transaction's time, block and position are repeated so that
 *   a receipt is read from the index and its row alone;
 * - `utxo_inputs`, one row per input, with `(prev_txid, network, prev_vout)`: the spending input
 *   of an outpoint (`spentBy`, forward traces), and the spending transaction's time.
 * Values are satoshis in bigint columns: exact, never floats.
 */
import type { Kysely, Migration } from "kysely";

/** Creates the tables and their indexes. */
async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("utxo_transactions")
    .addColumn("txid", "text", (c) => c.notNull())
    .addColumn("network", "text", (c) => c.notNull())
    .addColumn("block", "bigint")
    .addColumn("block_hash", "text")
    .addColumn("occurred_at", "bigint", (c) => c.notNull())
    .addColumn("position", "integer", (c) => c.notNull())
    .addColumn("coinbase", "integer", (c) => c.notNull())
    .addPrimaryKeyConstraint("utxo_transactions_pk", ["txid", "network"])
    .execute();
  await db.schema
    .createIndex("utxo_transactions_block")
    .on("utxo_transactions")
    .columns(["network", "block"])
    .execute();
  await db.schema
    .createTable("utxo_outputs")
    .addColumn("txid", "text", (c) => c.notNull())
    .addColumn("network", "text", (c) => c.notNull())
    .addColumn("vout", "integer", (c) => c.notNull())
    .addColumn("address", "text")
    .addColumn("value", "bigint", (c) => c.notNull())
    .addColumn("occurred_at", "bigint", (c) => c.notNull())
    .addColumn("block", "bigint")
    .addColumn("position", "integer", (c) => c.notNull())
    .addPrimaryKeyConstraint("utxo_outputs_pk", ["txid", "network", "vout"])
    .execute();
  await db.schema
    .createIndex("utxo_outputs_address")
    .on("utxo_outputs")
    .columns(["address", "network", "occurred_at"])
    .execute();
  await db.schema
    .createTable("utxo_inputs")
    .addColumn("txid", "text", (c) => c.notNull())
    .addColumn("network", "text", (c) => c.notNull())
    .addColumn("vin", "integer", (c) => c.notNull())
    .addColumn("prev_txid", "text")
    .addColumn("prev_vout", "integer")
    .addColumn("address", "text")
    .addColumn("value", "bigint", (c) => c.notNull())
    .addColumn("coinbase", "integer", (c) => c.notNull())
    .addColumn("occurred_at", "bigint", (c) => c.notNull())
    .addPrimaryKeyConstraint("utxo_inputs_pk", ["txid", "network", "vin"])
    .execute();
  await db.schema
    .createIndex("utxo_inputs_prevout")
    .on("utxo_inputs")
    .columns(["prev_txid", "network", "prev_vout"])
    .execute();
}

/** Drops them. */
async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ["utxo_inputs", "utxo_outputs", "utxo_transactions"]) {
    await db.schema.dropTable(table).execute();
  }
}

/** The UTXO ledger migration. */
export const utxoLedgerMigration: Migration = { up, down };
