/**
 * The chain follower: keeps the ledger current with one network's chain. Each step reads the
 * final blocks after its cursor from a {@link BlockSource} and writes their rows and hashes in
 * one store transaction, so a process killed at any point resumes after the last committed
 * block, with no gap and no duplicate. Before reading on, it compares the hash of its cursor
 * block with the node's; when they differ a reorganisation replaced blocks it wrote, and it walks
 * back to the last block both agree on and undoes everything above it.
 */
import { clusterInStore } from "../engine/sources/store-clustering.js";
import { describeError, fieldError, KytError } from "../errors.js";
import type { ClusteringSummary } from "../exposure/utxo-clustering.js";
import type { BlockBatch, BlockSource } from "../ports/block-source.js";
import { type Logger, silentLogger, systemTimer, type Timer } from "../ports/runtime.js";
import type { Store } from "../ports/store.js";

/** Options of {@link createChainFollower}. */
export interface ChainFollowerOptions {
  /** Where the ledger rows and the followed blocks go. */
  readonly store: Store;
  /** The network's blocks. */
  readonly source: BlockSource;
  /** Confirmations a block needs before it is written (1: as soon as it is mined); default 1. */
  readonly confirmations?: number;
  /** First block to write while the store has no followed block; default the last final block. */
  readonly fromBlock?: number;
  /** Most blocks per step (one store transaction); default 100. */
  readonly batchBlocks?: number;
  /** Wait between polls once caught up (doubled per consecutive failure, to 60 s); default 2,000 ms. */
  readonly pollMs?: number;
  /** Hashes of recent blocks kept for reorganisation checks (the deepest undo); default 1,000. */
  readonly keepBlocks?: number;
  /**
   * Merge the common-input clusters of the UTXO transactions written, in the step's own
   * transaction (the engine's `clustering`); default true. A reorganisation never splits a
   * cluster: see docs/risk-model.md, "When clustering happens".
   */
  readonly clustering?: boolean;
  readonly timer?: Timer;
  readonly logger?: Logger;
  /** Told of each step that did something or found nothing to do. */
  readonly onStep?: (step: FollowStep) => void;
  /** Told of each failed step (the loop keeps going, backing off). */
  readonly onError?: (error: KytError) => void;
}

/** What one step did. */
export type FollowStep =
  /** Blocks `from`..`to` were written. */
  | {
      readonly kind: "blocks";
      readonly from: number;
      readonly to: number;
      /** Ledger rows (or UTXO transactions) the blocks hold, and how many of them were new to the store. */
      readonly transfers: number;
      readonly inserted: number;
      /** The node's head, and the last block with enough confirmations. */
      readonly head: number;
      readonly safeHead: number;
      /** The time of block `to`, epoch ms. */
      readonly blockTime: number;
      /** The clustering of the UTXO transactions written; null when off or the blocks hold none. */
      readonly clustering: ClusteringSummary | null;
    }
  /** A reorganisation replaced blocks from `from` on: their followed blocks and rows were removed. */
  | {
      readonly kind: "reorg";
      readonly from: number;
      readonly removedBlocks: number;
      readonly removedTransfers: number;
      readonly head: number;
    }
  /** Nothing final to write: the cursor is at the safe head (null before the first block). */
  | {
      readonly kind: "idle";
      readonly cursor: number | null;
      readonly head: number;
      readonly safeHead: number;
    };

/** A follower of one network. */
export interface ChainFollower {
  readonly network: string;
  /** One step: undo a reorganisation, or write the next batch of final blocks, or nothing. Steps never overlap. */
  step(): Promise<FollowStep>;
  /** Steps until `stop()`, waiting `pollMs` when caught up and backing off after failures. Idempotent. */
  start(): void;
  /** Stops after the step in hand (whose transaction lands whole or not at all). Idempotent. */
  stop(): Promise<void>;
}

const MAX_ERROR_WAIT_MS = 60_000;

