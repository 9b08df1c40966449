/** The memory store's bulk ledger load: rows are kept aside and land in one transaction at `finish()`. */

import type { LedgerTransfer } from "../domain/records.js";
import { KytError } from "../errors.js";
import type { LedgerBulkWriter, Store } from "../ports/store.js";

/**
 * A bulk writer over `store`: `write` keeps copies of the rows, `finish` puts them all with
 * `putLedgerTransfers` in one transaction (the port's dedupe and count), `abort` drops them.
 * The memory store has no faster path; this one gives its users the same contract as SQLite's.
 */
export function memoryBulkLedgerWriter(store: Pick<Store, "transaction">): LedgerBulkWriter {
  let staged: LedgerTransfer[] | null = [];
  const open = (): LedgerTransfer[] => {
    if (staged === null) throw new KytError("STORE_ERROR", "the bulk ledger load has ended");
    return staged;
  };
  return {
    async write(rows) {
      const into = open();
      for (const row of rows) into.push({ ...row });
    },
    async finish() {
      const rows = open();
      staged = null;
      return store.transaction((tx) => tx.putLedgerTransfers(rows));
    },
    async abort() {
      staged = null;
    },
  };
}
