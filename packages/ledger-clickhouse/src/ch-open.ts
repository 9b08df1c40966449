/**
 * Opening a ledger from its clickhouse:// URL in one call, as the CLI does: parse, migrate
 * (idempotent; every shard too when the URL lists them), open.
 */

import { type ClickHouseLedger, type ClickHouseLedgerOptions, openClickHouseLedger } from "./ch-ledger.js";
import { migrateClickHouseLedger } from "./ch-migrate.js";
import { parseClickHouseUrl } from "./ch-target.js";

/** Options of {@link openClickHouseLedgerUrl}. */
export interface OpenLedgerUrlOptions extends ClickHouseLedgerOptions {
  /** Run the pending migrations first (default true). A sharded URL without `shards=` only checks the entry's Distributed tables. */
  readonly migrate?: boolean;
}

/** Parses `url`, migrates and opens the ledger. */
export async function openClickHouseLedgerUrl(
  url: string,
  options: OpenLedgerUrlOptions = {},
): Promise<ClickHouseLedger> {
  const target = parseClickHouseUrl(url);
  if (options.migrate !== false && (target.cluster === null || target.shards.length > 0)) {
    await migrateClickHouseLedger(target, options.retry ? { retry: options.retry } : {});
  }
  return openClickHouseLedger(target, options);
}
