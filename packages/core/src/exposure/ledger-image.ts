/**
 * A ledger image: the warm ledger's columns laid out once in buffers that several threads read
 * at the same time (`SharedArrayBuffer` by default), so a pool of screening threads holds one
 * copy of the ledger, not one each. The layout is the compacted part of {@link LedgerIndex}: per
 * network, token and direction, the address numbers that have rows, and per address its rows in
 * ledger order with their fields side by side; addresses and transaction hashes live in
 * {@link SharedStrings} tables. An image is immutable: rows stored later reach the readers as a
 * delta (`LedgerImageReader.append`), and a new image replaces the old one when the delta is large.
 */
import type { LedgerTransfer } from "../domain/records.js";
import {
  type BufferAllocator,
  buildSharedStrings,
  type SharedStrings,
  sharedAllocator,
} from "./shared-strings.js";

/** Numbers per row in {@link AdjacencyImage.data}: time, amount, value (NaN: null), block (NaN: null), log index. */
export const IMAGE_STRIDE = 5;

/** One direction of one network and token. */
export interface AdjacencyImage {
  /** The address numbers that have rows here, ascending. */
  readonly keys: Int32Array;
  /** Per address number its position in `keys` or -1, when this token's addresses are many (else null). */
  readonly slots: Int32Array | null;
  /** The k-th key's rows are positions `offsets[k]` to `offsets[k + 1] - 1`. */
  readonly offsets: Int32Array;
  /** Per position: {@link IMAGE_STRIDE} numbers. */
  readonly data: Float64Array;
  /** Per position: the other address (the sender of an incoming row, the recipient of an outgoing one). */
  readonly peers: Int32Array;
  /** Per position: the row number (its transaction hash is `hashes` string of that number). */
  readonly rows: Int32Array;
}

/** The rows of one network and token. */
export interface TokenImage {
  readonly network: string;
  readonly tokenId: string;
  readonly incoming: AdjacencyImage;
  readonly outgoing: AdjacencyImage;
}

/** A whole image: structured-cloneable; posting it to a thread shares its buffers, copies nothing large. */
export interface LedgerImage {
  /** Rows held. */
  readonly size: number;
  /** Addresses by number, with lookup. */
  readonly addresses: SharedStrings;
  /** Transaction hashes by row number, with lookup (a hash once per row of its transaction). */
  readonly hashes: SharedStrings;
  readonly tokens: ReadonlyArray<TokenImage>;
  /** Per row number: its token (an index into `tokens`), and its position in that token's `outgoing`. */
  readonly rowTokens: Int32Array;
  readonly rowPositions: Int32Array;
  /** Bytes of its buffers (what it costs once, whatever the number of threads reading it). */
  readonly bytes: number;
}

const SEP = "\u0000";

/** Growable columns of the rows added so far. */
class Columns {
  size = 0;
  occurredAt = new Float64Array(1024);
  amount = new Float64Array(1024);
  valueUsd = new Float64Array(1024);
  block = new Float64Array(1024);
  logIndex = new Float64Array(1024);
  from = new Int32Array(1024);
  to = new Int32Array(1024);
  token = new Int32Array(1024);
  readonly hashes: string[] = [];

  grow(): void {
    const n = this.occurredAt.length * 2;
    const f = (a: Float64Array) => {
      const b = new Float64Array(n);
      b.set(a);
      return b;
    };
    const i = (a: Int32Array) => {
      const b = new Int32Array(n);
      b.set(a);
      return b;
    };
    this.occurredAt = f(this.occurredAt);
    this.amount = f(this.amount);
    this.valueUsd = f(this.valueUsd);
    this.block = f(this.block);
    this.logIndex = f(this.logIndex);
    this.from = i(this.from);
    this.to = i(this.to);
    this.token = i(this.token);
  }
}

/**
 * Collects ledger rows and lays them out as a {@link LedgerImage}. Rows must be distinct by
 * (network, transaction hash, log index), as a store's ledger scan gives them.
 */
