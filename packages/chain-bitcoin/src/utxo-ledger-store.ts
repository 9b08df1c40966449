/** The UTXO ledger of a store, for importers and the ingestor: a store that keeps none is NOT_CONFIGURED. */
import { KytError, type Store, type UtxoLedgerStore } from "@openkyt/core";

/** `store`'s UTXO ledger; a store without one fails with NOT_CONFIGURED before anything is read. */
export function utxoLedgerOf(store: Store): UtxoLedgerStore {
  const candidate = store as Store & Partial<UtxoLedgerStore>;
  if (
    typeof candidate.putUtxoTransactions !== "function" ||
    typeof candidate.utxoTransactions !== "function"
  ) {
    throw new KytError(
      "NOT_CONFIGURED",
      "this store keeps no UTXO ledger (Bitcoin, Litecoin): use a store that does",
    );
  }
  return candidate as Store & UtxoLedgerStore;
}
