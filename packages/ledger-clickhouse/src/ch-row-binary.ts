/**
 * Ledger rows in ClickHouse's RowBinary format, the input the server parses cheapest: every value
 * as its bytes (strings as a LEB128 length and UTF-8, integers little-endian, `Nullable` as a
 * null byte before the value), in the column order of `LEDGER_COLUMNS`. Nothing is escaped or
 * quoted, so encoding is a few buffer writes per value, and the server reads the bytes without a
 * text parser. Both 18.16 and current releases read it.
 *
 * Values are checked as they are written (integers safe and in range, strings well-formed UTF-16),
 * and a bad row throws a VALIDATION_ERROR naming the row and the field before anything is sent.
 */
import { KytError, type LedgerTransfer } from "@openkyt/core";

/** Encodes rows into RowBinary chunks of about `chunkBytes` (the last one shorter). */
export class RowBinaryEncoder {
  private buffer: Buffer;
  private at = 0;
  private row = 0;

  constructor(private readonly chunkBytes = 1 << 20) {
    this.buffer = Buffer.allocUnsafe(chunkBytes + MAX_FIXED_BYTES);
  }

  /**
   * Appends one row, and after it a UInt64 `seq` when one is given (the bulk load's staging
   * column); returns a full chunk when one is ready (then the encoder starts a new one).
   */
  push(r: LedgerTransfer, seq?: number): Buffer | null {
    this.row += 1;
    this.string(r.network, "network");
    this.string(r.txHash, "txHash");
    this.int32(r.logIndex, "logIndex");
    this.string(r.tokenId, "tokenId");
    this.string(r.from, "from");
    this.string(r.to, "to");
    this.string(decimalText(r.amount, this.row, "amount"), "amount");
    this.int64(r.occurredAt, "occurredAt");
    if (r.block === null) this.nullByte(1);
    else {
      this.nullByte(0);
      this.int64(r.block, "block");
    }
    if (r.valueUsd === null) this.nullByte(1);
    else {
      this.nullByte(0);
      this.string(decimalText(r.valueUsd, this.row, "valueUsd"), "valueUsd");
    }
    if (seq !== undefined) {
      if (seq < 0) throw bad(this.row, "seq", "a non-negative integer", seq);
      this.int64(seq, "seq");
    }
    return this.at >= this.chunkBytes ? this.take() : null;
  }

  /** The bytes encoded since the last chunk (empty when none). */
  flush(): Buffer {
    return this.take();
  }

  private take(): Buffer {
    const out = Buffer.from(this.buffer.subarray(0, this.at));
    this.at = 0;
    return out;
  }

  /** Room for `bytes` more (the buffer grows for a row past its spare space). */
  private room(bytes: number): void {
    if (this.at + bytes <= this.buffer.length) return;
    const bigger = Buffer.allocUnsafe(Math.max(this.buffer.length * 2, this.at + bytes));
    this.buffer.copy(bigger, 0, 0, this.at);
    this.buffer = bigger;
  }

  private string(value: string, field: string): void {
    if (typeof value !== "string") throw bad(this.row, field, "a string", value);
    // Short text (addresses, hashes) is written first and its length put before it after: one
    // pass, no count of UTF-8 bytes first; a length past 127 moves the bytes one place on.
    this.room(value.length * 3 + 5);
    const start = this.at;
    if (value.length < 128) {
      const written = this.buffer.write(value, start + 1, "utf8");
      if (written !== value.length) this.wellFormed(value, field);
      if (written < 128) {
        this.buffer[start] = written;
        this.at = start + 1 + written;
        return;
      }
      this.buffer.copyWithin(start + 2, start + 1, start + 1 + written);
      this.buffer[start] = (written & 0x7f) | 0x80;
      this.buffer[start + 1] = written >>> 7;
      this.at = start + 2 + written;
      return;
    }
    let n = Buffer.byteLength(value, "utf8");
    if (n !== value.length) this.wellFormed(value, field);
    while (n >= 0x80) {
      this.buffer[this.at++] = (n & 0x7f) | 0x80;
      n >>>= 7;
    }
    this.buffer[this.at++] = n;
    this.at += this.buffer.write(value, this.at, "utf8");
  }

  /**
   * Refuses a lone UTF-16 surrogate (UTF-8 cannot hold it; the write would put U+FFFD in its
   * place and store another string). Only text that is not plain ASCII gets here.
   */
  private wellFormed(value: string, field: string): void {
    if (LONE_SURROGATE.test(value)) throw bad(this.row, field, "a well-formed string", value);
  }

  private int32(value: number, field: string): void {
    if (!Number.isInteger(value) || value < -0x80000000 || value > 0x7fffffff) {
      throw bad(this.row, field, "a 32-bit integer", value);
    }
    this.room(4);
    this.buffer.writeInt32LE(value, this.at);
    this.at += 4;
  }

  private int64(value: number, field: string): void {
    if (!Number.isSafeInteger(value)) throw bad(this.row, field, "a safe integer", value);
    this.room(8);
    // Two 32-bit halves: cheaper than a BigInt per value.
    const low = value % 0x1_0000_0000;
    const high = Math.floor(value / 0x1_0000_0000);
    this.buffer.writeUInt32LE(low < 0 ? low + 0x1_0000_0000 : low, this.at);
    this.buffer.writeInt32LE(high, this.at + 4);
    this.at += 8;
  }

  private nullByte(flag: 0 | 1): void {
    this.room(1);
    this.buffer[this.at++] = flag;
  }
}

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Bytes one row's fixed-width values take at most (integers and null flags). */
const MAX_FIXED_BYTES = 4 + 8 + 1 + 8 + 1;

/** The exact decimal text a number is stored as (its shortest round-trip form). */
function decimalText(value: number, row: number, field: string): string {
  if (typeof value !== "number" || !Number.isFinite(value)) throw bad(row, field, "a finite number", value);
  return String(value);
}

function bad(row: number, field: string, expected: string, value: unknown): KytError {
  const shown = typeof value === "string" ? JSON.stringify(value.slice(0, 80)) : String(value);
  return new KytError("VALIDATION_ERROR", `ledger row ${row}: ${field}: expected ${expected}, got ${shown}`);
}
