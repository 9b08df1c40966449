/**
 * The block ingestor: follows a Bitcoin (or Litecoin) node up to its last final block and
 * writes every transaction into the UTXO ledger, so tracing follows new coins. Blocks are read
 * raw (`getblockhash`, `getblock <hash> 0`), their inputs resolved from the block itself, the
 * ledger, then the node (see node-transactions.ts).
 *
 * The cursor (setting `chain-bitcoin:<network>:cursor`) holds the height of the last block
 * written and the hashes of the last {@link REORG_WINDOW} blocks. Before reading on, a run asks
 * the node for the hash at the cursor's height: a different one means a reorg replaced blocks,
 * so it walks back to the last block both agree on, deletes the ledger's blocks above it
 * (`deleteUtxoBlocksFrom`: the coins they spent read as unspent again) and reads the new ones.
 * A batch's transactions and the cursor are written in one store transaction; the reorg's
 * deletion and the cursor's move back in another.
 */
import {
  describeError,
  fieldError,
  KytError,
  type Logger,
  type Store,
  type StoreOps,
  silentLogger,
  type UtxoTransaction,
} from "@openkyt/core";
import { type BitcoinChainSourceOptions, confirmationsOption, nodeOf } from "./bitcoin-chain-source.js";
import { rpcOrNull } from "./bitcoin-rpc.js";
import { bytesOfHex } from "./byte-reader.js";
import { countAt, hashAt } from "./json-fields.js";
import { resolvePrevouts, utxoTransactionOfRaw } from "./node-transactions.js";
import { parseBlock, type RawBlock } from "./raw-block.js";
import { utxoTransactionProblem } from "./utxo-checks.js";

/** Blocks whose hashes the cursor keeps: the deepest reorg the ingestor follows. */
export const REORG_WINDOW = 100;

/** Options of {@link createBitcoinBlockIngestor}. */
export interface BitcoinBlockIngestorOptions extends BitcoinChainSourceOptions {
  /** Where the UTXO ledger and the cursor (a setting) go, written in one store transaction per batch. */
  readonly store: Store;
  /** First block to read when the store has no cursor yet; default the chain's last final block. */
  readonly startBlock?: number;
  /** Most blocks per batch (one ledger write each); default 10. */
  readonly batchBlocks?: number;
  /** Wait between polls once caught up (doubled per consecutive failure, to 60 s); default 5,000 ms. */
  readonly pollMs?: number;
  readonly logger?: Logger;
  /** Told of each failed run of the background loop (which keeps going). */
  readonly onError?: (error: KytError) => void;
}

/** What one run did. An empty range (toBlock < fromBlock) means nothing was final yet. */
export interface BitcoinIngestRun {
  readonly fromBlock: number;
  readonly toBlock: number;
  /** Transactions read in the range, and how many were new to the ledger. */
  readonly transactions: number;
  readonly inserted: number;
  /** The last final block when the run began. */
  readonly safeHead: number;
  /** A reorg the run followed first: the first height replaced and the transactions deleted. */
  readonly reorg: { readonly fromHeight: number; readonly deleted: number } | null;
}

/** The ingestor's cursor. */
export interface BitcoinCursor {
  readonly height: number;
  /** Hashes of the blocks at `height`, `height - 1`, ... (at most {@link REORG_WINDOW}). */
  readonly hashes: ReadonlyArray<string>;
}

/** A block ingestor for one network. */
export interface BitcoinBlockIngestor {
  readonly cursorKey: string;
  /** Reads and writes one batch. Runs never overlap (a second call waits for the first). */
  runOnce(): Promise<BitcoinIngestRun>;
  /** The cursor, or null before the first batch. */
  cursor(): Promise<BitcoinCursor | null>;
  /** Follows the chain in the background until `stop()`. Idempotent. */
  start(): void;
  /** Stops following and waits for the batch in hand. Idempotent. */
  stop(): Promise<void>;
}

/** The settings key of a network's cursor. */
export function bitcoinCursorKey(network: string): string {
  return `chain-bitcoin:${network}:cursor`;
}

const MAX_ERROR_WAIT_MS = 60_000;