/** Creates a follower. Nothing runs until `step()` or `start()`. */
export function createChainFollower(options: ChainFollowerOptions): ChainFollower {
  const { store, source } = options;
  const network = source.network;
  const confirmations = whole("confirmations", options.confirmations ?? 1, 1);
  const batchBlocks = whole("batchBlocks", options.batchBlocks ?? 100, 1);
  const pollMs = whole("pollMs", options.pollMs ?? 2_000, 0);
  const keepBlocks = whole("keepBlocks", options.keepBlocks ?? 1_000, 1);
  const fromBlock = options.fromBlock === undefined ? null : whole("fromBlock", options.fromBlock, 0);
  const timer = options.timer ?? systemTimer;
  const logger = options.logger ?? silentLogger;
  const clustering = options.clustering ?? true;
  let tail: Promise<unknown> = Promise.resolve();
  let running = false;
  let loop: Promise<void> | null = null;
  let wake: (() => void) | null = null;

  /** The last height both the store and the node agree on, walking down from `height`. */
  async function commonAncestor(height: number): Promise<number> {
    let h = height;
    for (;;) {
      if (h < 0) return -1;
      const kept = await store.followedBlock(network, h);
      if (kept === null) return h;
      if ((await source.blockHash(h)) === kept.hash) return h;
      h -= 1;
    }
  }

  async function undo(cursor: number, head: number): Promise<FollowStep> {
    const common = await commonAncestor(cursor - 1);
    const from = common + 1;
    // The ledger rows and the UTXO transactions of the replaced blocks go in one transaction.
    // Address clusters stay as they are: a union-find cannot be split, and the replaced
    // transactions' inputs were signed together all the same (they usually return in the new
    // branch); docs/risk-model.md, "When clustering happens".
    const removed = await store.transaction(async (tx) => {
      const rewound = await tx.rewindFollowedChain(network, from);
      const utxo = await tx.deleteUtxoBlocksFrom(network, from);
      return { blocks: rewound.blocks, transfers: rewound.transfers + utxo };
    });
    logger.warn(
      { network, from, to: cursor, removedBlocks: removed.blocks, removedTransfers: removed.transfers },
      "reorganisation: replaced blocks undone",
    );
    return {
      kind: "reorg",
      from,
      removedBlocks: removed.blocks,
      removedTransfers: removed.transfers,
      head,
    };
  }

  async function write(batch: BlockBatch, expectedParent: string | null, from: number, to: number) {
    checkBatch(network, batch, expectedParent, from, to);
    return store.transaction(async (tx) => {
      const utxo = batch.utxoTransactions ?? [];
      const inserted =
        (await tx.putLedgerTransfers(batch.transfers)) +
        (utxo.length > 0 ? await tx.putUtxoTransactions(utxo) : 0);
      // Every transaction of the batch, new or not: merging is idempotent (a retried step merges the same groups).
      let clusters: ClusteringSummary | null = null;
      if (clustering && utxo.length > 0) {
        clusters = await clusterInStore(tx, utxo);
      }
      await tx.recordFollowedBlocks(batch.blocks.map((b) => ({ network, height: b.height, hash: b.hash })));
      if (to - keepBlocks + 1 > 0) await tx.pruneFollowedBlocks(network, to - keepBlocks + 1);
      return { inserted, clusters };
    });
  }

  async function once(): Promise<FollowStep> {
    const head = await source.head();
    const safeHead = head - (confirmations - 1);
    const cursor = await store.followedHead(network);
    // A node behind the cursor (resyncing, or a lagging replica) is waited for, not believed.
    if (cursor !== null && head < cursor.height)
      return { kind: "idle", cursor: cursor.height, head, safeHead };
    if (cursor !== null && (await source.blockHash(cursor.height)) !== cursor.hash) {
      return undo(cursor.height, head);
    }
    const from = cursor === null ? (fromBlock ?? Math.max(0, safeHead)) : cursor.height + 1;
    const to = Math.min(from + batchBlocks - 1, safeHead);
    if (to < from) return { kind: "idle", cursor: cursor?.height ?? null, head, safeHead };
    const batch = await source.readBlocks(from, to);
    const { inserted, clusters } = await write(batch, cursor?.hash ?? null, from, to);
    for (const c of clusters?.conflicts ?? []) {
      logger.warn(
        { network: c.network, clusterId: c.clusterId, entities: c.entities, from, to },
        "two labelled entities fell into one address cluster; the riskiest label extends to it, flagged as a conflict",
      );
    }
    const rows = batch.transfers.length + (batch.utxoTransactions?.length ?? 0);
    const last = batch.blocks[batch.blocks.length - 1];
    logger.debug({ network, from, to, transfers: rows, inserted, head }, "blocks followed");
    return {
      kind: "blocks",
      from,
      to,
      transfers: rows,
      inserted,
      head,
      safeHead,
      blockTime: last?.time ?? 0,
      clustering: clusters,
    };
  }

  function step(): Promise<FollowStep> {
    const run = tail.then(once).then((result) => {
      options.onStep?.(result);
      return result;
    });
    tail = run.catch(() => undefined);
    return run;
  }

  async function sleep(ms: number): Promise<void> {
    const pause = timer.sleep(ms);
    wake = () => pause.wake();
    await pause.done;
    wake = null;
  }

  async function follow(): Promise<void> {
    let failures = 0;
    while (running) {
      let wait = 0;
      try {
        const result = await step();
        failures = 0;
        if (result.kind === "idle") wait = pollMs;
      } catch (error) {
        failures += 1;
        const failure =
          error instanceof KytError
            ? error
            : new KytError("CHAIN_ERROR", `${network}: ${describeError(error)}`, { cause: error });
        logger.warn({ network, failures, reason: describeError(failure) }, "chain follow step failed");
        options.onError?.(failure);
        wait = Math.min(MAX_ERROR_WAIT_MS, Math.max(pollMs, 1) * 2 ** (failures - 1));
      }
      if (running && wait > 0) await sleep(wait);
    }
  }

  return Object.freeze({
    network,
    step,
    start() {
      if (running) return;
      running = true;
      loop = follow();
    },
    async stop() {
      running = false;
      wake?.();
      await loop;
      loop = null;
    },
  });
}

