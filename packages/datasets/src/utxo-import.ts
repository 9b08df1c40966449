/**
 * Importing a UTXO ledger (Bitcoin, Litecoin): one row per transaction, each imported whole or
 * not at all. Three formats:
 * - `bitcoin-core`: JSON lines, each Bitcoin Core's answer to `getblock <hash> 3` (or the
 *   JSON-RPC envelope around it); amounts in decimal BTC, read exactly;
 * - `esplora`: JSON lines, each an Esplora transaction object; values in satoshis;
 * - `bitcoin-blocks`: a blk*.dat file (or one bare block) with its undo data (see
 *   `ImportOptions.undoFile`).
 * Every transaction passes `utxoTransactionProblem` (totals reconcile: a transaction that is not
 * a coinbase pays out at most what its inputs bring in) or is rejected with its line (for
 * `bitcoin-blocks`, the block's number in the file) and the reason; an input whose prevout the
 * data does not give is an unknown prevout and rejects its transaction. Accepted transactions
 * are written in batches, each batch one store transaction (`putUtxoTransactions`, then, unless
 * `clustering` is false, the merge of the batch's address clusters in the same transaction: a
 * batch and its clustering land together or not at all); a transaction already stored counts as
 * unchanged and is merged again, which changes nothing (merging is idempotent), so a re-run or a
 * retry after a failed batch leaves the clusters as one clean run does. When the store offers a
 * bulk load for this import (`Store.bulkUtxoWriter`: SQLite, an `exclusiveStore` import into an
 * empty UTXO ledger), batches go into it instead and the whole file lands at the end in one
 * transaction with the clusters of every batch, joined in memory; nothing lands when anything
 * fails. Outputs that pay no address are kept (address null) and counted
 * (`summary.utxo.outputsWithoutAddress`).
 */
import { readFile } from "node:fs/promises";
import { basename, dirname, join } from "node:path";
import {
  BITCOIN_CHAIN_KINDS,
  type BitcoinChainKind,
  type BitcoinParams,
  bitcoinParams,
  blocksOfFiles,
  decodeCoreBlock,
  esploraTransaction,
  FieldProblem,
  outputsWithoutAddress,
  paramsOfMagic,
  parseJsonKeepingNumbers,
  utxoTransactionProblem,
} from "@openkyt/chain-bitcoin";
import {
  addClustering,
  type ClusteringSummary,
  clusterConflictsInStore,
  clusterInStore,
  commonInputGroups,
  describeError,
  KytError,
  noClustering,
  type Store,
  type UtxoBulkWriter,
  type UtxoTransaction,
} from "@openkyt/core";
import { type TextFile, unreadable } from "./file-text.js";
import type { ImportContext, ReadPosition } from "./import-context.js";
import type { ImportOptions, UtxoImportCounts } from "./import-types.js";
import { lineBatches } from "./text-lines.js";
import { utxoItemsOnThread } from "./utxo-thread-items.js";

/** The UTXO ledger formats of `openkyt import ledger`. */
export const UTXO_LEDGER_FORMATS = ["bitcoin-core", "esplora", "bitcoin-blocks"] as const;

/** True when `format` is a UTXO ledger format. */
export function isUtxoLedgerFormat(format: string): boolean {
  return (UTXO_LEDGER_FORMATS as ReadonlyArray<string>).includes(format);
}

/** A transaction read from the file, or why one could not be read; `line` locates it. */
export type UtxoItem =
  | { readonly line: number; readonly tx: UtxoTransaction }
  | { readonly line: number; readonly problem: string };

function badOption(option: string, message: string): KytError {
  return new KytError("VALIDATION_ERROR", `${option}: ${message}`, { errors: { [option]: [message] } });
}

/** The chain kind option, checked. */
function chainOption(value: string | undefined): BitcoinChainKind | undefined {
  if (value === undefined) return undefined;
  if (!(BITCOIN_CHAIN_KINDS as ReadonlyArray<string>).includes(value))
    throw badOption("chain", `must be one of ${BITCOIN_CHAIN_KINDS.join(", ")}`);
  return value as BitcoinChainKind;
}

/**
 * What reading a UTXO ledger file needs of its import (on the importing thread the import's
 * context, on the UTXO parse thread its own): the file, the options and a progress report.
 */
export interface UtxoReading {
  readonly file: TextFile;
  readonly options: Pick<ImportOptions, "network" | "chain" | "undoFile">;
  /** Where reading stands, after each batch (or block). */
  progress(at: ReadPosition): void;
}