export class LedgerImageBuilder {
  readonly #columns = new Columns();
  readonly #addresses: string[] = [];
  readonly #addressIds = new Map<string, number>();
  readonly #tokens: Array<{ network: string; tokenId: string }> = [];
  readonly #tokenIds = new Map<string, number>();

  /** Rows added. */
  get size(): number {
    return this.#columns.size;
  }

  /** Adds rows (kept until {@link build}). */
  add(rows: ReadonlyArray<LedgerTransfer>): void {
    const c = this.#columns;
    for (const r of rows) {
      if (c.size === c.occurredAt.length) c.grow();
      const n = c.size++;
      c.occurredAt[n] = r.occurredAt;
      c.amount[n] = r.amount;
      c.valueUsd[n] = r.valueUsd ?? Number.NaN;
      c.block[n] = r.block ?? Number.NaN;
      c.logIndex[n] = r.logIndex;
      c.from[n] = this.#addressOf(r.from);
      c.to[n] = this.#addressOf(r.to);
      c.token[n] = this.#tokenOf(r.network, r.tokenId);
      c.hashes.push(r.txHash);
    }
  }

  /** The image of every row added, in buffers from `allocate` (default: shared memory). */
  build(allocate: BufferAllocator = sharedAllocator): LedgerImage {
    const steps = this.#steps(allocate);
    for (;;) {
      const step = steps.next();
      if (step.done) return step.value;
    }
  }

  /**
   * {@link build}, awaiting `pause` between its steps (the string tables, each direction of each
   * token): a process that serves while it loads answers in between (a step of a million rows
   * takes about a second).
   */
  async buildPaused(
    pause: () => Promise<void>,
    allocate: BufferAllocator = sharedAllocator,
  ): Promise<LedgerImage> {
    const steps = this.#steps(allocate);
    for (;;) {
      const step = steps.next();
      if (step.done) return step.value;
      await pause();
    }
  }

  *#steps(allocate: BufferAllocator): Generator<void, LedgerImage> {
    const c = this.#columns;
    const addresses = buildSharedStrings(this.#addresses, allocate, true);
    yield;
    const hashes = buildSharedStrings(c.hashes, allocate, true);
    yield;
    const rowTokens = new Int32Array(allocate(Math.max(c.size, 1) * 4)).subarray(0, c.size);
    rowTokens.set(c.token.subarray(0, c.size));
    const rowPositions = new Int32Array(allocate(Math.max(c.size, 1) * 4)).subarray(0, c.size);
    const byToken: number[][] = this.#tokens.map(() => []);
    for (let n = 0; n < c.size; n++) (byToken[c.token[n] as number] as number[]).push(n);
    let bytes =
      addresses.codes.byteLength + addresses.offsets.byteLength + (addresses.table?.byteLength ?? 0);
    bytes += hashes.codes.byteLength + hashes.offsets.byteLength + (hashes.table?.byteLength ?? 0);
    bytes += rowTokens.byteLength + rowPositions.byteLength;
    const tokens: TokenImage[] = [];
    for (const [k, t] of this.#tokens.entries()) {
      const rows = this.#ledgerOrder(Int32Array.from(byToken[k] as number[]));
      const incoming = this.#adjacency(rows, true, allocate);
      yield;
      const outgoing = this.#adjacency(rows, false, allocate);
      for (let p = 0; p < outgoing.rows.length; p++) rowPositions[outgoing.rows[p] as number] = p;
      for (const a of [incoming, outgoing]) {
        bytes += a.keys.byteLength + (a.slots?.byteLength ?? 0) + a.offsets.byteLength;
        bytes += a.data.byteLength + a.peers.byteLength + a.rows.byteLength;
      }
      tokens.push(Object.freeze({ network: t.network, tokenId: t.tokenId, incoming, outgoing }));
      yield;
    }
    return Object.freeze({
      size: c.size,
      addresses,
      hashes,
      tokens: Object.freeze(tokens),
      rowTokens,
      rowPositions,
      bytes,
    });
  }

