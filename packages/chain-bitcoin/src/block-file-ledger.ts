/**
 * Blocks and their undo data as files give them, to UTXO transactions, block by block:
 * - a Bitcoin Core blk*.dat file (records `magic, size, block`) with its rev*.dat file: each
 *   block is matched to its undo record by the record's checksum (double SHA-256 of the previous
 *   block's hash and the undo), whatever the order of either file;
 * - one bare block (`getblock <hash> 0` as bytes, or bcoin's `block300025.raw`) with its undo:
 *   a rev*.dat record, a bare `CBlockUndo`, or bcoin's plain undo (see block-undo.ts).
 * A block that cannot be read or whose undo does not fit gives a problem naming the block (its
 * offset, or its hash once known); the other blocks are still given.
 */

import type { UtxoTransaction } from "@openkyt/core";
import { type BitcoinParams, paramsOfMagic } from "./bitcoin-params.js";
import { type FileRecord, fileRecords } from "./block-files.js";
import { utxoTransactionsOfBlock } from "./block-ledger.js";
import {
  type BlockSpends,
  parseCoreUndo,
  parsePlainUndo,
  UndoMismatchError,
  undoChecksum,
} from "./block-undo.js";
import { hexOf, TruncatedError } from "./byte-reader.js";
import { parseBlock, type RawBlock } from "./raw-block.js";

/** One block of a file: its transactions, or why it was left out. */
export type FileBlock =
  | {
      readonly offset: number;
      readonly hash: string;
      readonly height: number;
      readonly transactions: ReadonlyArray<UtxoTransaction>;
    }
  | { readonly offset: number; readonly hash: string | null; readonly problem: string };

/** Options of {@link blocksOfFiles}. */
export interface BlockFileOptions {
  /** The chain's network (`BTC`, `LTC`) on main, test or regtest: decides address prefixes. */
  readonly params: BitcoinParams;
}

const NULL_HASH = "0".repeat(64);

function messageOf(error: unknown): string {
  if (error instanceof TruncatedError) return `the data ends early (${error.message})`;
  return error instanceof Error ? error.message : String(error);
}

/** The undo of a bare block: a rev*.dat record, else bcoin's plain undo, else a bare CBlockUndo. */
function spendsOfBareUndo(block: RawBlock, undo: Uint8Array, params: BitcoinParams): BlockSpends {
  if (block.transactions.every((tx) => tx.coinbase) && undo.length === 0) return [];
  if (paramsOfMagic(params.network, hexOf(undo.subarray(0, 4))) !== null) {
    for (const record of fileRecords(undo, true)) {
      if (record.checksum === undoChecksum(block.header.prevHash, record.payload))
        return parseCoreUndo(record.payload, block);
    }
    throw new UndoMismatchError(
      `no record of the undo file is the undo of block ${block.header.hash} (checksums differ)`,
    );
  }
  const attempts: string[] = [];
  for (const [name, parse] of [
    ["plain outputs", parsePlainUndo],
    ["CBlockUndo", parseCoreUndo],
  ] as const) {
    try {
      return parse(undo, block);
    } catch (error) {
      if (
        !(
          error instanceof UndoMismatchError ||
          error instanceof TruncatedError ||
          error instanceof RangeError
        )
      )
        throw error;
      attempts.push(`read as ${name}: ${messageOf(error)}`);
    }
  }
  throw new UndoMismatchError(`the undo does not fit block ${block.header.hash} (${attempts.join("; ")})`);
}

function converted(offset: number, block: RawBlock, spends: BlockSpends, params: BitcoinParams): FileBlock {
  // The genesis block (no previous block) is height 0: its coinbase predates BIP34.
  const height = block.header.prevHash === NULL_HASH ? { height: 0 } : {};
  const transactions = utxoTransactionsOfBlock(block, spends, { params, ...height });
  return { offset, hash: block.header.hash, height: transactions[0]?.block ?? 0, transactions };
}

/** Runs `make`; a failure becomes the problem of the block at `offset`. */
function guarded(offset: number, hash: string | null, make: () => FileBlock): FileBlock {
  try {
    return make();
  } catch (error) {
    return { offset, hash, problem: messageOf(error) };
  }
}

/**
 * The blocks of `blocks` (a blk*.dat file or one bare block) with the spends `undo` gives, in
 * the order of the block file. A blk*.dat file's network must be `params`' chain (its magic).
 */
export function* blocksOfFiles(
  blocks: Uint8Array,
  undo: Uint8Array,
  options: BlockFileOptions,
): Generator<FileBlock> {
  const { params } = options;
  const magic = hexOf(blocks.subarray(0, 4));
  const framed = paramsOfMagic(params.network, magic);
  if (framed === null) {
    let block: RawBlock;
    try {
      block = parseBlock(blocks);
    } catch (error) {
      yield { offset: 0, hash: null, problem: `not a block: ${messageOf(error)}` };
      return;
    }
    yield guarded(0, block.header.hash, () =>
      converted(0, block, spendsOfBareUndo(block, undo, params), params),
    );
    return;
  }
  if (framed !== params) {
    throw new RangeError(
      `the block file is of ${framed.network} ${framed.kind} (magic ${magic}), not ${params.network} ${params.kind}`,
    );
  }
  const undos = [...fileRecords(undo, true)];
  const used = new Set<number>();
  // Core writes undo records in the order it connects blocks, mostly the block file's order:
  // the search for a block's undo starts after the last one found, so it is linear for them.
  let cursor = 0;
  const undoOf = (block: RawBlock): Uint8Array | null => {
    for (let k = 0; k < undos.length; k++) {
      const i = (cursor + k) % undos.length;
      const record = undos[i] as (typeof undos)[number];
      if (used.has(i) || record.checksum !== undoChecksum(block.header.prevHash, record.payload)) continue;
      used.add(i);
      cursor = i + 1;
      return record.payload;
    }
    return null;
  };
  const records = fileRecords(blocks, false);
  for (;;) {
    let next: IteratorResult<FileRecord>;
    try {
      next = records.next();
    } catch (error) {
      yield { offset: -1, hash: null, problem: `the block file ends inside a record: ${messageOf(error)}` };
      return;
    }
    if (next.done) return;
    const record = next.value;
    yield guarded(record.offset, null, () => {
      if (record.magic !== magic) throw new Error(`record magic ${record.magic} is not ${magic}`);
      const block = parseBlock(record.payload);
      if (block.header.prevHash === NULL_HASH) return converted(record.offset, block, [], params);
      const spent = undoOf(block);
      if (spent === null)
        throw new UndoMismatchError(`block ${block.header.hash} has no undo record in the undo file`);
      return converted(record.offset, block, parseCoreUndo(spent, block), params);
    });
  }
}
