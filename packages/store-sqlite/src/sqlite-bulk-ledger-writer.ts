/**
 * The SQLite store's bulk ledger load (`Store.bulkLedgerWriter`). Inserting millions of rows one
 * batch at a time updates three B-trees keyed by random strings (the key on the transaction hash
 * and the incoming/outgoing tracing indexes); once they outgrow the page cache every row dirties
 * pages all over them. Here `write` appends rows to an unindexed TEMP table of the store's own
 * connection (a short transaction per batch, on the temporary database only: the store stays
 * usable and writable meanwhile), and `finish` lands them in one IMMEDIATE transaction, in one
 * of two ways:
 *
 * - **Rebuild** (the load is large next to the ledger, an empty ledger above all): the ledger's
 *   indexes, its key included (migration 0006 made it a droppable unique index), are dropped;
 *   the rows are appended in the order they were written; the indexes are built again, each
 *   from one sort, the sorter on `sorterThreads` threads. A load that repeats a key (within
 *   itself or with a row already stored) makes the key's build fail; its later rows are then
 *   deleted (the row stored first wins) and the key built again. When no other connection has
 *   the database open, the transaction runs with a rollback journal instead of the WAL: the
 *   new pages are written once, into the database file, instead of into the WAL first and the
 *   database file after (at the end the database is back in WAL mode).
 * - **Merge** (a small load into a large ledger): the rows go in sorted by key, with
 *   `ON CONFLICT DO NOTHING`, so that the key index grows in order.
 *
 * A load opened `exclusive` on an empty ledger skips the staging table: see
 * `sqlite-direct-ledger-load.ts`.
 *
 * Every statement runs while holding kysely's connection (`db.connection()`), so the load never
 * interleaves with the store's own transactions on that connection.
 */
import type { LedgerBulkOptions, LedgerBulkWriter, LedgerTransfer } from "@openkyt/core";
import { KytError } from "@openkyt/core";
import type { Database } from "@openkyt/store-kysely";
import type BetterSqlite3 from "better-sqlite3";
import type { Kysely } from "kysely";
import { openDirectLedgerLoad } from "./sqlite-direct-ledger-load.js";
import {
  buildIndexes,
  COLUMNS,
  checkpointAfterLoad,
  dropIndexes,
  KEY,
  ledgerIndexes,
  refusedBatch,
  rollbackJournalWhileAlone,
  rowInserter,
  type SqliteBulkLedgerOptions,
  type StoredIndex,
  sortingPragmas,
  storedRows,
} from "./sqlite-ledger-load-steps.js";

/** Page cache of the temporary database that holds the staged rows, in KiB. */
const STAGING_CACHE_KIB = 2048;

/**
 * The staging table: declared as the ledger is (same columns, types and NOT NULLs), which lets
 * the rebuild copy its records unchanged; a ledger declared in an unexpected way gets a table
 * of the same columns instead.
 */