  /** {@link compareLedgerTransfers} of two added rows by number. */
  #compareRows(a: number, b: number): number {
    const c = this.#columns;
    const ta = c.occurredAt[a] as number;
    const tb = c.occurredAt[b] as number;
    if (ta !== tb) return ta - tb;
    const ha = c.hashes[a] as string;
    const hb = c.hashes[b] as string;
    if (ha !== hb) return ha < hb ? -1 : 1;
    return (c.logIndex[a] as number) - (c.logIndex[b] as number);
  }

  /** `tokenRows` in ledger order: as given when they are (a store scans them about so), else sorted. */
  #ledgerOrder(tokenRows: Int32Array): Int32Array {
    for (let i = 1; i < tokenRows.length; i++) {
      if (this.#compareRows(tokenRows[i - 1] as number, tokenRows[i] as number) > 0) {
        return tokenRows.slice().sort((a, b) => this.#compareRows(a, b));
      }
    }
    return tokenRows;
  }

  /**
   * One direction of one token's rows (given in ledger order): sorted by own address, keeping
   * ledger order within an address (the sort is stable), so the comparison is of two integers.
   */
  #adjacency(ordered: Int32Array, incoming: boolean, allocate: BufferAllocator): AdjacencyImage {
    const c = this.#columns;
    const own = incoming ? c.to : c.from;
    const peer = incoming ? c.from : c.to;
    const order = ordered.slice().sort((a, b) => (own[a] as number) - (own[b] as number));
    let keyCount = 0;
    for (let p = 0; p < order.length; p++) {
      if (p === 0 || own[order[p] as number] !== own[order[p - 1] as number]) keyCount++;
    }
    const ints = (n: number) => new Int32Array(allocate(Math.max(n, 1) * 4)).subarray(0, n);
    const keys = ints(keyCount);
    const offsets = ints(keyCount + 1);
    const data = new Float64Array(allocate(Math.max(order.length * IMAGE_STRIDE, 1) * 8)).subarray(
      0,
      order.length * IMAGE_STRIDE,
    );
    const peers = ints(order.length);
    const rows = ints(order.length);
    let k = -1;
    for (let p = 0; p < order.length; p++) {
      const r = order[p] as number;
      if (p === 0 || own[r] !== own[order[p - 1] as number]) {
        k++;
        keys[k] = own[r] as number;
        offsets[k] = p;
      }
      const d = p * IMAGE_STRIDE;
      data[d] = c.occurredAt[r] as number;
      data[d + 1] = c.amount[r] as number;
      data[d + 2] = c.valueUsd[r] as number;
      data[d + 3] = c.block[r] as number;
      data[d + 4] = c.logIndex[r] as number;
      peers[p] = peer[r] as number;
      rows[p] = r;
    }
    offsets[keyCount] = order.length;
    let slots: Int32Array | null = null;
    // As in LedgerIndex: a direct slot per address only when this token's addresses are many.
    if (keyCount * 8 >= this.#addresses.length && this.#addresses.length > 0) {
      slots = ints(this.#addresses.length).fill(-1);
      for (let i = 0; i < keyCount; i++) slots[keys[i] as number] = i;
    }
    return Object.freeze({ keys, slots, offsets, data, peers, rows });
  }

  #addressOf(address: string): number {
    let id = this.#addressIds.get(address);
    if (id === undefined) {
      id = this.#addresses.length;
      this.#addresses.push(address);
      this.#addressIds.set(address, id);
    }
    return id;
  }

  #tokenOf(network: string, tokenId: string): number {
    const key = network + SEP + tokenId;
    let id = this.#tokenIds.get(key);
    if (id === undefined) {
      id = this.#tokens.length;
      this.#tokens.push({ network, tokenId });
      this.#tokenIds.set(key, id);
    }
    return id;
  }
}
