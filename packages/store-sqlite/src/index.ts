/** @openkyt/store-sqlite: OpenKYT's embedded default store, SQLite (WAL) through better-sqlite3. */
export { openSqliteDatabase, SQLITE_MEMORY } from "./sqlite-database.js";
export { createSqliteStore, SQLITE_STORE_CAPABILITIES, type SqliteStoreOptions } from "./sqlite-store.js";
