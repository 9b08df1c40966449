/**
 * The chain-follow member of the Store port (see `Store`): the blocks a chain follower wrote into
 * the ledger, per network, so that it resumes where it stopped and sees a reorganisation. Every
 * store keeps them (memory, SQLite, Postgres) and passes their conformance section.
 */

/** A block a follower wrote into the ledger. */
export interface FollowedBlock {
  readonly network: string;
  /** The block number (height). */
  readonly height: number;
  /** The block's hash as the source gave it. */
  readonly hash: string;
}

/** The ledgers a rewind removes rows from: the account ledger and the UTXO ledger. */
export const REWOUND_LEDGERS = Object.freeze(["account", "utxo"] as const);

/** Which ledger a {@link LedgerRewind} removed rows from. */
export type RewoundLedger = (typeof REWOUND_LEDGERS)[number];

/**
 * One undo of a followed chain as the store recorded it: the rows of `network` in blocks at or
 * above `fromHeight` were removed from one ledger (`rewindFollowedChain` for the account ledger,
 * `deleteUtxoBlocksFrom` for the UTXO ledger). What a warm copy reads to drop them too.
 */
export interface LedgerRewind {
  /** Its number: rewinds are numbered from 1 in the order they committed. */
  readonly id: number;
  readonly ledger: RewoundLedger;
  readonly network: string;
  readonly fromHeight: number;
  /**
   * A scan position of that ledger (`Store.scanLedger`, `Store.scanUtxoTransactions`) up to
   * which nothing changed: every row at a position <= `resumeAfter` is still stored at it, and
   * every row stored since the rewind gets a higher one. A copy that dropped the removed rows
   * reads again from here (rows it holds already are skipped) and misses nothing, even where
   * the store renumbers or reuses positions. 0 when the store cannot scan that ledger.
   */
  readonly resumeAfter: number;
}

/** What {@link ChainFollowStoreOps.rewindFollowedChain} removed. */
export interface ChainRewind {
  /** Followed blocks removed. */
  readonly blocks: number;
  /** Ledger rows removed. */
  readonly transfers: number;
}

/** The followed blocks of each network: a follower's cursor and its memory of recent hashes. */
export interface ChainFollowStoreOps {
  /** The highest followed block of a network (the follower's cursor), or null before the first. */
  followedHead(network: string): Promise<FollowedBlock | null>;
  /** The followed block of a network at `height`, or null (never followed, or pruned). */
  followedBlock(network: string, height: number): Promise<FollowedBlock | null>;
  /**
   * Records followed blocks. A block whose (network, height) is already recorded is CONFLICT
   * and nothing is written: another follower of the same network got there first. Call it in
   * the transaction that writes the blocks' ledger rows, so both land or neither does.
   */
  recordFollowedBlocks(blocks: ReadonlyArray<FollowedBlock>): Promise<void>;
  /** Forgets the followed blocks of a network below `height` (their hashes are no longer compared); returns how many. */
  pruneFollowedBlocks(network: string, belowHeight: number): Promise<number>;
  /**
   * Undoes a network from `fromHeight` on, after a reorganisation replaced those blocks: removes
   * its followed blocks at or above `fromHeight` and every ledger row of the network whose block
   * is at or above `fromHeight` (rows without a block stay). Atomic. When rows were removed it
   * also records a {@link LedgerRewind} (`ledger: "account"`) in the same transaction, which
   * warm in-memory copies read to drop them (`Store.scanRewinds`).
   */
  rewindFollowedChain(network: string, fromHeight: number): Promise<ChainRewind>;
}
