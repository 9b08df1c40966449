/**
 * The UTXO ledger as tracing reads it and importers write it (Bitcoin, Litecoin). See
 * `domain/utxo.ts` for the model and docs/risk-model.md ("Bitcoin") for how it is traced.
 */
import type { Millis } from "../domain/records.js";
import type { UtxoReceipt, UtxoTransaction } from "../domain/utxo.js";
import type { ClusterMergeOutcome } from "./utxo-clusters.js";

/** One address of an address check: the outputs paying it strictly before `before`. */
export interface ReceivedQuery {
  readonly address: string;
  readonly before: Millis;
}

/** One address of an address check, recipient side: the inputs spending its coins strictly after `after`. */
export interface SentQuery {
  readonly address: string;
  readonly after: Millis;
}

/** Reads the UTXO ledger for tracing and binding. Implementations must not mutate their arguments. */
export interface UtxoLedgerReader {
  /**
   * The transactions of `network` with these txids that the ledger holds (any order; unknown
   * ones are left out), each with its inputs and outputs in order and every output's `spentBy`
   * filled from the inputs the ledger holds. One call per hop of a trace: the adapter batches.
   */
  utxoTransactions(network: string, txids: ReadonlyArray<string>): Promise<ReadonlyArray<UtxoTransaction>>;
  /**
   * The outputs paying each query's address created strictly before its time, at most
   * `limitPerAddress` per address, the latest first (by block time, then block, then position
   * and vout, descending); a caller that gets exactly `limitPerAddress` rows for an address
   * must assume there are more.
   */
  utxoReceived(
    network: string,
    queries: ReadonlyArray<ReceivedQuery>,
    limitPerAddress: number,
  ): Promise<ReadonlyArray<UtxoReceipt>>;
  /**
   * The outputs paying each query's address that were spent by a transaction strictly after
   * the query's time: the address's coins as they left it (the recipient side of an address
   * check). At most `limitPerAddress` per address, the earliest spend first.
   */
  utxoSpentFrom(
    network: string,
    queries: ReadonlyArray<SentQuery>,
    limitPerAddress: number,
  ): Promise<ReadonlyArray<UtxoReceipt>>;
}

/** The UTXO ledger a store keeps. */
export interface UtxoLedgerStore extends UtxoLedgerReader {
  /**
   * Inserts whole transactions, all of them or none: one that is already stored (same
   * network, txid) is left as it is. Returns how many were new. `spentBy` of the given
   * outputs is ignored (derived from inputs). Validation is the caller's (importers check
   * before writing), but a store refuses values that are not {@link isSats}.
   */
  putUtxoTransactions(txs: ReadonlyArray<UtxoTransaction>): Promise<number>;
  /**
   * Deletes every transaction of `network` in blocks at or above `height` (a reorg replaced
   * them), with their inputs and outputs, so the outputs they spent read as unspent again;
   * returns how many transactions were deleted. When some were, also records a `LedgerRewind`
   * (`ledger: "utxo"`) in the same transaction, which warm copies read (`Store.scanRewinds`).
   */
  deleteUtxoBlocksFrom(network: string, height: number): Promise<number>;
}

/** What a bulk UTXO load committed (see {@link UtxoBulkWriter.finish}). */
export interface UtxoBulkOutcome {
  /** Transactions that were new (a txid repeated in the load counts once: the first wins). */
  readonly added: number;
  /** Per network, what the merge of the load's cluster groups did. */
  readonly clusters: ReadonlyMap<string, ClusterMergeOutcome>;
  /**
   * Per network, the clusters of the load that hold at least two labelled members (ascending):
   * the only ones where two labelled entities can meet, so the only ones a conflict look-up
   * needs to ask about. Optional: without it, a caller asks about every cluster of `clusters`.
   */
  readonly contestable?: ReadonlyMap<string, ReadonlyArray<string>>;
}

/**
 * One bulk load of UTXO transactions (see `Store.bulkUtxoWriter`): the same result as
 * `putUtxoTransactions` of every transaction followed by `mergeAddressClusters` of the given
 * groups, but all at once, in one store transaction, at `finish()`.
 */
export interface UtxoBulkWriter {
  /**
   * Takes transactions in file order, each already checked (`utxoTransactionProblem` null).
   * Nothing is visible to readers before `finish()`. A refused batch leaves none of its rows.
   */
  write(txs: ReadonlyArray<UtxoTransaction>): Promise<void>;
  /**
   * Commits every transaction written and merges `clusters` (per network, groups of addresses
   * that belong to one wallet) in the same transaction: all of it or none. The writer is spent
   * afterwards.
   */
  finish(clusters?: ReadonlyMap<string, ReadonlyArray<ReadonlyArray<string>>>): Promise<UtxoBulkOutcome>;
  /** Drops everything written; the writer is spent afterwards. Idempotent. */
  abort(): Promise<void>;
}

/** A page of the UTXO ledger in stored order (see `Store.scanUtxoTransactions`). */
export interface UtxoScan {
  /** Whole transactions, inputs and outputs in order (`spentBy` not filled). */
  readonly txs: ReadonlyArray<UtxoTransaction>;
  /** Position of the last transaction returned; the `after` of the next page. */
  readonly last: number;
}
