/**
 * The SQLite store's direct bulk load: a load opened `exclusive` (the caller uses the store for
 * nothing else until it ends, as `openkyt import` does) into an empty ledger. It skips the
 * staging table and its copy: the load holds the store's connection from its opening to its
 * end, in one IMMEDIATE transaction (`sqlite-exclusive-load.ts`, shared with the UTXO bulk
 * load); it drops the ledger's indexes at once, `write` appends each batch to the
 * ledger itself (a savepoint per batch, so a refused batch leaves none of its rows), and
 * `finish` builds the indexes again, deletes the later rows of a repeated key if the key's
 * build finds one, and commits. `abort` rolls everything back, the indexes included.
 */

import { KytError, type LedgerBulkWriter, type LedgerTransfer } from "@openkyt/core";
import type { Database } from "@openkyt/store-kysely";
import type BetterSqlite3 from "better-sqlite3";
import type { Kysely } from "kysely";
import { openExclusiveLoad } from "./sqlite-exclusive-load.js";
import {
  buildIndexes,
  dropIndexes,
  ledgerIndexes,
  refusedBatch,
  rowInserter,
  type SqliteBulkLedgerOptions,
  type StoredIndex,
  storedRows,
} from "./sqlite-ledger-load-steps.js";

/**
 * Opens a direct load when the ledger is empty and its key can be dropped; answers null
 * otherwise (the caller stages the load instead), having held nothing.
 */
export async function openDirectLedgerLoad(
  db: Kysely<Database>,
  sqlite: BetterSqlite3.Database,
  options: SqliteBulkLedgerOptions,
): Promise<LedgerBulkWriter | null> {
  let indexes: StoredIndex[] = [];
  let insert: (rows: ReadonlyArray<LedgerTransfer>) => void = () => {};
  const load = await openExclusiveLoad(
    db,
    sqlite,
    options,
    "bulk ledger load",
    () => {
      indexes = ledgerIndexes(sqlite);
      return storedRows(sqlite) === 0 && indexes.some((i) => i.unique);
    },
    () => {
      dropIndexes(sqlite, indexes);
      insert = rowInserter(sqlite, "main.ledger_transfers");
    },
  );
  if (load === null) return null;

  let appended = 0;
  const batch = sqlite.transaction((rows: ReadonlyArray<LedgerTransfer>) => insert(rows));
  const ensureOpen = () => {
    if (load.ended) throw new KytError("STORE_ERROR", "the bulk ledger load has ended");
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
        await load.end().catch(() => {});
        throw new KytError("STORE_ERROR", "the bulk ledger load failed", { cause: error });
      }
      await load.end();
      return added;
    },
    abort: () => load.end(),
  };
}
