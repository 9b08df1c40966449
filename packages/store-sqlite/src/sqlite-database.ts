/** Opening a SQLite database through better-sqlite3 as a kysely database, with the store's pragmas. */
import type { Database } from "@openkyt/store-kysely";
import BetterSqlite3 from "better-sqlite3";
import { Kysely, SqliteDialect } from "kysely";

/** In-memory database filename. */
export const SQLITE_MEMORY = ":memory:";

/**
 * Opens (creating if needed) the SQLite database at `filename` (a path, or ":memory:") with the
 * store's pragmas: WAL journal for files, synchronous NORMAL, foreign keys on, a 5 s busy timeout.
 * The caller destroys the returned database (a store's `close()` does).
 */
export function openSqliteDatabase(filename: string): Kysely<Database> {
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
  return new Kysely<Database>({ dialect: new SqliteDialect({ database: sqlite }) });
}
