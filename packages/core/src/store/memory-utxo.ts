/** The UTXO ledger of the in-memory store: a {@link UtxoIndex}, its writes undone on rollback. */
import { utxoTransactionProblem } from "../domain/utxo.js";
import { KytError } from "../errors.js";
import type { UtxoLedgerStore } from "../ports/utxo-ledger.js";
import type { Journal } from "./memory-journal.js";
import { recordRewind } from "./memory-rewinds.js";
import { copy, type MemoryTables } from "./memory-state.js";

/** Creates the UTXO ledger members over `tables`, writing through `journal`. */
export function memoryUtxoOps(tables: MemoryTables, journal: Journal): UtxoLedgerStore {
  const { utxo } = tables;
  return {
    async utxoTransactions(network, txids) {
      return utxo.transactions(network, txids);
    },
    async utxoReceived(network, queries, limit) {
      return utxo.received(network, queries, limit);
    },
    async utxoSpentFrom(network, queries, limit) {
      return utxo.spentFrom(network, queries, limit);
    },
    async putUtxoTransactions(txs) {
      for (const tx of txs) {
        const problem = utxoTransactionProblem(tx);
        if (problem !== null) throw new KytError("VALIDATION_ERROR", problem);
      }
      const added = utxo.add(copy(txs));
      for (const tx of added) journal.record(() => utxo.remove(tx.network, tx.txid));
      return added.length;
    },
    async deleteUtxoBlocksFrom(network, height) {
      const gone = utxo.blocksFrom(network, height);
      // The memory store cannot scan its UTXO ledger: a copy of it would read from the start.
      if (gone.length > 0)
        recordRewind(tables, journal, { ledger: "utxo", network, fromHeight: height, resumeAfter: 0 });
      for (const tx of gone) {
        utxo.remove(tx.network, tx.txid);
        journal.record(() => utxo.add([tx]));
      }
      return gone.length;
    },
  };
}
