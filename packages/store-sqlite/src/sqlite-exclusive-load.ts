/**
 * The hold both direct bulk loads of the SQLite store start with (the account ledger's,
 * `sqlite-direct-ledger-load.ts`, and the UTXO ledger's, `sqlite-utxo-bulk-load.ts`): a load
 * opened `exclusive` into empty tables takes the store's connection from its opening to its
 * end, switches to a rollback journal when no other connection has the database open, sets the
 * sorter's pragmas for the index builds, and runs in one IMMEDIATE transaction. Ending it rolls
 * back what is not committed, puts the pragmas and the journal back, checkpoints a load that
 * went through the WAL and gives the connection back, whatever fails.
 *
 * Nothing is visible to other connections before the commit. The store's own operations wait
 * for the load to end: called from the flow that drives the load, one would wait forever,
 * which is what `exclusive` rules out.
 */

import { KytError } from "@openkyt/core";
import type { Database } from "@openkyt/store-kysely";
import type BetterSqlite3 from "better-sqlite3";
import type { Kysely } from "kysely";
import {
  checkpointAfterLoad,
  rollbackJournalWhileAlone,
  type SqliteBulkLedgerOptions,
  sortingPragmas,
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

/** An exclusive load's hold, inside its IMMEDIATE transaction. */
export interface ExclusiveLoad {
  /**
   * Ends the hold (rolls back unless committed, restores the pragmas and journal, checkpoints,
   * releases the connection); the connection is released even when a step fails.
   */
  end(): Promise<void>;
  /** Ends the hold once, after the first call: `end` of an ended load does nothing. */
  readonly ended: boolean;
}

/**
 * Takes the store's connection for a load and begins its IMMEDIATE transaction when `canLoad`
 * holds before and after the write lock (another process may write between the two looks), and
 * when `prepare` (run inside the transaction: dropping indexes, preparing statements) succeeds.
 * Answers null, having held nothing, when `canLoad` does not hold; a failure to start is a
 * STORE_ERROR naming `what`.
 */
export async function openExclusiveLoad(
  db: Kysely<Database>,
  sqlite: BetterSqlite3.Database,
  options: SqliteBulkLedgerOptions,
  what: string,
  canLoad: () => boolean,
  prepare: () => void,
): Promise<ExclusiveLoad | null> {
  const release = await holdConnection(db);
  let leaveJournal = () => {};
  let restore = () => {};
  let ended = false;
  const end = async () => {
    if (ended) return;
    ended = true;
    try {
      if (sqlite.inTransaction) sqlite.exec("ROLLBACK");
      restore();
      leaveJournal();
      checkpointAfterLoad(sqlite);
    } finally {
      await release();
    }
  };
  try {
    if (!canLoad()) {
      await end();
      return null;
    }
    leaveJournal = rollbackJournalWhileAlone(sqlite);
    restore = sortingPragmas(sqlite, options);
    sqlite.exec("BEGIN IMMEDIATE");
    if (!canLoad()) {
      await end();
      return null;
    }
    prepare();
  } catch (error) {
    await end().catch(() => {});
    throw new KytError("STORE_ERROR", `the ${what} could not start`, { cause: error });
  }
  return {
    end,
    get ended() {
      return ended;
    },
  };
}
