/**
 * Raw blocks and transactions in Bitcoin's wire format (the bytes of blk*.dat records, of
 * `getblock <hash> 0` and of `getrawtransaction <txid> false`), segwit included. The txid is
 * the double SHA-256 of the transaction without its witness data, the block hash that of the
 * 80-byte header; both are shown byte-reversed, as explorers and Bitcoin Core show them.
 */
import { createHash } from "node:crypto";
import { ByteReader, hexOf } from "./byte-reader.js";

/** An input as the wire carries it. */
export interface RawInput {
  /** The spent output's txid (display order); 64 zeros for a coinbase input. */
  readonly prevTxid: string;
  /** The spent output's index; 0xffffffff for a coinbase input. */
  readonly prevVout: number;
  readonly scriptSig: Uint8Array;
  readonly sequence: number;
}

/** An output as the wire carries it. */
export interface RawOutput {
  /** Value in the smallest unit, as the 64-bit field says (checked by the caller). */
  readonly value: bigint;
  readonly script: Uint8Array;
}

/** A decoded transaction. */
export interface RawTransaction {
  readonly txid: string;
  readonly version: number;
  readonly inputs: ReadonlyArray<RawInput>;
  readonly outputs: ReadonlyArray<RawOutput>;
  readonly lockTime: number;
  /** True when its only input spends no outpoint (txid of zeros, index 0xffffffff). */
  readonly coinbase: boolean;
}

/** A decoded block header. */
export interface RawBlockHeader {
  readonly hash: string;
  readonly version: number;
  readonly prevHash: string;
  readonly merkleRoot: string;
  /** Header timestamp, seconds since the epoch. */
  readonly time: number;
  readonly bits: number;
  readonly nonce: number;
}

/** A decoded block. */
export interface RawBlock {
  readonly header: RawBlockHeader;
  readonly transactions: ReadonlyArray<RawTransaction>;
  /** Its size in bytes. */
  readonly size: number;
}

const NULL_TXID = "0".repeat(64);
const COINBASE_INDEX = 0xffffffff;

/** Double SHA-256, as Bitcoin hashes headers and transactions (node:crypto: native, fast). */
export function hash256(bytes: Uint8Array): Uint8Array {
  const once = createHash("sha256").update(bytes).digest();
  return createHash("sha256").update(once).digest();
}

/** Reads one transaction at the reader's position (`label` names it in errors). */
export function readTransaction(reader: ByteReader, label = "transaction"): RawTransaction {
  const start = reader.offset;
  const version = reader.u32(`${label} version`);
  let segwit = false;
  // A segwit transaction has a zero marker where the input count would be, then flag 1.
  if (reader.left >= 2 && reader.bytes[reader.offset] === 0 && reader.bytes[reader.offset + 1] === 1) {
    segwit = true;
    reader.offset += 2;
  }
  const bodyStart = reader.offset;
  const inputCount = reader.compactSize(`${label} input count`);
  const inputs: RawInput[] = [];
  for (let i = 0; i < inputCount; i++) {
    const what = `${label} input ${i}`;
    const prevTxid = hexOf(reader.take(32, `${what} outpoint`), true);
    const prevVout = reader.u32(`${what} outpoint`);
    const scriptSig = reader.varBytes(`${what} script`);
    const sequence = reader.u32(`${what} sequence`);
    inputs.push({ prevTxid, prevVout, scriptSig, sequence });
  }
  const outputCount = reader.compactSize(`${label} output count`);
  const outputs: RawOutput[] = [];
  for (let i = 0; i < outputCount; i++) {
    const value = reader.i64(`${label} output ${i} value`);
    const script = reader.varBytes(`${label} output ${i} script`);
    outputs.push({ value, script });
  }
  const bodyEnd = reader.offset;
  if (segwit) {
    for (let i = 0; i < inputCount; i++) {
      const items = reader.compactSize(`${label} witness ${i}`);
      for (let j = 0; j < items; j++) reader.varBytes(`${label} witness ${i}`);
    }
  }
  const lockTime = reader.u32(`${label} lock time`);
  const bytes = reader.bytes;
  let stripped: Uint8Array;
  if (segwit) {
    const body = bytes.subarray(bodyStart, bodyEnd);
    stripped = new Uint8Array(8 + body.length);
    stripped.set(bytes.subarray(start, start + 4), 0);
    stripped.set(body, 4);
    stripped.set(bytes.subarray(reader.offset - 4, reader.offset), 4 + body.length);
  } else {
    stripped = bytes.subarray(start, reader.offset);
  }
  const first = inputs[0];
  const coinbase =
    inputs.length === 1 &&
    first !== undefined &&
    first.prevTxid === NULL_TXID &&
    first.prevVout === COINBASE_INDEX;
  return { txid: hexOf(hash256(stripped), true), version, inputs, outputs, lockTime, coinbase };
}

/** Reads an 80-byte block header at the reader's position. */
export function readBlockHeader(reader: ByteReader): RawBlockHeader {
  const raw = reader.take(80, "block header");
  const r = new ByteReader(raw);
  const version = r.u32("version");
  const prevHash = hexOf(r.take(32, "previous block hash"), true);
  const merkleRoot = hexOf(r.take(32, "merkle root"), true);
  const time = r.u32("time");
  const bits = r.u32("bits");
  const nonce = r.u32("nonce");
  return { hash: hexOf(hash256(raw), true), version, prevHash, merkleRoot, time, bits, nonce };
}

/**
 * Decodes one whole block. A block cut short throws a `TruncatedError` naming the part it was
 * reading; bytes left after the last transaction are an error too (not a block).
 */
export function parseBlock(bytes: Uint8Array): RawBlock {
  const reader = new ByteReader(bytes);
  const header = readBlockHeader(reader);
  const count = reader.compactSize("transaction count");
  const transactions: RawTransaction[] = [];
  for (let i = 0; i < count; i++) transactions.push(readTransaction(reader, `transaction ${i}`));
  if (reader.left !== 0) throw new Error(`${reader.left} bytes after the last of ${count} transactions`);
  return { header, transactions, size: bytes.length };
}

/**
 * The block height a coinbase states (BIP34: its script starts with the height, pushed as a
 * little-endian number), or null when its script starts with no such push. Blocks before BIP34
 * (mainnet height 227,931) may start with other data: their height is not in the block.
 */
export function coinbaseHeight(coinbase: RawTransaction): number | null {
  const script = coinbase.inputs[0]?.scriptSig;
  if (!coinbase.coinbase || script === undefined || script.length === 0) return null;
  const op = script[0] as number;
  if (op === 0x00) return 0;
  if (op >= 0x51 && op <= 0x60) return op - 0x50; // OP_1 .. OP_16 (regtest's first blocks)
  if (op < 1 || op > 8 || script.length < 1 + op) return null;
  let height = 0;
  for (let i = op; i >= 1; i--) height = height * 256 + (script[i] as number);
  return height;
}