/** The network's parameters from the options (default BTC on main). */
export function paramsOption(ctx: Pick<UtxoReading, "options">): BitcoinParams {
  const network = ctx.options.network ?? "BTC";
  try {
    return bitcoinParams(network, chainOption(ctx.options.chain) ?? "main");
  } catch (error) {
    if (error instanceof KytError && error.code === "NOT_CONFIGURED")
      throw badOption("network", `a UTXO ledger is BTC or LTC, not "${network}"`);
    throw error;
  }
}

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

/**
 * Longest `getblock <hash> 3` line kept, in characters (256 Mi): a full mainnet block with every
 * prevout runs to tens of MB of JSON, far past the 1 Mi of a ledger row (`MAX_LINE_CHARS`).
 */
export const CORE_MAX_LINE_CHARS = 256 * 1024 * 1024;

/** The transactions of JSON lines of `bitcoin-core` answers; a line too long is rejected, not skipped. */
async function* coreItems(ctx: UtxoReading, params: BitcoinParams): AsyncGenerator<UtxoItem[]> {
  for await (const batch of lineBatches(ctx.file.chunks(), CORE_MAX_LINE_CHARS)) {
    const items: UtxoItem[] = [];
    for (const { line, text, problem } of batch) {
      if (problem !== undefined) {
        items.push({ line, problem });
        continue;
      }
      if (text.trim() === "") continue;
      try {
        const block = decodeCoreBlock(parseJsonKeepingNumbers(text), params);
        for (const t of block.transactions)
          items.push(
            "tx" in t ? { line, tx: t.tx } : { line, problem: `${t.txid ?? "transaction"}: ${t.problem}` },
          );
      } catch (error) {
        if (!(error instanceof FieldProblem || error instanceof SyntaxError)) throw error;
        items.push({ line, problem: `not a getblock <hash> 3 answer: ${messageOf(error)}` });
      }
    }
    yield items;
  }
}

/** The transactions of JSON lines of Esplora transaction objects; positions by order in each block. */
async function* esploraItems(ctx: UtxoReading, params: BitcoinParams): AsyncGenerator<UtxoItem[]> {
  const nextPosition = new Map<string, number>();
  for await (const batch of lineBatches(ctx.file.chunks())) {
    const items: UtxoItem[] = [];
    for (const { line, text, problem } of batch) {
      if (problem !== undefined) {
        items.push({ line, problem });
        continue;
      }
      if (text.trim() === "") continue;
      try {
        const value = parseJsonKeepingNumbers(text);
        const block = esploraBlockHash(value);
        const coinbase = isCoinbaseObject(value);
        const position = coinbase ? 0 : Math.max(1, nextPosition.get(block) ?? 1);
        const tx = esploraTransaction(value, position, params);
        nextPosition.set(block, position + 1);
        items.push({ line, tx });
      } catch (error) {
        if (!(error instanceof FieldProblem || error instanceof SyntaxError)) throw error;
        items.push({ line, problem: `${txidIn(text)}${messageOf(error)}` });
      }
    }
    yield items;
  }
}

function esploraBlockHash(value: unknown): string {
  const status = (value as { status?: { block_hash?: unknown } } | null)?.status;
  return typeof status?.block_hash === "string" ? status.block_hash : "";
}

function isCoinbaseObject(value: unknown): boolean {
  const vin = (value as { vin?: unknown } | null)?.vin;
  return Array.isArray(vin) && (vin[0] as { is_coinbase?: unknown } | undefined)?.is_coinbase === true;
}

/** `txid: ` of a line that names one, for a rejection's reason. */
function txidIn(text: string): string {
  const m = /"txid"\s*:\s*"([0-9a-fA-F]{64})"/.exec(text);
  return m ? `${m[1]}: ` : "";
}

/** The undo file of a block file: the option, else `revNNNNN.dat` for `blkNNNNN.dat`, `NAME-undo.EXT` for `NAME.EXT`. */
export function undoFileOf(file: string, given?: string): string {
  if (given !== undefined) return given;
  const name = basename(file);
  const blk = /^blk(\d+)\.dat$/i.exec(name);
  if (blk) return join(dirname(file), `rev${blk[1]}.dat`);
  const dot = name.lastIndexOf(".");
  const undo = dot > 0 ? `${name.slice(0, dot)}-undo${name.slice(dot)}` : `${name}-undo`;
  return join(dirname(file), undo);
}

