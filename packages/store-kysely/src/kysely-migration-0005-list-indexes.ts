/**
 * Migration 0005: indexes for the selective list filters of the interface, found by EXPLAIN on
 * 100k transfers (see docs/deployment.md). Without them a filter by client, transaction hash,
 * address or occurrence time read the account's every transfer; with them it reads the rows
 * it returns. Filters that match a large share of rows (direction, network, token, risk level,
 * counterparty) are served by the (account, registered_at) index a page walks anyway.
 */
import type { Kysely, Migration } from "kysely";

/** The indexes: name, table, columns. */
const INDEXES: ReadonlyArray<readonly [string, string, ReadonlyArray<string>]> = [
  ["transfers_account_client", "transfers", ["account_id", "client_id", "registered_at"]],
  ["transfers_account_tx_hash", "transfers", ["account_id", "tx_hash"]],
  ["transfers_account_input", "transfers", ["account_id", "input_address", "registered_at"]],
  ["transfers_account_output", "transfers", ["account_id", "output_address", "registered_at"]],
  ["transfers_account_occurred", "transfers", ["account_id", "occurred_at"]],
  ["alerts_account_status", "alerts", ["account_id", "alert_status", "created_at"]],
  ["alerts_account_occurred", "alerts", ["account_id", "risk_occurred_at"]],
];

/** Creates the indexes. */
async function up(db: Kysely<unknown>): Promise<void> {
  for (const [name, table, columns] of INDEXES) {
    await db.schema
      .createIndex(name)
      .on(table)
      .columns([...columns])
      .execute();
  }
}

/** Drops them. */
async function down(db: Kysely<unknown>): Promise<void> {
  for (const [name] of [...INDEXES].reverse()) await db.schema.dropIndex(name).execute();
}

/** The list-index migration. */
export const listIndexesMigration: Migration = { up, down };
