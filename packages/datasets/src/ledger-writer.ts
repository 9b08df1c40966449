/** The default {@link LedgerWriter}: each batch through the store port, in its own transaction. */
import type { Store } from "@openkyt/core";
import type { LedgerWriter } from "./import-types.js";

/**
 * Writes each batch with `Store.putLedgerTransfers` in one transaction (rows already stored are
 * ignored by the port) and adds up how many were new. A batch that committed stays committed.
 */
export function storeLedgerWriter(store: Store): LedgerWriter {
  let added = 0;
  return {
    async write(rows) {
      if (rows.length === 0) return;
      added += await store.transaction((tx) => tx.putLedgerTransfers(rows));
    },
    async finish() {
      return added;
    },
    async abort() {},
  };
}
