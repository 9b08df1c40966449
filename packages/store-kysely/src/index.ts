/**
 * @openkyt/store-kysely: the one kysely implementation of OpenKYT's Store port and its
 * migrations, shared by the SQLite and Postgres stores.
 */

export {
  SCANNED_COLUMNS,
  scanPageOf,
  screenedOfValues,
  transferScanQuery,
} from "./kysely-backtests.js";
export { isUniqueViolation, type KyselyContext } from "./kysely-context.js";
export { BASE_STORE_DIALECT, defineStoreDialect, type StoreDialect } from "./kysely-dialect.js";
export { ledgerTransferFromRow } from "./kysely-ledger.js";
export { kyselyLedgerScan } from "./kysely-ledger-scan.js";
export {
  appliedMigrations,
  type MigrationOutcome,
  type MigrationTarget,
  migrateDown,
  migrateToLatest,
  STORE_MIGRATIONS,
} from "./kysely-migrations.js";
export { PRUNE_BATCH, PRUNE_EVERY, PRUNE_MARGIN_MS } from "./kysely-replay.js";
export type * from "./kysely-schema.js";
export { UNDATED_LISTING } from "./kysely-schema.js";
export { createKyselyStore } from "./kysely-store.js";