async function bytesOf(path: string, what: string): Promise<Uint8Array> {
  try {
    return new Uint8Array(await readFile(path));
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    if (code === "ENOENT")
      throw new KytError("NOT_FOUND", `${path}: ${what} not found`, {
        cause: error,
        details: { file: path },
      });
    throw unreadable(path, `cannot be read (${describeError(error)})`, error);
  }
}

/** The transactions of a block file with its undo file; a bad block is one rejected row, numbered by its place. */
async function* blockItems(ctx: UtxoReading, params: BitcoinParams): AsyncGenerator<UtxoItem[]> {
  const blocks = await bytesOf(ctx.file.path, "block file");
  const undoPath = undoFileOf(ctx.file.path, ctx.options.undoFile);
  const undo = await bytesOf(undoPath, "undo file (give it with --undo)");
  const magic = Buffer.from(blocks.subarray(0, 4)).toString("hex");
  const framed = paramsOfMagic(params.network, magic);
  const chosen = framed !== null && ctx.options.chain === undefined ? framed : params;
  let n = 0;
  let rowsRead = 0;
  for (const block of blocksOfFiles(blocks, undo, { params: chosen })) {
    n++;
    const at = block.offset >= 0 ? `block at byte ${block.offset}` : "block";
    if ("problem" in block) {
      yield [{ line: n, problem: `${at}${block.hash ? ` (${block.hash})` : ""}: ${block.problem}` }];
      rowsRead++;
      continue;
    }
    yield block.transactions.map((tx) => ({ line: n, tx }));
    rowsRead += block.transactions.length;
    ctx.progress({ rowsRead, bytesRead: block.offset });
  }
}

/** `sum` plus `batch`, a cluster's conflict kept once (as last seen). */
function withBatch(sum: ClusteringSummary, batch: ClusteringSummary): ClusteringSummary {
  const added = addClustering(sum, batch);
  const byCluster = new Map(added.conflicts.map((c) => [`${c.network}:${c.clusterId}`, c]));
  return { ...added, conflicts: [...byCluster.values()] };
}

/** Where accepted transactions go: `take` each, `flush` at the end; `abort` after a failure. */
interface UtxoSink {
  take(tx: UtxoTransaction): Promise<void>;
  flush(): Promise<void>;
  abort(): Promise<void>;
}

/** Counts a taken transaction; false when its txid is already in the batch (a duplicate). */
function counted(ctx: ImportContext, counts: UtxoImportCounts, inBatch: Set<string>, blocks: Set<string>) {
  return (tx: UtxoTransaction): boolean => {
    if (inBatch.has(tx.txid)) {
      ctx.tally.duplicates++;
      return false;
    }
    inBatch.add(tx.txid);
    counts.inputs += tx.inputs.length;
    counts.outputs += tx.outputs.length;
    counts.outputsWithoutAddress += outputsWithoutAddress(tx);
    blocks.add(tx.blockHash ?? `#${tx.block}`);
    counts.blocks = blocks.size;
    return true;
  };
}

/** Writes accepted transactions in batches; each batch (and its clustering) is one store transaction. */
function createUtxoWriter(store: Store, ctx: ImportContext, counts: UtxoImportCounts): UtxoSink {
  const clustering = ctx.options.clustering ?? true;
  let batch: UtxoTransaction[] = [];
  const inBatch = new Set<string>();
  const count = counted(ctx, counts, inBatch, new Set());
  const sink: UtxoSink = {
    async take(tx: UtxoTransaction) {
      if (!count(tx)) return;
      batch.push(tx);
      if (batch.length >= ctx.batchSize) await sink.flush();
    },
    async flush() {
      if (batch.length === 0) return;
      const written = batch;
      const { added, clusters } = await store.transaction(async (tx) => ({
        added: await tx.putUtxoTransactions(written),
        clusters: clustering ? await clusterInStore(tx, written) : null,
      }));
      if (clusters !== null) counts.clustering = withBatch(counts.clustering ?? noClustering(), clusters);
      ctx.tally.added += added;
      ctx.tally.unchanged += batch.length - added;
      batch = [];
      inBatch.clear();
    },
    abort: async () => {},
  };
  return sink;
}

/**
 * Writes accepted transactions into the store's bulk load (`Store.bulkUtxoWriter`): batches go
 * in as they fill, their common-input groups are gathered in memory, and `flush` commits the
 * transactions and the clusters of every group together; conflicts are looked up after.
 */
