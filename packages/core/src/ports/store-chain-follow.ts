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
   * is at or above `fromHeight` (rows without a block stay). Atomic. A warm in-memory copy of
   * the ledger (`createWarmLedger`) does not see rows removed: restart a warm process after one.
   */
  rewindFollowedChain(network: string, fromHeight: number): Promise<ChainRewind>;
}