function stagingTableSql(sqlite: BetterSqlite3.Database, staging: string): string {
  const declared = sqlite
    .prepare("SELECT sql FROM main.sqlite_master WHERE type = 'table' AND name = 'ledger_transfers'")
    .pluck()
    .get();
  const prefix = /^CREATE TABLE\s+(?:"ledger_transfers"|ledger_transfers)\s*\(/i;
  return typeof declared === "string" && prefix.test(declared)
    ? declared.replace(prefix, `CREATE TEMP TABLE ${staging} (`)
    : `CREATE TEMP TABLE ${staging} AS SELECT ${COLUMNS} FROM main.ledger_transfers WHERE 0`;
}

/** Staged rows that sort by key, then by the order they were written (the first one wins). */
function mergeSql(staging: string): string {
  return `INSERT INTO main.ledger_transfers (${COLUMNS}) SELECT ${COLUMNS} FROM temp.${staging} ORDER BY ${KEY}, rowid ON CONFLICT (network, tx_hash, log_index) DO NOTHING`;
}

/**
 * The `bulkLedgerWriter` member of a SQLite store: `db` is the store's kysely database and
 * `sqlite` the better-sqlite3 connection under it. Each staged load has a TEMP table of its own;
 * an `exclusive` load goes straight into an empty ledger (else it is staged too).
 */
export function sqliteBulkLedgerLoads(
  db: Kysely<Database>,
  sqlite: BetterSqlite3.Database,
  options: SqliteBulkLedgerOptions = {},
): (load?: LedgerBulkOptions) => Promise<LedgerBulkWriter> {
  let loads = 0;
  return async (load) => {
    const staging = `ledger_bulk_${++loads}`;
    if (load?.exclusive === true) {
      const direct = await openDirectLedgerLoad(db, sqlite, options);
      if (direct !== null) return direct;
    }
    return stagedLedgerLoad(db, sqlite, staging, options);
  };
}

/** One bulk load staged in `temp.<staging>`; see the module comment for how rows land. */
function stagedLedgerLoad(
  db: Kysely<Database>,
  sqlite: BetterSqlite3.Database,
  staging: string,
  options: SqliteBulkLedgerOptions,
): LedgerBulkWriter {
  let state: "new" | "open" | "ended" = "new";
  let staged = 0;
  let stage: ((rows: ReadonlyArray<LedgerTransfer>) => void) | null = null;

  /** Runs `fn` holding the store's connection. */
  const withConnection = <T>(fn: () => T): Promise<T> => db.connection().execute(async () => fn());

  const ensureOpen = (): ((rows: ReadonlyArray<LedgerTransfer>) => void) => {
    if (state === "ended") throw new KytError("STORE_ERROR", "the bulk ledger load has ended");
    if (stage === null) {
      sqlite.exec(stagingTableSql(sqlite, staging));
      // Staging only appends: a small page cache for the temporary database keeps memory flat.
      sqlite.pragma(`temp.cache_size = -${STAGING_CACHE_KIB}`);
      stage = rowInserter(sqlite, `temp.${staging}`);
      state = "open";
    }
    return stage;
  };

  /** Appends the staged rows in the order written and builds the dropped indexes again. */
  const rebuild = (indexes: ReadonlyArray<StoredIndex>): number => {
    dropIndexes(sqlite, indexes);
    // `INSERT INTO t SELECT * FROM s` between tables declared alike, into a table without
    // indexes, is SQLite's transfer optimisation: records are copied as they are, in rowid
    // order, without decoding them (a third faster than a copy column by column).
    const added = sqlite
      .prepare(`INSERT INTO main.ledger_transfers SELECT * FROM temp.${staging}`)
      .run().changes;
    return added - buildIndexes(sqlite, indexes);
  };

  /** Lands the staged rows; answers how many were new. Runs inside finish's transaction. */
  const land = (indexes: ReadonlyArray<StoredIndex>): number =>
    indexes.length > 0 ? rebuild(indexes) : sqlite.prepare(mergeSql(staging)).run().changes;

  const dropStaging = () => {
    stage = null;
    if (state === "open") sqlite.exec(`DROP TABLE IF EXISTS temp.${staging}`);
    state = "ended";
  };

  /** Whether to rebuild: a large load next to the ledger, whose key index can be dropped. */
  const rebuildIndexes = (): StoredIndex[] => {
    if (staged === 0 || staged < storedRows(sqlite) * (options.rebuildShare ?? 1 / 16)) return [];
    const indexes = ledgerIndexes(sqlite);
    return indexes.some((i) => i.unique) ? indexes : [];
  };

  return {
    write: (rows) =>
      withConnection(() => {
        const insert = ensureOpen();
        if (rows.length === 0) return;
        try {
          sqlite.transaction(insert)(rows);
        } catch (error) {
          // The batch's transaction rolled back: none of its rows is staged.
          throw refusedBatch(error);
        }
        staged += rows.length;
      }),
    finish: () =>
      withConnection(() => {
        ensureOpen();
        let leaveJournal = () => {};
        let restore = () => {};
        let added: number;
        try {
          const indexes = rebuildIndexes();
          if (indexes.length > 0) leaveJournal = rollbackJournalWhileAlone(sqlite);
          restore = sortingPragmas(sqlite, options);
          added = sqlite.transaction(land).immediate(indexes);
        } catch (error) {
          throw new KytError("STORE_ERROR", "the bulk ledger load failed", { cause: error });
        } finally {
          restore();
          dropStaging();
          leaveJournal();
        }
        checkpointAfterLoad(sqlite);
        return added;
      }),
    abort: () =>
      withConnection(() => {
        if (state !== "ended") dropStaging();
      }),
  };
}
