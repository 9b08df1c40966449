/** The embedded default store: SQLite (WAL) through better-sqlite3 and the kysely store. */
import type { Store } from "@openkyt/core";
import { createKyselyStore, migrateToLatest } from "@openkyt/store-kysely";
import { sqliteBulkLedgerLoads } from "./sqlite-bulk-ledger-writer.js";
import { openSqliteConnection, type SqliteOpenOptions } from "./sqlite-database.js";
import { SQLITE_STORE_DIALECT } from "./sqlite-dialect.js";
import type { SqliteBulkLedgerOptions } from "./sqlite-ledger-load-steps.js";
import { sqliteLedgerReads } from "./sqlite-ledger-reads.js";
import { sqliteTransferScan } from "./sqlite-transfer-scan.js";
import { openDirectUtxoLoad } from "./sqlite-utxo-bulk-load.js";
import { sqliteUtxoScan } from "./sqlite-utxo-scan.js";
import { sqliteUtxoWriter } from "./sqlite-utxo-writer.js";

/** Options of {@link createSqliteStore}: where the file is, and how to open it (its page size). */
export interface SqliteStoreOptions extends SqliteOpenOptions {
  /** Path of the database file, or ":memory:". */
  readonly filename: string;
  /** Run pending migrations before returning the store (default true). */
  readonly migrate?: boolean;
  /** Settings of the store's `bulkLedgerWriter()` loads. */
  readonly bulkLedger?: SqliteBulkLedgerOptions;
}

/**
 * Opens a SQLite store, migrating it to the latest schema unless `migrate` is false. Jobs are
 * claimed inside SQLite's serialised transactions (no `SKIP LOCKED`); transactions begin
 * IMMEDIATE, so everything a transaction reads stays as it read it until it ends, also against
 * another process on the same file (no row locks needed). Transactions that arrive while one
 * runs are committed together (group commit, one savepoint each). `close()` is idempotent.
 * `putUtxoTransactions` binds prepared statements directly (`sqlite-utxo-writer.ts`), and so do
 * the tracing reads `ledgerIncoming` and `ledgerOutgoing` (`sqlite-ledger-reads.ts`).
 */
export async function createSqliteStore(options: SqliteStoreOptions): Promise<Store> {
  const { db, sqlite } = openSqliteConnection(options.filename, options);
  try {
    if (options.migrate ?? true) await migrateToLatest(db);
  } catch (error) {
    await db.destroy();
    throw error;
  }
  const store = createKyselyStore(db, SQLITE_STORE_DIALECT);
  return {
    ...store,
    bulkLedgerWriter: sqliteBulkLedgerLoads(db, sqlite, options.bulkLedger),
    scanTransfers: sqliteTransferScan(db, sqlite, SQLITE_STORE_DIALECT),
    ...sqliteLedgerReads(db, sqlite),
    putUtxoTransactions: sqliteUtxoWriter(db, sqlite),
    scanUtxoTransactions: sqliteUtxoScan(db, sqlite),
    bulkUtxoWriter: async (load) =>
      load?.exclusive === true ? openDirectUtxoLoad(db, sqlite, options.bulkLedger ?? {}) : null,
  };
}
