/**
 * The SQLite store's bulk ledger load (`Store.bulkLedgerWriter`). Inserting millions of rows one
 * batch at a time updates three B-trees keyed by random strings (the key on the transaction hash
 * and the incoming/outgoing tracing indexes); once they outgrow the page cache every row dirties
 * pages all over them. Here `write` appends rows to an unindexed TEMP table of the store's own
 * connection (a short transaction per batch, on the temporary database only: the store stays
 * writable meanwhile), and `finish` moves them into the ledger in one IMMEDIATE transaction,
 * sorted by key so that the table and its key index grow at their ends. When the load is large
 * next to the ledger (an empty ledger above all), the two tracing indexes are dropped first and
 * rebuilt afterwards: a sort each instead of millions of random inserts.
 *
 * Every statement runs while holding kysely's connection (`db.connection()`), so the load never
 * interleaves with the store's own transactions on that connection.
 */
import type { LedgerBulkWriter, LedgerTransfer } from "@openkyt/core";
import { KytError } from "@openkyt/core";
import type { Database } from "@openkyt/store-kysely";
import type BetterSqlite3 from "better-sqlite3";
import type { Kysely } from "kysely";

const COLUMNS =
  "network, tx_hash, log_index, token_id, from_address, to_address, amount, occurred_at, block, value_usd";
/** Rows per multi-row staging statement (10 parameters each): fewer calls into SQLite. */
const ROWS_PER_STATEMENT = 50;
/** Page cache of the temporary database that holds the staged rows, in KiB. */
const STAGING_CACHE_KIB = 2048;
/** The tracing indexes, dropped and rebuilt around a large load (the key index always stays). */
const TRACING_INDEXES = ["ledger_transfers_incoming", "ledger_transfers_outgoing"] as const;

/** Options of {@link sqliteBulkLedgerWriter}. */
export interface SqliteBulkLedgerOptions {
  /**
   * Page cache of the connection while `finish` runs, in MiB (default 8): SQLite's sorter
   * keeps about that much in memory before it spills sorted runs to temporary files. On a
   * 2,000,000-row load 8 and 32 MiB cost the same CPU time within the noise; 32 MiB added about
   * 50 MiB to the peak RSS.
   */
  readonly cacheMiB?: number;
  /**
   * Rebuild the tracing indexes when the staged rows are at least this share of the rows
   * already stored (default 1/16): a rebuild sorts every row once, while an insert into an
   * index larger than the page cache costs tens of times more per row.
   */
  readonly rebuildShare?: number;
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

/** SQL of the tracing indexes as stored, to recreate them exactly as the migrations made them. */
function tracingIndexSql(sqlite: BetterSqlite3.Database): Array<{ name: string; sql: string }> {
  const rows = sqlite
    .prepare(
      `SELECT name, sql FROM main.sqlite_master WHERE type = 'index' AND tbl_name = 'ledger_transfers' AND name IN (${TRACING_INDEXES.map(() => "?").join(", ")})`,
    )
    .all(...TRACING_INDEXES) as Array<{ name: string; sql: string }>;
  return rows;
}

/** Staged rows that sort by key, then by the order they were written (the first one wins). */
function mergeSql(staging: string): string {
  return `INSERT INTO main.ledger_transfers (${COLUMNS}) SELECT ${COLUMNS} FROM temp.${staging} ORDER BY network, tx_hash, log_index, rowid ON CONFLICT (network, tx_hash, log_index) DO NOTHING`;
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
      sqlite.exec(`CREATE TEMP TABLE ${staging} AS SELECT ${COLUMNS} FROM main.ledger_transfers WHERE 0`);
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

  const merge = (): number => {
    const stored = (
      sqlite.prepare("SELECT max(rowid) AS n FROM main.ledger_transfers").get() as { n: number | null }
    ).n;
    const rebuild = staged > 0 && staged >= (stored ?? 0) * (options.rebuildShare ?? 1 / 16);
    const indexes = rebuild ? tracingIndexSql(sqlite) : [];
    for (const index of indexes) sqlite.exec(`DROP INDEX main."${index.name}"`);
    const added = sqlite.prepare(mergeSql(staging)).run().changes;
    for (const index of indexes) sqlite.exec(index.sql);
    return added;
  };

  const dropStaging = () => {
    insertMany = null;
    insertOne = null;
    if (state === "open") sqlite.exec(`DROP TABLE IF EXISTS temp.${staging}`);
    state = "ended";
  };

  return {
    write: (rows) =>
      withConnection(() => {
        ensureOpen();
        if (rows.length === 0) return;
        sqlite.transaction(stage)(rows);
        staged += rows.length;
      }),
    finish: () =>
      withConnection(() => {
        ensureOpen();
        const cacheBefore = sqlite.pragma("cache_size", { simple: true }) as number;
        sqlite.pragma(`cache_size = -${(options.cacheMiB ?? 8) * 1024}`);
        let added: number;
        try {
          added = sqlite.transaction(merge).immediate();
        } catch (error) {
          throw new KytError("STORE_ERROR", "the bulk ledger load failed", { cause: error });
        } finally {
          sqlite.pragma(`cache_size = ${cacheBefore}`);
          dropStaging();
        }
        // The load went through the WAL in one transaction: copy it into the database now and
        // cut the WAL file back, instead of leaving a WAL as large as the load.
        sqlite.pragma("wal_checkpoint(TRUNCATE)");
        return added;
      }),
    abort: () =>
      withConnection(() => {
        if (state !== "ended") dropStaging();
      }),
  };
}
