/** The SQLite backend of the kysely store: what it changes from the base dialect. */
import type { StoreCapabilities } from "@openkyt/core";
import { defineStoreDialect } from "@openkyt/store-kysely";

/** Capabilities of the SQLite store: one process claims jobs. */
export const SQLITE_STORE_CAPABILITIES: StoreCapabilities = Object.freeze({
  multiProcess: false,
  dialect: "sqlite",
});

/**
 * What SQLite changes in the kysely store: one connection, so transactions arriving together
 * commit together (group commit) and the database's write lock serialises them (no row locks,
 * no SKIP LOCKED); the ledger in rowid order; better-sqlite3's unique-violation codes.
 */
export const SQLITE_STORE_DIALECT = defineStoreDialect({
  name: "sqlite",
  capabilities: SQLITE_STORE_CAPABILITIES,
  groupCommit: true,
  ledgerOrder: "rowid",
  uniqueViolationCodes: Object.freeze(["SQLITE_CONSTRAINT_UNIQUE", "SQLITE_CONSTRAINT_PRIMARYKEY"]),
});
