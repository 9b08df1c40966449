/**
 * Resolves a transaction hash on a network to the transfers it contains. The default reads
 * the ledger in the store; `@openkyt/chain-evm` reads a live node.
 */
import type { LedgerTransfer } from "../domain/records.js";
import type { UtxoTransaction } from "../domain/utxo.js";

/** Outcome of resolving a hash: an expected result, never an exception. */
export type ChainLookup =
  /**
   * The transaction is final (enough confirmations); its transfers, by logIndex. A UTXO chain's
   * source also gives the whole transaction (`utxo`): binding then sums the outputs paying the
   * transfer's address and tracing follows the coins it spent; `transfers` holds one row per
   * output that pays an address (from: the documented input address, logIndex: the vout).
   */
  | {
      readonly kind: "found";
      readonly transfers: ReadonlyArray<LedgerTransfer>;
      readonly utxo?: UtxoTransaction;
    }
  /** Known to the source but not final yet (pending or too few confirmations): ask again later. */
  | { readonly kind: "pending" }
  /** The source does not know the hash (it may still appear while the binding window lasts). */
  | { readonly kind: "not_found" }
  /** The transaction exists but failed on chain (reverted): it moved nothing. */
  | { readonly kind: "failed"; readonly reason: string };

/** A chain source. A thrown error means the source itself failed (retried with backoff). */
export interface ChainSource {
  /** Looks a transaction up. Must be safe to call repeatedly (idempotent, no side effects). */
  lookup(network: string, txHash: string): Promise<ChainLookup>;
}
