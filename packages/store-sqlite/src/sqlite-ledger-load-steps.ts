/**
 * The steps both kinds of SQLite bulk ledger load share (`sqlite-bulk-ledger-writer.ts` stages
 * rows in a TEMP table, `sqlite-direct-ledger-load.ts` writes them straight into the ledger):
 * binding rows to multi-row inserts, the ledger's indexes as SQLite keeps them, building them
 * again after a load, and the rollback journal a large load runs under when it can.
 */

import { describeError, KytError, type LedgerTransfer } from "@openkyt/core";
import { isUniqueViolation } from "@openkyt/store-kysely";
import type BetterSqlite3 from "better-sqlite3";
import { SQLITE_STORE_DIALECT } from "./sqlite-dialect.js";

/** The ledger's columns, in the order rows are bound. */
export const COLUMNS =
  "network, tx_hash, log_index, token_id, from_address, to_address, amount, occurred_at, block, value_usd";
/** The ledger's key, in the order of its index (migration 0006). */
export const KEY = "tx_hash, network, log_index";
/** Rows per multi-row insert (10 parameters each): fewer calls into SQLite. */
const ROWS_PER_STATEMENT = 50;

/** Options of the SQLite store's bulk loads (`SqliteStoreOptions.bulkLedger`). */
export interface SqliteBulkLedgerOptions {
  /**
   * Page cache of the connection while the indexes are built, in MiB (default 8): SQLite's
   * sorter keeps about that much in memory per thread before it spills sorted runs to temporary
   * files. On 5,000,000 rows 32 and 64 MiB were no faster than 8 and added 100 and 220 MiB of RSS.
   */
  readonly cacheMiB?: number;
  /**
   * Rebuild the ledger's indexes when the staged rows are at least this share of the rows
   * already stored (default 1/16): a rebuild sorts every row once per index, while an insert
   * into an index larger than the page cache costs tens of times more per row.
   */
  readonly rebuildShare?: number;
  /**
   * Helper threads of SQLite's sorter while the indexes are built (default
   * {@link DEFAULT_SORTER_THREADS}; 0 sorts on the calling thread).
   */
  readonly sorterThreads?: number;
}

/**
 * Sorter threads unless told otherwise, whatever the cores: the threads spend much of their
 * time in write calls, so more of them than cores keeps the cores busy. On 2 cores, building
 * the three indexes of 5,000,000 rows took 9.4 to 10.2 s with 4 threads against 10.2 to 12.2 s
 * with 2 (five runs each, alternating; same CPU time and RSS); 8 were no faster and added 20
 * MiB. Against 0 (the calling thread alone), 2 had taken a third off each build.
 */
export const DEFAULT_SORTER_THREADS = 4;

/** An index of the ledger as SQLite keeps it. */
export interface StoredIndex {
  readonly name: string;
  readonly sql: string;
  readonly unique: boolean;
}

/** Values of one row, in {@link COLUMNS} order, written into `into` at `at`. */
function putValues(into: unknown[], at: number, r: LedgerTransfer): void {
  into[at] = r.network;
  into[at + 1] = r.txHash;
  into[at + 2] = r.logIndex;
  into[at + 3] = r.tokenId;
  into[at + 4] = r.from;
  into[at + 5] = r.to;
  into[at + 6] = r.amount;
  into[at + 7] = r.occurredAt;
  into[at + 8] = r.block;
  into[at + 9] = r.valueUsd;
}

/**
 * A function inserting rows into `table` (schema-qualified), 50 rows per statement. The values
 * go to `run` as arguments, not as one array: better-sqlite3 reads an array element by element
 * through V8's generic property lookup, which took about a quarter of the binding time (1.5
 * against 2.0 µs a row, inserting 1M rows into an in-memory table).
 */
export function rowInserter(
  sqlite: BetterSqlite3.Database,
  table: string,
): (rows: ReadonlyArray<LedgerTransfer>) => void {
  const one = `(${Array(10).fill("?").join(", ")})`;
  const many = sqlite.prepare(
    `INSERT INTO ${table} (${COLUMNS}) VALUES ${Array(ROWS_PER_STATEMENT).fill(one).join(", ")}`,
  );
  const each = sqlite.prepare(`INSERT INTO ${table} (${COLUMNS}) VALUES ${one}`);
  const params: unknown[] = new Array(10 * ROWS_PER_STATEMENT);
  const single: unknown[] = new Array(10);
  return (rows) => {
    let at = 0;
    for (; at + ROWS_PER_STATEMENT <= rows.length; at += ROWS_PER_STATEMENT) {
      for (let i = 0; i < ROWS_PER_STATEMENT; i++) putValues(params, i * 10, rows[at + i] as LedgerTransfer);
      many.run(...params);
    }
    for (; at < rows.length; at++) {
      putValues(single, 0, rows[at] as LedgerTransfer);
      each.run(...single);
    }
  };
}

