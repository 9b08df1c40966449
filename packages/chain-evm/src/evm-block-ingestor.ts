/**
 * The block ingestor: follows an EVM chain up to its last final block and writes the native and
 * ERC-20 transfers it finds into the ledger, so tracing sees new activity. Its cursor (the last
 * block written) is kept in the store and moves in the same transaction as the rows, so a
 * restart resumes exactly where the last committed batch ended.
 */
import {
  describeError,
  fieldError,
  KytError,
  type Logger,
  type Store,
  silentLogger,
  type TokenCatalog,
} from "@openkyt/core";
import { readBlockRange } from "./evm-block-reader.js";
import { createEvmClient, type EvmConnectionOptions } from "./evm-connection.js";
import { confirmationsOption, evmNetwork } from "./evm-network.js";
import { chainError, rpcCall } from "./evm-rpc-errors.js";
import { createDecimalsResolver } from "./evm-token-decimals.js";

/** Options of {@link createBlockIngestor}. */
export interface BlockIngestorOptions extends EvmConnectionOptions {
  /** Where the ledger and the cursor go. */
  readonly store: Store;
  /** The EVM network code; default "ETH". */
  readonly network?: string;
  /** First block to read when the store has no cursor yet; default the chain's last final block. */
  readonly startBlock?: number;
  /** Confirmations a block needs before it is read (as in the chain source); default 1. */
  readonly confirmations?: number;
  /** Most blocks read per batch (one transaction each); default 100. */
  readonly batchBlocks?: number;
  /** Wait between polls once caught up (doubled per consecutive failure, to 60 s); default 5,000 ms. */
  readonly pollMs?: number;
  readonly tokens?: TokenCatalog;
  readonly logger?: Logger;
  /** Told of each failed run of the background loop (which keeps going). */
  readonly onError?: (error: KytError) => void;
}

/** What one run did. An empty range (toBlock < fromBlock) means nothing was final yet. */
export interface IngestRun {
  readonly fromBlock: number;
  readonly toBlock: number;
  /** Ledger rows found in the range. */
  readonly transfers: number;
  /** Rows that were new to the store (a re-read range inserts none). */
  readonly inserted: number;
  /** The last final block when the run began. */
  readonly safeHead: number;
}

/** A block ingestor for one network. */
export interface BlockIngestor {
  /** Settings key of the cursor: `chain-evm:<network>:cursor`. */
  readonly cursorKey: string;
  /** Reads and writes one batch. Runs never overlap (a second call waits for the first). */
  runOnce(): Promise<IngestRun>;
  /** The last block written, or null before the first batch. */
  cursor(): Promise<number | null>;
  /** Follows the chain in the background until `stop()`. Idempotent. */
  start(): void;
  /** Stops following and waits for the batch in hand. Idempotent. */
  stop(): Promise<void>;
}

/** The settings key of a network's ingestor cursor. */
export function ingestorCursorKey(network: string): string {
  return `chain-evm:${network}:cursor`;
}

const MAX_ERROR_WAIT_MS = 60_000;

/** Creates a block ingestor. Nothing runs until `runOnce()` or `start()`. */
export function createBlockIngestor(options: BlockIngestorOptions): BlockIngestor {
  const network = evmNetwork(options.network ?? "ETH");
  const confirmations = confirmationsOption(options.confirmations);
  const batchBlocks = wholeNumber("batchBlocks", options.batchBlocks ?? 100, 1);
  const pollMs = wholeNumber("pollMs", options.pollMs ?? 5_000, 0);
  const startBlock =
    options.startBlock === undefined ? null : wholeNumber("startBlock", options.startBlock, 0);
  const { store } = options;
  const logger = options.logger ?? silentLogger;
  const client = createEvmClient(options);
  const resolver = createDecimalsResolver({
    client,
    network,
    ...(options.tokens ? { tokens: options.tokens } : {}),
    logger,
  });
  const key = ingestorCursorKey(network.code);
  let tail: Promise<unknown> = Promise.resolve();
  let running = false;
  let loop: Promise<void> | null = null;
  let wake: (() => void) | null = null;

  async function readCursor(): Promise<number | null> {
    const value = await store.getSetting(key);
    if (value === null) return null;
    if (!/^\d+$/.test(value))
      throw new KytError("STORE_ERROR", `setting ${key} holds ${JSON.stringify(value)}, not a block number`);
    return Number(value);
  }

  async function ingest(): Promise<IngestRun> {
    const head = await rpcCall(network.code, "eth_blockNumber", () =>
      client.getBlockNumber({ cacheTime: 0 }),
    );
    const safeHead = Number(head) - (confirmations - 1);
    const cursor = await readCursor();
    const fromBlock = cursor === null ? (startBlock ?? Math.max(0, safeHead)) : cursor + 1;
    const toBlock = Math.min(fromBlock + batchBlocks - 1, safeHead);
    if (toBlock < fromBlock)
      return { fromBlock, toBlock: fromBlock - 1, transfers: 0, inserted: 0, safeHead };
    const rows = await readBlockRange({ client, network, resolver }, BigInt(fromBlock), BigInt(toBlock));
    const inserted = await store.transaction(async (tx) => {
      const n = await tx.putLedgerTransfers(rows);
      const current = await tx.getSetting(key);
      // Never move the cursor back (another ingestor of the same store may be ahead).
      if (current === null || !/^\d+$/.test(current) || Number(current) < toBlock) {
        await tx.putSetting(key, String(toBlock));
      }
      return n;
    });
    logger.info(
      { network: network.code, fromBlock, toBlock, transfers: rows.length, inserted },
      "blocks ingested",
    );
    return { fromBlock, toBlock, transfers: rows.length, inserted, safeHead };
  }

  function runOnce(): Promise<IngestRun> {
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
        const failure = error instanceof KytError ? error : chainError(network.code, "ingestion", error);
        logger.warn(
          { network: network.code, failures, reason: describeError(failure) },
          "block ingestion failed",
        );
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

function wholeNumber(field: string, value: number, min: number): number {
  if (!Number.isSafeInteger(value) || value < min)
    throw fieldError(field, `must be a whole number >= ${min}`);
  return value;
}
