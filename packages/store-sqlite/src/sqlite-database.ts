/** Opening a SQLite database through better-sqlite3 as a kysely database, with the store's pragmas. */
import { fieldError } from "@openkyt/core";
import type { Database } from "@openkyt/store-kysely";
import BetterSqlite3 from "better-sqlite3";
import {
  CompiledQuery,
  type DatabaseConnection,
  type Dialect,
  Kysely,
  SqliteAdapter,
  SqliteDriver,
  SqliteIntrospector,
  SqliteQueryCompiler,
} from "kysely";
import { cachingDatabase } from "./sqlite-statement-cache.js";

/** In-memory database filename. */
export const SQLITE_MEMORY = ":memory:";

/**
 * Page size of the databases the store creates, in bytes. SQLite's default is 4 KiB; with 16
 * KiB a 5M-row ledger import made a quarter as many write calls (each about 6 µs of kernel time
 * on the 2-vCPU machines measured, whatever its size up to 16 KiB) and took 42 instead of 47 CPU
 * seconds, while cold 5-hop traces and screening throughput were the same within the runs'
 * spread (docs/data.md, section 9).
 */
export const DEFAULT_PAGE_SIZE = 16384;

/** Options of {@link openSqliteDatabase}. */
export interface SqliteOpenOptions {
  /**
   * Page size, in bytes, of a database created by this opening (default {@link
   * DEFAULT_PAGE_SIZE}): a power of two from 512 to 65536. An existing database keeps its own.
   */
  readonly pageSize?: number;
}

/** The page size of `options`, checked. */
function pageSizeOf(options: SqliteOpenOptions): number {
  const size = options.pageSize ?? DEFAULT_PAGE_SIZE;
  if (!Number.isInteger(size) || size < 512 || size > 65536 || (size & (size - 1)) !== 0)
    throw fieldError("pageSize", `must be a power of two from 512 to 65536, not ${size}`);
  return size;
}

/**
 * kysely's SQLite driver, except that transactions begin IMMEDIATE: a transaction takes the
 * database's write lock when it starts, so a second process waits for it (up to the busy
 * timeout) instead of failing with SQLITE_BUSY when its read turns into a write.
 */
class ImmediateSqliteDriver extends SqliteDriver {
  override async beginTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw("begin immediate"));
  }
}

/** The SQLite dialect over `sqlite`, with {@link ImmediateSqliteDriver}. */
function immediateSqliteDialect(sqlite: BetterSqlite3.Database): Dialect {
  return {
    createAdapter: () => new SqliteAdapter(),
    createDriver: () => new ImmediateSqliteDriver({ database: cachingDatabase(sqlite) }),
    createIntrospector: (db) => new SqliteIntrospector(db),
    createQueryCompiler: () => new SqliteQueryCompiler(),
  };
}

/**
 * Opens (creating if needed) the SQLite database at `filename` (a path, or ":memory:") with the
 * store's pragmas: the page size of `options` for a new database, WAL journal for files,
 * synchronous NORMAL, foreign keys on, a 5 s busy timeout. Transactions begin IMMEDIATE (see
 * {@link ImmediateSqliteDriver}). The caller destroys the returned database (a store's
 * `close()` does).
 */
export function openSqliteDatabase(filename: string, options: SqliteOpenOptions = {}): Kysely<Database> {
  return openSqliteConnection(filename, options).db;
}

/** {@link openSqliteDatabase}, also answering the better-sqlite3 connection under the kysely database. */
export function openSqliteConnection(
  filename: string,
  options: SqliteOpenOptions = {},
): {
  readonly db: Kysely<Database>;
  readonly sqlite: BetterSqlite3.Database;
} {
  const pageSize = pageSizeOf(options);
  const sqlite = new BetterSqlite3(filename);
  try {
    // Only a database with nothing written yet takes it; it must come before the WAL switch,
    // which writes the first page.
    sqlite.pragma(`page_size = ${pageSize}`);
    if (filename !== SQLITE_MEMORY && filename !== "") sqlite.pragma("journal_mode = WAL");
    sqlite.pragma("synchronous = NORMAL");
    sqlite.pragma("foreign_keys = ON");
    sqlite.pragma("busy_timeout = 5000");
  } catch (error) {
    sqlite.close();
    throw error;
  }
  return { db: new Kysely<Database>({ dialect: immediateSqliteDialect(sqlite) }), sqlite };
}
