/** @openkyt/store-sqlite: OpenKYT's embedded default store, SQLite (WAL) through better-sqlite3. */
export {
  DEFAULT_PAGE_SIZE,
  openSqliteDatabase,
  SQLITE_MEMORY,
  type SqliteOpenOptions,
} from "./sqlite-database.js";
export { SQLITE_STORE_CAPABILITIES, SQLITE_STORE_DIALECT } from "./sqlite-dialect.js";
export { createSqliteStore, type SqliteStoreOptions } from "./sqlite-store.js";