function createBulkUtxoWriter(
  store: Store,
  bulk: UtxoBulkWriter,
  ctx: ImportContext,
  counts: UtxoImportCounts,
): UtxoSink {
  const clustering = ctx.options.clustering ?? true;
  let batch: UtxoTransaction[] = [];
  const inBatch = new Set<string>();
  const count = counted(ctx, counts, inBatch, new Set());
  const groups = new Map<string, string[][]>();
  let summary = noClustering();
  let taken = 0;
  const write = async () => {
    if (batch.length === 0) return;
    if (clustering) {
      const found = commonInputGroups(batch);
      for (const [network, list] of found.groups) {
        const all = groups.get(network);
        if (all) for (const g of list) all.push(g);
        else groups.set(network, [...list]);
      }
      summary = addClustering(summary, {
        transactions: batch.length,
        joined: found.joined,
        coinJoins: found.coinJoins,
        unions: 0,
        conflicts: [],
      });
    }
    await bulk.write(batch);
    taken += batch.length;
    batch = [];
    inBatch.clear();
  };
  const sink: UtxoSink = {
    async take(tx: UtxoTransaction) {
      if (!count(tx)) return;
      batch.push(tx);
      if (batch.length >= ctx.batchSize) await write();
    },
    async flush() {
      await write();
      const outcome = await bulk.finish(clustering ? groups : undefined);
      ctx.tally.added += outcome.added;
      ctx.tally.unchanged += taken - outcome.added;
      if (!clustering) return;
      let unions = 0;
      const conflicts = [];
      for (const [network, merged] of outcome.clusters) {
        unions += merged.unions;
        // A cluster with fewer than two labelled members holds no conflict: when the store
        // names those with two or more, only they are asked about.
        const asked = outcome.contestable?.get(network) ?? merged.clusterIds;
        conflicts.push(...(await clusterConflictsInStore(store, network, asked)));
      }
      counts.clustering = withBatch(counts.clustering ?? noClustering(), { ...summary, unions, conflicts });
    },
    abort: () => bulk.abort(),
  };
  return sink;
}

/**
 * The items of a UTXO ledger file of `format`, each transaction checked (`utxoTransactionProblem`:
 * one that fails becomes its problem), with progress after each batch.
 */
export async function* utxoItems(
  ctx: UtxoReading,
  format: string,
  params: BitcoinParams,
): AsyncGenerator<UtxoItem[]> {
  const read =
    format === "bitcoin-core"
      ? coreItems(ctx, params)
      : format === "esplora"
        ? esploraItems(ctx, params)
        : blockItems(ctx, params);
  let rowsRead = 0;
  for await (const batch of read) {
    yield batch.map((item) => {
      if ("problem" in item) return item;
      const problem = utxoTransactionProblem(item.tx);
      return problem === null ? item : { line: item.line, problem };
    });
    rowsRead += batch.length;
    // Blocks report their own progress (by the byte offset of each block).
    if (format !== "bitcoin-blocks") ctx.progress({ rowsRead, bytesRead: ctx.file.bytesRead() });
  }
}

/**
 * Imports a UTXO ledger file of `ctx.format` (see the module comment), read on this thread or,
 * `onThread`, on a parse thread of its own (`utxo-thread-items.ts`) while this thread writes.
 */
export async function importUtxoLedger(ctx: ImportContext, onThread = false): Promise<void> {
  const params = paramsOption(ctx);
  const counts: UtxoImportCounts = {
    blocks: 0,
    inputs: 0,
    outputs: 0,
    outputsWithoutAddress: 0,
    clustering: (ctx.options.clustering ?? true) ? noClustering() : null,
  };
  ctx.tally.utxo = counts;
  const items = onThread ? utxoItemsOnThread(ctx) : utxoItems(ctx, ctx.format, params);
  const bulk = (await ctx.store.bulkUtxoWriter?.({ exclusive: ctx.options.exclusiveStore ?? false })) ?? null;
  const writer =
    bulk === null
      ? createUtxoWriter(ctx.store, ctx, counts)
      : createBulkUtxoWriter(ctx.store, bulk, ctx, counts);
  try {
    await readInto(ctx, items, writer);
  } catch (error) {
    await writer.abort();
    throw error;
  }
  ctx.finishing();
}

/** Takes every checked item into `writer`, rejecting what did not check, and flushes it. */
async function readInto(
  ctx: ImportContext,
  items: AsyncGenerator<UtxoItem[]>,
  writer: UtxoSink,
): Promise<void> {
  for await (const batch of items) {
    for (const item of batch) {
      ctx.tally.rowsRead++;
      if ("problem" in item) ctx.tally.reject(item.line, item.problem);
      else await writer.take(item.tx);
    }
  }
  await writer.flush();
}
