/**
 * @openkyt/ledger-clickhouse: the ledger in ClickHouse, for ledgers past one machine. Tracing
 * reads it through the `LedgerReader` port, imports and followers write it; the screening state
 * stays in the SQLite or Postgres store.
 */

export { type ChangesReadStats, HORIZON_CHECK_LAG_S } from "./ch-changes.js";
export {
  CHANGES_RETENTION_DAYS,
  type ChangesRetentionOptions,
  type ChangesUpkeepOutcome,
  changesRetentionDays,
  dropExpiredChanges,
  MIN_CHANGES_RETENTION_DAYS,
} from "./ch-changes-upkeep.js";
export {
  type ChClient,
  DEFAULT_RETRY,
  isTransient,
  openChClient,
  type RetryPolicy,
  withRetry,
} from "./ch-client.js";
export { type ExternalLedger, withExternalLedger } from "./ch-compose.js";
export { sqlIdentifier, sqlInt, sqlString, sqlStringList } from "./ch-escape.js";
export { DEFAULT_ROWS_PER_INSERT, type LedgerIngestOptions } from "./ch-ingest.js";
export {
  CHANGES_OVERLAP_MS,
  type ClickHouseLedger,
  type ClickHouseLedgerOptions,
  openClickHouseLedger,
} from "./ch-ledger.js";
export {
  type ClickHouseBinary,
  findClickHouseBinary,
  freePort,
  type LocalClickHouse,
  type LocalClickHouseOptions,
  startLocalClickHouse,
  stopProcess,
} from "./ch-local-server.js";
export {
  type ClickHouseMigrationOutcome,
  type MigrateOptions,
  migrateClickHouseLedger,
} from "./ch-migrate.js";
export { type OpenLedgerUrlOptions, openClickHouseLedgerUrl } from "./ch-open.js";
export { RowBinaryEncoder } from "./ch-row-binary.js";
export { LEDGER_COLUMNS, LEDGER_MIGRATIONS, type LedgerMigration } from "./ch-schema.js";
export {
  type ClickHouseTarget,
  DEFAULT_CLICKHOUSE_PORT,
  describeClickHouseTarget,
  isClickHouseUrl,
  parseClickHouseUrl,
} from "./ch-target.js";
export {
  type ClickHouseUtxoLedger,
  type ClickHouseUtxoOptions,
  clickHouseUtxoOps,
} from "./ch-utxo-ledger.js";
export { isMasked, liveCondition, staircase, type Tombstone } from "./ch-utxo-reorg.js";
export { UTXO_MIGRATIONS, utxoDistributedStatements } from "./ch-utxo-schema.js";
