/**
 * A cursor over bytes in Bitcoin's wire encodings: little-endian integers, CompactSize counts
 * and Bitcoin Core's VARINT (the base-128 form of its undo and chainstate records). Reading past
 * the end throws a {@link TruncatedError} naming what was being read, never a wrong value.
 */
import { Buffer } from "node:buffer";

/** Bytes ran out while reading `what`. */
export class TruncatedError extends Error {
  constructor(
    readonly what: string,
    readonly offset: number,
    readonly needed: number,
    readonly available: number,
  ) {
    super(`truncated: ${what} needs ${needed} bytes at offset ${offset}, ${available} left`);
    this.name = "TruncatedError";
  }
}

/** Reads bytes from the front; `offset` is where the next read starts. */
export class ByteReader {
  offset: number;

  constructor(
    readonly bytes: Uint8Array,
    offset = 0,
  ) {
    this.offset = offset;
  }

  /** Bytes not read yet. */
  get left(): number {
    return this.bytes.length - this.offset;
  }

  private need(n: number, what: string): number {
    if (n > this.left) throw new TruncatedError(what, this.offset, n, this.left);
    const at = this.offset;
    this.offset += n;
    return at;
  }

  /** The next `n` bytes (a view, not a copy). */
  take(n: number, what: string): Uint8Array {
    const at = this.need(n, what);
    return this.bytes.subarray(at, at + n);
  }

  u8(what: string): number {
    return this.bytes[this.need(1, what)] as number;
  }

  u32(what: string): number {
    const at = this.need(4, what);
    const b = this.bytes;
    return (
      ((b[at] as number) | ((b[at + 1] as number) << 8) | ((b[at + 2] as number) << 16)) +
      (b[at + 3] as number) * 2 ** 24
    );
  }

  /** A little-endian signed 64-bit integer (an output's value). */
  i64(what: string): bigint {
    const at = this.need(8, what);
    return new DataView(this.bytes.buffer, this.bytes.byteOffset + at, 8).getBigInt64(0, true);
  }

  /** A CompactSize count (1, 3, 5 or 9 bytes); one above `Number.MAX_SAFE_INTEGER` throws. */
  compactSize(what: string): number {
    const first = this.u8(what);
    if (first < 0xfd) return first;
    if (first === 0xfd) {
      const at = this.need(2, what);
      return (this.bytes[at] as number) | ((this.bytes[at + 1] as number) << 8);
    }
    if (first === 0xfe) return this.u32(what);
    const at = this.need(8, what);
    const value = new DataView(this.bytes.buffer, this.bytes.byteOffset + at, 8).getBigUint64(0, true);
    if (value > BigInt(Number.MAX_SAFE_INTEGER)) throw new RangeError(`${what}: count ${value} is too large`);
    return Number(value);
  }

  /** A CompactSize length followed by that many bytes. */
  varBytes(what: string): Uint8Array {
    return this.take(this.compactSize(what), what);
  }

  /**
   * Bitcoin Core's VARINT (serialize.h): base-128 digits, most significant first, the high bit
   * set on every digit but the last, and one added to every digit but the last (so each value
   * has exactly one encoding).
   */
  coreVarInt(what: string): number {
    let n = 0;
    for (;;) {
      const digit = this.u8(what);
      n = n * 128 + (digit & 0x7f);
      if (!Number.isSafeInteger(n)) throw new RangeError(`${what}: VARINT too large`);
      if ((digit & 0x80) === 0) return n;
      n += 1;
    }
  }
}

/**
 * Lower-case hex of bytes, reversed first when `reverse` (txids and block hashes are shown
 * reversed). Written by Buffer's native encoder as one flat string: a string built a byte at a
 * time is a rope of 32 pieces that every later regex test or map lookup flattens again (in a
 * profile of a `bitcoin-blocks` import, that and the pieces were 10% of the decode's CPU).
 */
export function hexOf(bytes: Uint8Array, reverse = false): string {
  const view = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  return (reverse ? Buffer.from(view).reverse() : view).toString("hex");
}

/** Bytes of a hex string (even length, no prefix); null when it is not hex. */
export function bytesOfHex(hex: string): Uint8Array | null {
  if (hex.length % 2 !== 0 || !/^[0-9a-fA-F]*$/.test(hex)) return null;
  const out = new Uint8Array(hex.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = Number.parseInt(hex.slice(i * 2, i * 2 + 2), 16);
  return out;
}
