/**
 * The SQLite store's direct bulk load: a load opened `exclusive` (the caller uses the store for
 * nothing else until it ends, as `openkyt import` does) into an empty ledger. It skips the
 * staging table and its copy: the load holds the store's connection from its opening to its
 * end, in one IMMEDIATE transaction (under a rollback journal when no other connection has the
 * database open); it drops the ledger's indexes at once, `write` appends each batch to the
 * ledger itself (a savepoint per batch, so a refused batch leaves none of its rows), and
 * `finish` builds the indexes again, deletes the later rows of a repeated key if the key's
 * build finds one, and commits. `abort` rolls everything back, the indexes included.
 *
 * Nothing is visible to other connections before the commit. The store's own operations wait
 * for the load to end: called from the flow that drives the load, one would wait forever,
 * which is what `exclusive` rules out.
 */

import { KytError, type LedgerBulkWriter, type LedgerTransfer } from "@openkyt/core";
import type { Database } from "@openkyt/store-kysely";
import type BetterSqlite3 from "better-sqlite3";
import type { Kysely } from "kysely";
import {
  buildIndexes,
  checkpointAfterLoad,
  dropIndexes,
  ledgerIndexes,
  refusedBatch,
  rollbackJournalWhileAlone,
  rowInserter,
  type SqliteBulkLedgerOptions,
  sortingPragmas,
  storedRows,
} from "./sqlite-ledger-load-steps.js";

/** Takes kysely's connection and keeps it until the answered function is called. */
export async function holdConnection(db: Kysely<Database>): Promise<() => Promise<void>> {
  let release = () => {};
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  let held = () => {};
  const holding = new Promise<void>((resolve) => {
    held = resolve;
  });
  const done = db.connection().execute(async () => {
    held();
    await released;
  });
  await Promise.race([holding, done]);
  return async () => {
    release();
    await done;
  };
}

/**
 * Opens a direct load when the ledger is empty and its key can be dropped; answers null
 * otherwise (the caller stages the load instead), having held nothing.
 */
export async function openDirectLedgerLoad(
  db: Kysely<Database>,
  sqlite: BetterSqlite3.Database,
  options: SqliteBulkLedgerOptions,
): Promise<LedgerBulkWriter | null> {
  const release = await holdConnection(db);
  let leaveJournal = () => {};
  let restore = () => {};
  /**
   * Ends the hold: rolls back what is not committed, puts the pragmas and the journal back,
   * checkpoints a load that went through the WAL, and gives the connection back whatever fails.
   */
  const giveBack = async () => {
    try {
      if (sqlite.inTransaction) sqlite.exec("ROLLBACK");
      restore();
      leaveJournal();
      checkpointAfterLoad(sqlite);
    } finally {
      await release();
    }
  };
  let indexes: ReturnType<typeof ledgerIndexes>;
  let insert: (rows: ReadonlyArray<LedgerTransfer>) => void;
  try {
    indexes = ledgerIndexes(sqlite);
    if (storedRows(sqlite) > 0 || !indexes.some((i) => i.unique)) {
      await giveBack();
      return null;
    }
    leaveJournal = rollbackJournalWhileAlone(sqlite);
    restore = sortingPragmas(sqlite, options);
    sqlite.exec("BEGIN IMMEDIATE");
    // Another process may have written between the look above and the write lock.
    if (storedRows(sqlite) > 0) {
      await giveBack();
      return null;
    }
    dropIndexes(sqlite, indexes);
    insert = rowInserter(sqlite, "main.ledger_transfers");
  } catch (error) {
    await giveBack().catch(() => {});
    throw new KytError("STORE_ERROR", "the bulk ledger load could not start", { cause: error });
  }

  let state: "open" | "ended" = "open";
  let appended = 0;
  const batch = sqlite.transaction((rows: ReadonlyArray<LedgerTransfer>) => insert(rows));
  const ensureOpen = () => {
    if (state === "ended") throw new KytError("STORE_ERROR", "the bulk ledger load has ended");
  };
  const end = async () => {
    state = "ended";
    await giveBack();
  };

  return {
    async write(rows) {
      ensureOpen();
      if (rows.length === 0) return;
      try {
        // Inside the load's transaction this is a savepoint: a refused batch leaves none of its rows.
        batch(rows);
      } catch (error) {
        throw refusedBatch(error);
      }
      appended += rows.length;
    },
    async finish() {
      ensureOpen();
      let added: number;
      try {
        added = appended - buildIndexes(sqlite, indexes);
        sqlite.exec("COMMIT");
      } catch (error) {
        // The load's own error says what went wrong; a failure to put things back would hide it.
        await end().catch(() => {});
        throw new KytError("STORE_ERROR", "the bulk ledger load failed", { cause: error });
      }
      await end();
      return added;
    },
    async abort() {
      if (state !== "ended") await end();
    },
  };
}