/** The error of a batch the ledger refused (its transaction or savepoint rolled back). */
export function refusedBatch(error: unknown): KytError {
  return new KytError("STORE_ERROR", `the bulk ledger load refused a batch: ${describeError(error)}`, {
    cause: error,
  });
}

/** The highest rowid of the ledger: 0 when it is empty. */
export function storedRows(sqlite: BetterSqlite3.Database): number {
  const row = sqlite.prepare("SELECT max(rowid) AS n FROM main.ledger_transfers").get() as {
    n: number | null;
  };
  return row.n ?? 0;
}

/**
 * The ledger's indexes with their SQL, unique ones first, to drop and recreate exactly as the
 * migrations made them. A primary key (a database not migrated past 0005) is not among them.
 */
export function ledgerIndexes(sqlite: BetterSqlite3.Database): StoredIndex[] {
  const rows = sqlite
    .prepare(
      "SELECT name, sql FROM main.sqlite_master WHERE type = 'index' AND tbl_name = 'ledger_transfers' AND sql IS NOT NULL ORDER BY name",
    )
    .all() as Array<{ name: string; sql: string }>;
  const indexes = rows.map((r) => ({ ...r, unique: /^\s*CREATE\s+UNIQUE\b/i.test(r.sql) }));
  return [...indexes.filter((i) => i.unique), ...indexes.filter((i) => !i.unique)];
}

/** Drops `indexes` (inside the load's transaction, so a rollback brings them back). */
export function dropIndexes(sqlite: BetterSqlite3.Database, indexes: ReadonlyArray<StoredIndex>): void {
  for (const index of indexes) sqlite.exec(`DROP INDEX main."${index.name}"`);
}

/** Deletes every row whose key a row with a lower rowid has (the row stored first wins). */
const DELETE_REPEATED_KEYS = `DELETE FROM main.ledger_transfers WHERE rowid IN (SELECT r FROM (SELECT rowid AS r, row_number() OVER (PARTITION BY ${KEY} ORDER BY rowid) AS n FROM main.ledger_transfers) WHERE n > 1)`;

/**
 * Builds `indexes` again, each from one sort. When a unique index (the key) fails over a
 * repeated key, the later rows of each key are deleted and the index built again. Answers how
 * many rows were deleted.
 */
export function buildIndexes(sqlite: BetterSqlite3.Database, indexes: ReadonlyArray<StoredIndex>): number {
  let deleted = 0;
  for (const index of indexes) {
    try {
      sqlite.exec(index.sql);
    } catch (error) {
      if (!index.unique || !isUniqueViolation(SQLITE_STORE_DIALECT, error)) throw error;
      deleted += sqlite.prepare(DELETE_REPEATED_KEYS).run().changes;
      sqlite.exec(index.sql);
    }
  }
  return deleted;
}

/**
 * Switches a WAL database to a rollback journal for one large transaction, when no other
 * connection has it open (SQLite refuses otherwise, and the load then goes through the WAL),
 * with `synchronous = FULL` meanwhile (NORMAL is only corruption-safe with the WAL). Answers how
 * to go back. Runs outside a transaction.
 */
export function rollbackJournalWhileAlone(sqlite: BetterSqlite3.Database): () => void {
  if (sqlite.memory) return () => {};
  const synchronous = sqlite.pragma("synchronous", { simple: true }) as number;
  let mode: unknown;
  try {
    if (sqlite.pragma("journal_mode", { simple: true }) !== "wal") return () => {};
    mode = sqlite.pragma("journal_mode = DELETE", { simple: true });
  } catch {
    return () => {};
  }
  if (mode !== "delete") return () => {};
  sqlite.pragma("synchronous = FULL");
  return () => {
    sqlite.pragma("journal_mode = WAL");
    sqlite.pragma(`synchronous = ${synchronous}`);
  };
}

/**
 * Sets the page cache and sorter threads for building indexes; answers how to put them back.
 */
export function sortingPragmas(sqlite: BetterSqlite3.Database, options: SqliteBulkLedgerOptions): () => void {
  const cacheBefore = sqlite.pragma("cache_size", { simple: true }) as number;
  sqlite.pragma(`cache_size = -${(options.cacheMiB ?? 8) * 1024}`);
  sqlite.pragma(`threads = ${options.sorterThreads ?? DEFAULT_SORTER_THREADS}`);
  return () => {
    sqlite.pragma("threads = 0");
    sqlite.pragma(`cache_size = ${cacheBefore}`);
  };
}

/** Copies a load that went through the WAL into the database file and cuts the WAL back. */
export function checkpointAfterLoad(sqlite: BetterSqlite3.Database): void {
  if (!sqlite.memory) sqlite.pragma("main.wal_checkpoint(TRUNCATE)");
}
