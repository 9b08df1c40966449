/**
 * The block ingestor: core's chain follower over a {@link createBitcoinBlockSource} block
 * source, writing every transaction of a Bitcoin (or Litecoin) node's final blocks into the UTXO
 * ledger. The follower is the one loop (`openkyt follow BTC` runs the same): its cursor is the
 * store's followed blocks, a batch's transactions and followed blocks land in one store
 * transaction, and a reorganisation deletes the replaced blocks' transactions
 * (`deleteUtxoBlocksFrom`: the coins they spent read as unspent again) with their followed
 * blocks in another.
 */
import {
  type ChainFollower,
  type ChainFollowerOptions,
  createChainFollower,
  type Store,
} from "@openkyt/core";
import { type BitcoinBlockSourceOptions, createBitcoinBlockSource } from "./bitcoin-block-source.js";

/** Options of {@link createBitcoinBlockIngestor}. */
export interface BitcoinBlockIngestorOptions
  extends Omit<BitcoinBlockSourceOptions, "ledger">,
    Omit<ChainFollowerOptions, "store" | "source"> {
  /** Where the UTXO ledger and the followed blocks go (the ledger is also read for spent outputs). */
  readonly store: Store;
}

/** Creates a follower of the node into `store`'s UTXO ledger. Nothing runs until `step()` or `start()`. */
export function createBitcoinBlockIngestor(options: BitcoinBlockIngestorOptions): ChainFollower {
  const source = createBitcoinBlockSource({ ...options, ledger: options.store });
  return createChainFollower({ ...options, source });
}
