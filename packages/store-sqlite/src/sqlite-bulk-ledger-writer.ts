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
 * Every statement runs while holding kysely's connection (`db.connection()`), so the load never
 * interleaves with the store's own transactions on that connection.
 */
import { availableParallelism } from "node:os";
import type { LedgerBulkWriter, LedgerTransfer } from "@openkyt/core";
import { describeError, KytError } from "@openkyt/core";
import type { Database } from "@openkyt/store-kysely";
import type BetterSqlite3 from "better-sqlite3";
import type { Kysely } from "kysely";

const COLUMNS =
  "network, tx_hash, log_index, token_id, from_address, to_address, amount, occurred_at, block, value_usd";
/** The ledger's key, in the order of its index (migration 0006). */
const KEY = "tx_hash, network, log_index";
/** Rows per multi-row staging statement (10 parameters each): fewer calls into SQLite. */
const ROWS_PER_STATEMENT = 50;
/** Page cache of the temporary database that holds the staged rows, in KiB. */
const STAGING_CACHE_KIB = 2048;

/** Options of {@link sqliteBulkLedgerWriter}. */
export interface SqliteBulkLedgerOptions {
  /**
   * Page cache of the connection while `finish` runs, in MiB (default 8): SQLite's sorter
   * keeps about that much in memory per thread before it spills sorted runs to temporary files.
   * On 5,000,000 rows 32 and 64 MiB were no faster than 8 and added 100 and 220 MiB of RSS.
   */
  readonly cacheMiB?: number;
  /**
   * Rebuild the ledger's indexes when the staged rows are at least this share of the rows
   * already stored (default 1/16): a rebuild sorts every row once per index, while an insert
   * into an index larger than the page cache costs tens of times more per row.
   */
  readonly rebuildShare?: number;
  /**
   * Helper threads of SQLite's sorter while the indexes are rebuilt (default: the machine's
   * cores, at most 4; 0 sorts on the calling thread). On 2 cores, 2 threads took a third off
   * each index build.
   */
  readonly sorterThreads?: number;
}

