/**
 * Ledger rows in ClickHouse's RowBinary format, the input the server parses cheapest: every value
 * as its bytes (strings as a LEB128 length and UTF-8, integers little-endian, `Nullable` as a
 * null byte before the value), in the column order of `LEDGER_COLUMNS`. Nothing is escaped or
 * quoted, so encoding is a few buffer writes per value, and the server reads the bytes without a
 * text parser. Both 18.16 and current releases read it.
 *
 * Values are checked as they are written (integers safe and in range, strings well-formed UTF-16),
 * and a bad row throws a VALIDATION_ERROR naming the row and the field before anything is sent.
 *
 * Work per row is kept to the writes (see docs/benchmarks.md, "ClickHouse ingest"): a chunk is
 * handed out as a view of the buffer it was encoded in, not a copy, and a caller done with a
 * chunk may give it back (`recycle`) to be encoded into again, so a long ingest does not
 * allocate (and fault in, and collect) a fresh megabyte per chunk; an amount of at most six
 * decimals is written digit by digit, without the string `String(amount)` would make and search
 * the shortest digits for (`decimal`: the same text, proved below).
 */
import { KytError, type LedgerTransfer } from "@openkyt/core";

/** Encodes rows into RowBinary chunks of about `chunkBytes` (the last one shorter). */
export class RowBinaryEncoder {
  private buffer: Buffer;
  private at = 0;
  private row = 0;
  /** Buffers given back by `recycle`, encoded into before a new one is allocated. */
  private readonly spare: Buffer[] = [];

  constructor(private readonly chunkBytes = 1 << 20) {
    this.buffer = Buffer.allocUnsafe(this.bufferBytes);
  }

  /**
   * The size of the buffer a chunk is encoded in: a chunk's bytes and room for one more row past
   * them (a string asks for three bytes per UTF-16 unit before it is written), so a buffer grows
   * only for a row of very long strings, and stays of the size `recycle` takes back.
   */
  private get bufferBytes(): number {
    return this.chunkBytes + ROW_ROOM;
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
    this.decimal(r.amount, "amount");
    this.int64(r.occurredAt, "occurredAt");
    if (r.block === null) this.nullByte(1);
    else {
      this.nullByte(0);
      this.int64(r.block, "block");
    }
    if (r.valueUsd === null) this.nullByte(1);
    else {
      this.nullByte(0);
      this.decimal(r.valueUsd, "valueUsd");
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

  /**
   * Gives back chunks this encoder returned once nothing reads them any more (their INSERT is
   * answered): their buffers are encoded into again. At most `keep` buffers are held.
   */
  recycle(chunks: ReadonlyArray<Buffer>, keep = 512): void {
    for (const chunk of chunks) {
      if (this.spare.length >= keep) return;
      // A chunk is a view from the start of a buffer of its own (allocUnsafe past the pool's size);
      // one of a buffer grown for a long row is of another size and left to the collector.
      if (chunk.byteOffset !== 0 || chunk.buffer.byteLength !== this.bufferBytes) continue;
      this.spare.push(Buffer.from(chunk.buffer, 0, this.bufferBytes));
    }
  }

  /** The chunk encoded so far, as a view of its buffer; encoding goes on in a spare or new buffer. */
  private take(): Buffer {
    const out = this.buffer.subarray(0, this.at);
    this.buffer = this.spare.pop() ?? Buffer.allocUnsafe(this.bufferBytes);
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
   * A number as its decimal text, exactly `String(value)`: written digit by digit when the value
   * is `n / 10^6` for an integer n and |value| < 2^31, else through `String`.
   *
   * Why the text is String's: `n / 1e6` is correctly rounded, so when it equals `value` the
   * decimal D = n * 10^-6 reads back as `value`. String gives the shortest digits that read back
   * (the closest if several). Any text reading back as `value` is within its rounding interval,
   * narrower than 2^-22 below 2^31, so two texts of at most six decimals cannot both read back;
   * and a text with no more digits than D has no more decimals than D (the same leading digit
   * position; across a power of ten it would be at least 10^-6 away). So String's text is D.
   * Below 10^-6 String writes an exponent: n is then 0 (written "0", as String(0) and -0).
   */
  private decimal(value: number, field: string): void {
    if (typeof value !== "number" || !Number.isFinite(value))
      throw bad(this.row, field, "a finite number", value);
    const scaled = value * 1e6;
    if (!Number.isInteger(scaled) || scaled / 1e6 !== value || value >= 2 ** 31 || value <= -(2 ** 31)) {
      this.string(String(value), field);
      return;
    }
    this.room(20);
    const start = this.at;
    let at = start + 1;
    let n = scaled;
    if (n < 0) {
      this.buffer[at++] = 0x2d; // "-"
      n = -n;
    }
    const whole = Math.floor(n / 1e6);
    let fraction = n - whole * 1e6;
    // The whole part's digits, right to left after counting them.
    let digits = 1;
    for (let w = whole; w >= 10; w = Math.floor(w / 10)) digits += 1;
    for (let i = digits - 1, w = whole; i >= 0; i -= 1, w = Math.floor(w / 10))
      this.buffer[at + i] = 0x30 + (w % 10);
    at += digits;
    if (fraction > 0) {
      this.buffer[at++] = 0x2e; // "."
      let place = 100_000;
      while (fraction > 0) {
        const digit = Math.floor(fraction / place);
        this.buffer[at++] = 0x30 + digit;
        fraction -= digit * place;
        place /= 10;
      }
    }
    this.buffer[start] = at - start - 1;
    this.at = at;
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

/** Room past a chunk's bytes for the row that ends it (see `bufferBytes`). */
const ROW_ROOM = 64 * 1024;

function bad(row: number, field: string, expected: string, value: unknown): KytError {
  const shown = typeof value === "string" ? JSON.stringify(value.slice(0, 80)) : String(value);
  return new KytError("VALIDATION_ERROR", `ledger row ${row}: ${field}: expected ${expected}, got ${shown}`);
}
