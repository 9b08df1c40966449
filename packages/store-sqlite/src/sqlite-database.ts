/** Opening a SQLite database through better-sqlite3 as a kysely database, with the store's pragmas. */
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
 * store's pragmas: WAL journal for files, synchronous NORMAL, foreign keys on, a 5 s busy timeout.
 * Transactions begin IMMEDIATE (see {@link ImmediateSqliteDriver}). The caller destroys the
 * returned database (a store's `close()` does).
 */
export function openSqliteDatabase(filename: string): Kysely<Database> {
  return openSqliteConnection(filename).db;
}

/** {@link openSqliteDatabase}, also answering the better-sqlite3 connection under the kysely database. */
export function openSqliteConnection(filename: string): {
  readonly db: Kysely<Database>;
  readonly sqlite: BetterSqlite3.Database;
} {
  const sqlite = new BetterSqlite3(filename);
  try {
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