/** An index of the ledger as SQLite keeps it. */
interface StoredIndex {
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
 * The ledger's indexes with their SQL, unique ones first, to drop and recreate exactly as the
 * migrations made them. A primary key (a database not migrated past 0005) is not among them.
 */
function ledgerIndexes(sqlite: BetterSqlite3.Database): StoredIndex[] {
  const rows = sqlite
    .prepare(
      "SELECT name, sql FROM main.sqlite_master WHERE type = 'index' AND tbl_name = 'ledger_transfers' AND sql IS NOT NULL ORDER BY name",
    )
    .all() as Array<{ name: string; sql: string }>;
  const indexes = rows.map((r) => ({ ...r, unique: /^\s*CREATE\s+UNIQUE\b/i.test(r.sql) }));
  return [...indexes.filter((i) => i.unique), ...indexes.filter((i) => !i.unique)];
}

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

/** Deletes every row whose key a row with a lower rowid has (the row stored first wins). */
const DELETE_REPEATED_KEYS = `DELETE FROM main.ledger_transfers WHERE rowid IN (SELECT r FROM (SELECT rowid AS r, row_number() OVER (PARTITION BY ${KEY} ORDER BY rowid) AS n FROM main.ledger_transfers) WHERE n > 1)`;

/** True when `error` is SQLite refusing a unique index over repeated values. */
function isUniqueViolation(error: unknown): boolean {
  return (error as { code?: unknown }).code === "SQLITE_CONSTRAINT_UNIQUE";
}

/**
 * Switches a WAL database to a rollback journal for one large transaction, when no other
 * connection has it open (SQLite refuses otherwise, and the load then goes through the WAL),
 * with `synchronous = FULL` meanwhile (NORMAL is only corruption-safe with the WAL). Answers how
 * to go back.
 */
function rollbackJournalWhileAlone(sqlite: BetterSqlite3.Database): () => void {
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

/** The sorter threads to use: the option, else the cores (at most 4). */
function sorterThreadsOf(options: SqliteBulkLedgerOptions): number {
  return options.sorterThreads ?? Math.min(4, availableParallelism());
}

/**
 * The `bulkLedgerWriter` member of a SQLite store: `db` is the store's kysely database and
 * `sqlite` the better-sqlite3 connection under it. Each load stages into a TEMP table of its own.
 */
export function sqliteBulkLedgerLoads(
  db: Kysely<Database>,
  sqlite: BetterSqlite3.Database,
  options: SqliteBulkLedgerOptions = {},
): () => Promise<LedgerBulkWriter> {
  let loads = 0;
  return async () => sqliteBulkLedgerWriter(db, sqlite, `ledger_bulk_${++loads}`, options);
}

/** One bulk load staged in `temp.<staging>`; see the module comment for how rows land. */
function sqliteBulkLedgerWriter(
  db: Kysely<Database>,
  sqlite: BetterSqlite3.Database,
  staging: string,
  options: SqliteBulkLedgerOptions,
): LedgerBulkWriter {
  const one = `(${Array(10).fill("?").join(", ")})`;
  let state: "new" | "open" | "ended" = "new";
  let staged = 0;
  let insertMany: BetterSqlite3.Statement | null = null;
  let insertOne: BetterSqlite3.Statement | null = null;
  const params: unknown[] = new Array(10 * ROWS_PER_STATEMENT);
  const single: unknown[] = new Array(10);

  /** Runs `fn` holding the store's connection. */
  const withConnection = <T>(fn: () => T): Promise<T> => db.connection().execute(async () => fn());

  const ensureOpen = () => {
    if (state === "ended") throw new KytError("STORE_ERROR", "the bulk ledger load has ended");
    if (state === "new") {
      sqlite.exec(stagingTableSql(sqlite, staging));
      // Staging only appends: a small page cache for the temporary database keeps memory flat.
      sqlite.pragma(`temp.cache_size = -${STAGING_CACHE_KIB}`);
      insertMany = sqlite.prepare(
        `INSERT INTO temp.${staging} (${COLUMNS}) VALUES ${Array(ROWS_PER_STATEMENT).fill(one).join(", ")}`,
      );
      insertOne = sqlite.prepare(`INSERT INTO temp.${staging} (${COLUMNS}) VALUES ${one}`);
      state = "open";
    }
  };

  const stage = (rows: ReadonlyArray<LedgerTransfer>) => {
    const many = insertMany as BetterSqlite3.Statement;
    const each = insertOne as BetterSqlite3.Statement;
    let at = 0;
    for (; at + ROWS_PER_STATEMENT <= rows.length; at += ROWS_PER_STATEMENT) {
      for (let i = 0; i < ROWS_PER_STATEMENT; i++) putValues(params, i * 10, rows[at + i] as LedgerTransfer);
      many.run(params);
    }
    for (; at < rows.length; at++) {
      putValues(single, 0, rows[at] as LedgerTransfer);
      each.run(single);
    }
  };

  /** Appends the staged rows in the order written and builds the dropped indexes again. */
  const rebuild = (indexes: ReadonlyArray<StoredIndex>): number => {
    for (const index of indexes) sqlite.exec(`DROP INDEX main."${index.name}"`);
    // `INSERT INTO t SELECT * FROM s` between tables declared alike, into a table without
    // indexes, is SQLite's transfer optimisation: records are copied as they are, in rowid
    // order, without decoding them (a third faster than a copy column by column).
    let added = sqlite
      .prepare(`INSERT INTO main.ledger_transfers SELECT * FROM temp.${staging}`)
      .run().changes;
    for (const index of indexes) {
      try {
        sqlite.exec(index.sql);
      } catch (error) {
        if (!index.unique || !isUniqueViolation(error)) throw error;
        added -= sqlite.prepare(DELETE_REPEATED_KEYS).run().changes;
        sqlite.exec(index.sql);
      }
    }
    return added;
  };

  /** Lands the staged rows; answers how many were new. Runs inside finish's transaction. */
  const land = (indexes: ReadonlyArray<StoredIndex>): number =>
    indexes.length > 0 ? rebuild(indexes) : sqlite.prepare(mergeSql(staging)).run().changes;

  const dropStaging = () => {
    insertMany = null;
    insertOne = null;
    if (state === "open") sqlite.exec(`DROP TABLE IF EXISTS temp.${staging}`);
    state = "ended";
  };

  /** Whether to rebuild: a large load next to the ledger, whose key index can be dropped. */
  const rebuildIndexes = (): StoredIndex[] => {
    const stored = (
      sqlite.prepare("SELECT max(rowid) AS n FROM main.ledger_transfers").get() as { n: number | null }
    ).n;
    if (staged === 0 || staged < (stored ?? 0) * (options.rebuildShare ?? 1 / 16)) return [];
    const indexes = ledgerIndexes(sqlite);
    return indexes.some((i) => i.unique) ? indexes : [];
  };

  return {
    write: (rows) =>
      withConnection(() => {
        ensureOpen();
        if (rows.length === 0) return;
        try {
          sqlite.transaction(stage)(rows);
        } catch (error) {
          // The batch's transaction rolled back: none of its rows is staged.
          throw new KytError("STORE_ERROR", `the bulk ledger load refused a batch: ${describeError(error)}`, {
            cause: error,
          });
        }
        staged += rows.length;
      }),
    finish: () =>
      withConnection(() => {
        ensureOpen();
        const cacheBefore = sqlite.pragma("cache_size", { simple: true }) as number;
        let leaveJournal = () => {};
        let added: number;
        try {
          const indexes = rebuildIndexes();
          if (indexes.length > 0) leaveJournal = rollbackJournalWhileAlone(sqlite);
          sqlite.pragma(`cache_size = -${(options.cacheMiB ?? 8) * 1024}`);
          sqlite.pragma(`threads = ${sorterThreadsOf(options)}`);
          added = sqlite.transaction(land).immediate(indexes);
        } catch (error) {
          throw new KytError("STORE_ERROR", "the bulk ledger load failed", { cause: error });
        } finally {
          sqlite.pragma("threads = 0");
          sqlite.pragma(`cache_size = ${cacheBefore}`);
          dropStaging();
          leaveJournal();
        }
        // A load that went through the WAL went in one transaction: copy it into the database
        // now and cut the WAL file back, instead of leaving a WAL as large as the load.
        if (!sqlite.memory) sqlite.pragma("main.wal_checkpoint(TRUNCATE)");
        return added;
      }),
    abort: () =>
      withConnection(() => {
        if (state !== "ended") dropStaging();
      }),
  };
}
