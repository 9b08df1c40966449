/**
 * Where a chain follower reads blocks from: one network's node, presented as numbered, hashed
 * blocks with their ledger rows (or UTXO transactions). `@openkyt/chain-evm`, `@openkyt/chain-tron`
 * and `@openkyt/chain-bitcoin` offer one; a source for another family plugs in the same way.
 */
import type { LedgerTransfer, Millis } from "../domain/records.js";
import type { UtxoTransaction } from "../domain/utxo.js";

/** One block as the source sees it. */
export interface SourceBlock {
  readonly height: number;
  readonly hash: string;
  /** The hash of the block before it (height - 1). */
  readonly parentHash: string;
  /** The block's time, epoch ms. */
  readonly time: Millis;
}

/** A run of consecutive blocks and the ledger rows they hold. */
export interface BlockBatch {
  /** Every block of the range, by height, each the parent of the next. */
  readonly blocks: ReadonlyArray<SourceBlock>;
  /** The ledger rows of those blocks (each row's `block` is one of their heights). */
  readonly transfers: ReadonlyArray<LedgerTransfer>;
  /**
   * The UTXO ledger's transactions of those blocks (Bitcoin, Litecoin: each one's `block` is
   * one of their heights); written with the rows, and undone with them after a reorganisation.
   */
  readonly utxoTransactions?: ReadonlyArray<UtxoTransaction>;
}

/** A source of blocks for one network. Every member throws `KytError("CHAIN_ERROR")` when the node fails. */
export interface BlockSource {
  /** The network code (as in core's `NETWORKS`). */
  readonly network: string;
  /** The height of the node's newest block. */
  head(): Promise<number>;
  /** The hash of the block at `height` on the node's current chain, or null when it has none. */
  blockHash(height: number): Promise<string | null>;
  /**
   * Blocks `from`..`to` (inclusive, `to` at most the head) and their ledger rows. The blocks
   * link (each one's parentHash is the previous one's hash); when the chain changed while they
   * were read, throws CHAIN_ERROR rather than answer a mix.
   */
  readBlocks(from: number, to: number): Promise<BlockBatch>;
}
