/**
 * Undo data: the outputs a block's inputs spent (their value and script), which a raw block
 * does not carry. Two encodings are read:
 * - Bitcoin Core's `CBlockUndo` (the records of its rev*.dat files, undo.h): per non-coinbase
 *   transaction, per input, `VARINT(height*2+coinbase)`, a legacy `VARINT` when the height is
 *   above 0, then the output compressed (compressor.h: `VARINT` amount code, script code).
 * - the "plain" undo of bcoin's test blocks (`block300025-undo.raw`): per non-coinbase input in
 *   block order, the spent output as the wire writes one (int64 value, CompactSize script).
 * Either way an undo that does not fit its block (another count of transactions or inputs,
 * bytes left over, or a rev*.dat record whose checksum names another block) is an error.
 */
import { secp256k1 } from "@noble/curves/secp256k1.js";
import { ByteReader, hexOf } from "./byte-reader.js";
import { hash256, type RawBlock } from "./raw-block.js";

/** An output a block's input spent, as the undo data gives it. */
export interface SpentOutput {
  /** Value in the smallest unit. */
  readonly value: bigint;
  readonly script: Uint8Array;
  /** Height of the block that created it (Core's undo only). */
  readonly height: number | null;
  /** True when a coinbase created it (Core's undo only). */
  readonly coinbase: boolean | null;
}

/** The spent outputs of a block: one array per non-coinbase transaction, one entry per input. */
export type BlockSpends = ReadonlyArray<ReadonlyArray<SpentOutput>>;

/** An undo that cannot be the undo of the block it was given with. */
export class UndoMismatchError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "UndoMismatchError";
  }
}

/** Bitcoin Core's `DecompressAmount` (compressor.cpp): the value a compressed amount code stands for. */
export function decompressAmount(code: bigint): bigint {
  if (code === 0n) return 0n;
  let x = code - 1n;
  let e = x % 10n;
  x /= 10n;
  let n: bigint;
  if (e < 9n) {
    const d = (x % 9n) + 1n;
    x /= 9n;
    n = x * 10n + d;
  } else {
    n = x + 1n;
  }
  while (e > 0n) {
    n *= 10n;
    e--;
  }
  return n;
}

const OP_DUP = 0x76;
const OP_HASH160 = 0xa9;
const OP_EQUALVERIFY = 0x88;
const OP_CHECKSIG = 0xac;
const OP_EQUAL = 0x87;
const OP_RETURN = 0x6a;
/** Core's MAX_SCRIPT_SIZE: a longer stored script stands for an unspendable OP_RETURN. */
const MAX_SCRIPT_SIZE = 10_000;

/** Bitcoin Core's `DecompressScript` for the special codes 0..5, else the script read as is. */
function readCompressedScript(reader: ByteReader, what: string): Uint8Array {
  const code = reader.coreVarInt(`${what} script code`);
  if (code === 0 || code === 1) {
    const hash = reader.take(20, `${what} script hash`);
    return code === 0
      ? Uint8Array.of(OP_DUP, OP_HASH160, 20, ...hash, OP_EQUALVERIFY, OP_CHECKSIG)
      : Uint8Array.of(OP_HASH160, 20, ...hash, OP_EQUAL);
  }
  if (code === 2 || code === 3) {
    const x = reader.take(32, `${what} public key`);
    return Uint8Array.of(33, code, ...x, OP_CHECKSIG);
  }
  if (code === 4 || code === 5) {
    const x = reader.take(32, `${what} public key`);
    const compressed = Uint8Array.of(code - 2, ...x);
    const full = secp256k1.Point.fromBytes(compressed).toBytes(false);
    return Uint8Array.of(65, ...full, OP_CHECKSIG);
  }
  const size = code - 6;
  if (size > MAX_SCRIPT_SIZE) {
    reader.take(size, `${what} script`);
    return Uint8Array.of(OP_RETURN);
  }
  return reader.take(size, `${what} script`).slice();
}

/** Non-coinbase transactions of a block, with their input counts. */
function spendingTransactions(block: RawBlock) {
  return block.transactions.filter((tx) => !tx.coinbase);
}

/**
 * Reads Bitcoin Core's `CBlockUndo` of `block` (the bytes of one rev*.dat record without its
 * magic, size and checksum).
 */
export function parseCoreUndo(bytes: Uint8Array, block: RawBlock): BlockSpends {
  const reader = new ByteReader(bytes);
  const txs = spendingTransactions(block);
  const count = reader.compactSize("undo transaction count");
  if (count !== txs.length) {
    throw new UndoMismatchError(
      `undo of block ${block.header.hash} lists ${count} transactions, the block has ${txs.length} that spend coins`,
    );
  }
  const spends: SpentOutput[][] = [];
  txs.forEach((tx, t) => {
    const inputs = reader.compactSize(`undo of transaction ${tx.txid}`);
    if (inputs !== tx.inputs.length) {
      throw new UndoMismatchError(
        `undo of transaction ${tx.txid} lists ${inputs} spent outputs, the transaction has ${tx.inputs.length} inputs`,
      );
    }
    const spent: SpentOutput[] = [];
    for (let i = 0; i < inputs; i++) {
      const what = `undo of ${tx.txid} input ${i}`;
      const code = reader.coreVarInt(`${what} height`);
      const height = Math.floor(code / 2);
      if (height > 0) reader.coreVarInt(`${what} legacy version`);
      const value = decompressAmount(BigInt(reader.coreVarInt(`${what} amount`)));
      const script = readCompressedScript(reader, what);
      spent.push({ value, script, height, coinbase: code % 2 === 1 });
    }
    spends[t] = spent;
  });
  if (reader.left !== 0) {
    throw new UndoMismatchError(
      `undo of block ${block.header.hash} has ${reader.left} bytes after its last entry`,
    );
  }
  return spends;
}

/** Reads the plain undo of `block`: one wire-format output per non-coinbase input, in block order. */
export function parsePlainUndo(bytes: Uint8Array, block: RawBlock): BlockSpends {
  const reader = new ByteReader(bytes);
  const spends: SpentOutput[][] = [];
  for (const tx of spendingTransactions(block)) {
    const spent: SpentOutput[] = [];
    for (let i = 0; i < tx.inputs.length; i++) {
      if (reader.left === 0) {
        throw new UndoMismatchError(
          `undo of block ${block.header.hash} ends before input ${i} of transaction ${tx.txid}: it is not this block's undo, or it is cut short`,
        );
      }
      const what = `undo of ${tx.txid} input ${i}`;
      const value = reader.i64(`${what} value`);
      const script = reader.varBytes(`${what} script`).slice();
      spent.push({ value, script, height: null, coinbase: null });
    }
    spends.push(spent);
  }
  if (reader.left !== 0) {
    throw new UndoMismatchError(
      `undo of block ${block.header.hash} has ${reader.left} bytes after the outputs its inputs spent: it is not this block's undo`,
    );
  }
  return spends;
}

/**
 * The checksum Bitcoin Core writes after a rev*.dat record: the double SHA-256 of the previous
 * block's hash (internal byte order) followed by the undo bytes. It ties an undo to its block.
 */
export function undoChecksum(prevHash: string, undo: Uint8Array): string {
  const data = new Uint8Array(32 + undo.length);
  for (let i = 0; i < 32; i++) data[i] = Number.parseInt(prevHash.slice(62 - i * 2, 64 - i * 2), 16);
  data.set(undo, 32);
  return hexOf(hash256(data));
}