/** Refuses a batch that is not blocks `from`..`to`, linked to each other and to the cursor. */
function checkBatch(
  network: string,
  batch: BlockBatch,
  expectedParent: string | null,
  from: number,
  to: number,
): void {
  const { blocks } = batch;
  const broken = (why: string) =>
    new KytError(
      "CHAIN_ERROR",
      `${network}: blocks ${from}-${to} as read do not form a chain (${why}); read again`,
    );
  if (blocks.length !== to - from + 1) throw broken(`${blocks.length} blocks`);
  let parent = expectedParent;
  for (const [i, block] of blocks.entries()) {
    if (block.height !== from + i) throw broken(`block ${block.height} at position ${i}`);
    if (parent !== null && block.parentHash !== parent)
      throw broken(`block ${block.height} has another parent`);
    parent = block.hash;
  }
  for (const row of batch.transfers) {
    if (row.network !== network || row.block === null || row.block < from || row.block > to)
      throw broken(`a row of ${row.network} block ${row.block}`);
  }
  for (const tx of batch.utxoTransactions ?? []) {
    if (tx.network !== network || tx.block === null || tx.block < from || tx.block > to)
      throw broken(`transaction ${tx.txid} of ${tx.network} block ${tx.block}`);
  }
}

function whole(field: string, value: number, min: number): number {
  if (!Number.isSafeInteger(value) || value < min)
    throw fieldError(field, `must be a whole number >= ${min}`);
  return value;
}
