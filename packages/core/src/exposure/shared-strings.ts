/**
 * A table of strings held in one block of character codes, so that several threads can read
 * the same table from a shared buffer (a JS string cannot be shared between threads; a copy per
 * thread of a million transaction hashes is about 70 MB each). Strings are numbered from 0; one
 * byte per character when every character fits (addresses and hashes: hex, base58, bech32),
 * else two. Optionally with an open-addressing hash table from string to number.
 */

/** Makes the memory a table is held in: a `SharedArrayBuffer` to share it between threads. */
export type BufferAllocator = (bytes: number) => ArrayBufferLike;

/** The default allocator: shared memory where the runtime has it, else an ordinary buffer. */
export const sharedAllocator: BufferAllocator = (bytes) =>
  typeof SharedArrayBuffer === "function" ? new SharedArrayBuffer(bytes) : new ArrayBuffer(bytes);

/** The frozen, cloneable form of a string table (typed arrays over the allocator's buffers). */
export interface SharedStrings {
  readonly count: number;
  /** Character codes of every string, one after the other. */
  readonly codes: Uint8Array | Uint16Array;
  /** String `i` is `codes[offsets[i]]` to `codes[offsets[i + 1] - 1]`. */
  readonly offsets: Int32Array;
  /** Open addressing, size a power of two: a string's number + 1, 0 for an empty slot; null without lookup. */
  readonly table: Int32Array | null;
}

/** FNV-1a over the string's UTF-16 code units. */
function hashOf(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** Builds the table of `strings` (numbered by their position) in buffers from `allocate`. */
export function buildSharedStrings(
  strings: ReadonlyArray<string>,
  allocate: BufferAllocator,
  withLookup: boolean,
): SharedStrings {
  let chars = 0;
  let wide = false;
  for (const s of strings) {
    chars += s.length;
    if (!wide) for (let i = 0; i < s.length; i++) if (s.charCodeAt(i) > 0xff) wide = true;
  }
  const codes = wide
    ? new Uint16Array(allocate(Math.max(chars, 1) * 2))
    : new Uint8Array(allocate(Math.max(chars, 1)));
  const offsets = new Int32Array(allocate((strings.length + 1) * 4));
  let at = 0;
  for (let n = 0; n < strings.length; n++) {
    const s = strings[n] as string;
    offsets[n] = at;
    for (let i = 0; i < s.length; i++) codes[at++] = s.charCodeAt(i);
  }
  offsets[strings.length] = at;
  let table: Int32Array | null = null;
  if (withLookup) {
    let size = 16;
    while (size < strings.length * 2) size *= 2;
    table = new Int32Array(allocate(size * 4));
    const mask = size - 1;
    for (let n = 0; n < strings.length; n++) {
      let slot = hashOf(strings[n] as string) & mask;
      while ((table[slot] as number) !== 0) slot = (slot + 1) & mask;
      table[slot] = n + 1;
    }
  }
  return Object.freeze({ count: strings.length, codes, offsets, table });
}

/** String number `n` of `strings` (a new JS string). */
export function sharedStringAt(strings: SharedStrings, n: number): string {
  const start = strings.offsets[n] as number;
  const end = strings.offsets[n + 1] as number;
  // Hashes and addresses are short (under 100 characters): one call, no chunking needed.
  return String.fromCharCode.apply(null, strings.codes.subarray(start, end) as unknown as number[]);
}

/**
 * Every number of `s` in `strings` (built with lookup), ascending: a table may hold a string
 * more than once (a transaction hash per row of the transaction).
 */
export function sharedStringMatches(strings: SharedStrings, s: string): number[] {
  const { table, codes, offsets } = strings;
  if (table === null) throw new Error("this string table was built without lookup");
  const out: number[] = [];
  const mask = table.length - 1;
  for (let slot = hashOf(s) & mask; ; slot = (slot + 1) & mask) {
    const entry = table[slot] as number;
    if (entry === 0) return out.sort((a, b) => a - b);
    const n = entry - 1;
    const start = offsets[n] as number;
    if ((offsets[n + 1] as number) - start !== s.length) continue;
    let i = 0;
    while (i < s.length && codes[start + i] === s.charCodeAt(i)) i++;
    if (i === s.length) out.push(n);
  }
}

/** The number of `s` in `strings` (built with lookup), or -1. */
export function sharedStringIndex(strings: SharedStrings, s: string): number {
  const { table, codes, offsets } = strings;
  if (table === null) throw new Error("this string table was built without lookup");
  const mask = table.length - 1;
  let slot = hashOf(s) & mask;
  for (;;) {
    const entry = table[slot] as number;
    if (entry === 0) return -1;
    const n = entry - 1;
    const start = offsets[n] as number;
    if ((offsets[n + 1] as number) - start === s.length) {
      let i = 0;
      while (i < s.length && codes[start + i] === s.charCodeAt(i)) i++;
      if (i === s.length) return n;
    }
    slot = (slot + 1) & mask;
  }
}
