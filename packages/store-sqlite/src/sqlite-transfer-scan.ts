/**
 * The SQLite store's transfer scan (`BacktestStoreOps.scanTransfers`): the kysely store's query
 * (store-kysely's `transferScanQuery`), run by better-sqlite3 with its rows as arrays. A backtest
 * reads every transfer in its window this way; arrays instead of an object per row took about a
 * tenth of a backtest's CPU off (docs/benchmarks.md). Each page is read holding kysely's connection.
 */
import type { BacktestStoreOps } from "@openkyt/core";
import {
  type Database,
  SCANNED_COLUMNS,
  type StoreDialect,
  scanPageOf,
  screenedOfValues,
  transferScanQuery,
} from "@openkyt/store-kysely";
import type BetterSqlite3 from "better-sqlite3";
import type { Kysely } from "kysely";

/** `scanTransfers` over `db`, its queries run on `sqlite` (the connection under `db`). */
export function sqliteTransferScan(
  db: Kysely<Database>,
  sqlite: BetterSqlite3.Database,
  dialect: StoreDialect,
): BacktestStoreOps["scanTransfers"] {
  // Statements of their own, in raw mode (the shared statement cache answers objects); a scan
  // has a few shapes (with or without a cursor, the filters given).
  const statements = new Map<string, BetterSqlite3.Statement>();
  return async (accountId, filter, after, limit) => {
    const size = Math.max(1, Math.floor(limit));
    const query = transferScanQuery({ db, dialect }, accountId, filter, after, size).compile();
    let statement = statements.get(query.sql);
    if (!statement) {
      statement = sqlite.prepare(query.sql).raw(true);
      if (statement.columns().length !== SCANNED_COLUMNS.length)
        throw new Error(
          `transfer scan selects ${statement.columns().length} columns, not ${SCANNED_COLUMNS.length}`,
        );
      statements.set(query.sql, statement);
    }
    const run = statement;
    // Holding kysely's connection, as the bulk ledger writer does: the read never lands inside
    // one of the store's transactions on that connection (it would see what is not committed).
    const rows = await db.connection().execute(async () => run.all(...query.parameters) as unknown[][]);
    return scanPageOf(rows.map(screenedOfValues), size);
  };
}