function wholeNumber(field: string, value: number, min: number): number {
  if (!Number.isSafeInteger(value) || value < min)
    throw fieldError(field, `must be a whole number >= ${min}`);
  return value;
}

/** Creates a block ingestor. Nothing runs until `runOnce()` or `start()`. */
export function createBitcoinBlockIngestor(options: BitcoinBlockIngestorOptions): BitcoinBlockIngestor {
  const { params, rpc } = nodeOf(options);
  const network = params.network;
  const confirmations = confirmationsOption(options.confirmations);
  const batchBlocks = wholeNumber("batchBlocks", options.batchBlocks ?? 10, 1);
  const pollMs = wholeNumber("pollMs", options.pollMs ?? 5_000, 0);
  const startBlock =
    options.startBlock === undefined ? null : wholeNumber("startBlock", options.startBlock, 0);
  const { store } = options;
  const logger = options.logger ?? silentLogger;
  const key = bitcoinCursorKey(network);
  let tail: Promise<unknown> = Promise.resolve();
  let running = false;
  let loop: Promise<void> | null = null;
  let wake: (() => void) | null = null;

  async function readCursor(): Promise<BitcoinCursor | null> {
    const value = await store.getSetting(key);
    if (value === null) return null;
    try {
      const parsed = JSON.parse(value) as { height?: unknown; hashes?: unknown };
      const height = countAt(parsed.height, "height");
      const hashes = Array.isArray(parsed.hashes)
        ? parsed.hashes.map((h, i) => hashAt(h, `hashes[${i}]`))
        : [];
      if (hashes.length === 0) throw new Error("no hashes");
      return { height, hashes };
    } catch (error) {
      throw new KytError("STORE_ERROR", `setting ${key} holds ${JSON.stringify(value)}, not a cursor`, {
        cause: error,
      });
    }
  }

  const writeCursor = (ops: StoreOps, cursor: BitcoinCursor) =>
    ops.putSetting(
      key,
      JSON.stringify({ height: cursor.height, hashes: cursor.hashes.slice(0, REORG_WINDOW) }),
    );

  async function blockHashAt(height: number): Promise<string | null> {
    const hash = await rpcOrNull(rpc, network, "getblockhash", [height]);
    return hash === null ? null : hashAt(hash, "getblockhash");
  }

  async function rawBlock(hash: string): Promise<RawBlock> {
    const hex = await rpc("getblock", [hash, 0]);
    const bytes = typeof hex === "string" ? bytesOfHex(hex) : null;
    if (bytes === null) throw new KytError("CHAIN_ERROR", `${network} node: getblock ${hash} 0 is not hex`);
    const block = parseBlock(bytes);
    if (block.header.hash !== hash)
      throw new KytError("CHAIN_ERROR", `${network} node: getblock ${hash} gave block ${block.header.hash}`);
    return block;
  }

  /** Follows a reorg below the cursor: back to the last block node and ledger agree on. */
  async function followReorg(
    cursor: BitcoinCursor,
  ): Promise<{ cursor: BitcoinCursor; fromHeight: number; deleted: number } | null> {
    if ((await blockHashAt(cursor.height)) === cursor.hashes[0]) return null;
    for (let k = 1; k < cursor.hashes.length; k++) {
      const height = cursor.height - k;
      if ((await blockHashAt(height)) !== cursor.hashes[k]) continue;
      const back = { height, hashes: cursor.hashes.slice(k) };
      const deleted = await store.transaction(async (tx) => {
        const n = await tx.deleteUtxoBlocksFrom(network, height + 1);
        await writeCursor(tx, back);
        return n;
      });
      logger.warn({ network, fromHeight: height + 1, deleted }, "reorg: blocks replaced, ledger rolled back");
      return { cursor: back, fromHeight: height + 1, deleted };
    }
    throw new KytError(
      "CHAIN_ERROR",
      `${network} node: a reorg replaced more than the ${cursor.hashes.length} blocks the cursor remembers (below height ${cursor.height}); re-import from an earlier block`,
    );
  }

  async function ingest(): Promise<BitcoinIngestRun> {
    let cursor = await readCursor();
    const reorg = cursor === null ? null : await followReorg(cursor);
    if (reorg !== null) cursor = reorg.cursor;
    const tip = countAt(await rpc("getblockcount", []), "getblockcount");
    const safeHead = tip - (confirmations - 1);
    const fromBlock = cursor === null ? (startBlock ?? Math.max(0, safeHead)) : cursor.height + 1;
    const toBlock = Math.min(fromBlock + batchBlocks - 1, safeHead);
    const reorgInfo = reorg === null ? null : { fromHeight: reorg.fromHeight, deleted: reorg.deleted };
    if (toBlock < fromBlock)
      return { fromBlock, toBlock: fromBlock - 1, transactions: 0, inserted: 0, safeHead, reorg: reorgInfo };
    const txs: UtxoTransaction[] = [];
    let hashes = [...(cursor?.hashes ?? [])];
    let last = fromBlock - 1;
    for (let height = fromBlock; height <= toBlock; height++) {
      const hash = await blockHashAt(height);
      if (hash === null) break;
      const block = await rawBlock(hash);
      // The chain moved while reading: stop here; the next run sees the reorg.
      if (hashes.length > 0 && block.header.prevHash !== hashes[0]) break;
      const prevouts = await resolvePrevouts(
        block.transactions.filter((t) => !t.coinbase),
        { rpc, params, ledger: { utxoTransactions: (n, ids) => ledgerOrBatch(n, ids, txs) } },
      );
      block.transactions.forEach((raw, position) => {
        const tx = utxoTransactionOfRaw(
          raw,
          { block: height, blockHash: hash, occurredAt: block.header.time * 1000, position },
          params,
          prevouts,
        );
        const problem = utxoTransactionProblem(tx);
        if (problem !== null) throw new KytError("CHAIN_ERROR", `${network} block ${height}: ${problem}`);
        txs.push(tx);
      });
      hashes = [hash, ...hashes].slice(0, REORG_WINDOW);
      last = height;
    }
    if (last < fromBlock)
      return { fromBlock, toBlock: fromBlock - 1, transactions: 0, inserted: 0, safeHead, reorg: reorgInfo };
    // The transactions and the cursor move together: a restart resumes after the last batch.
    const inserted = await store.transaction(async (tx) => {
      const n = await tx.putUtxoTransactions(txs);
      await writeCursor(tx, { height: last, hashes });
      return n;
    });
    logger.info({ network, fromBlock, toBlock: last, transactions: txs.length, inserted }, "blocks ingested");
    return { fromBlock, toBlock: last, transactions: txs.length, inserted, safeHead, reorg: reorgInfo };
  }

  /** The ledger's transactions with these txids, and those of this batch not written yet. */
  async function ledgerOrBatch(n: string, ids: ReadonlyArray<string>, batch: ReadonlyArray<UtxoTransaction>) {
    const wanted = new Set(ids);
    const fromBatch = batch.filter((t) => wanted.has(t.txid));
    for (const t of fromBatch) wanted.delete(t.txid);
    return [...fromBatch, ...(wanted.size === 0 ? [] : await store.utxoTransactions(n, [...wanted]))];
  }

  function runOnce(): Promise<BitcoinIngestRun> {
    const run = tail.then(ingest);
    tail = run.catch(() => undefined);
    return run;
  }

  function sleep(ms: number): Promise<void> {
    return new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, ms);
      wake = () => {
        clearTimeout(timer);
        resolve();
      };
    }).finally(() => {
      wake = null;
    });
  }

  async function follow(): Promise<void> {
    let failures = 0;
    while (running) {
      let wait = 0;
      try {
        const run = await runOnce();
        failures = 0;
        if (run.toBlock >= run.safeHead) wait = pollMs;
      } catch (error) {
        failures += 1;
        const failure =
          error instanceof KytError
            ? error
            : new KytError("CHAIN_ERROR", `${network} ingestion failed: ${describeError(error)}`, {
                cause: error,
              });
        logger.warn({ network, failures, reason: describeError(failure) }, "block ingestion failed");
        options.onError?.(failure);
        wait = Math.min(MAX_ERROR_WAIT_MS, Math.max(pollMs, 1) * 2 ** (failures - 1));
      }
      if (running && wait > 0) await sleep(wait);
    }
  }

  return Object.freeze({
    cursorKey: key,
    runOnce,
    cursor: readCursor,
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
