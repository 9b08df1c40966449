/**
 * The `LedgerReader` of a {@link LedgerImage} and of the rows stored since it was built (the
 * delta, held in a small {@link LedgerIndex}). Reads answer exactly what a `LedgerIndex` holding
 * every row would: per address the same rows in the same order. Each thread of a screening
 * pool has one over the same shared image; only the delta and a cache of decoded addresses
 * are its own.
 */
import type { LedgerTransfer } from "../domain/records.js";
import type { IncomingQuery, LedgerReader, OutgoingQuery } from "../ports/ledger-reader.js";
import { type AdjacencyImage, IMAGE_STRIDE, type LedgerImage, type TokenImage } from "./ledger-image.js";
import { compareLedgerTransfers, LedgerIndex } from "./ledger-index.js";
import { sharedStringAt, sharedStringIndex, sharedStringMatches } from "./shared-strings.js";

const SEP = "\u0000";

/** Decoded addresses kept per reader before the cache starts over. */
const ADDRESS_CACHE_LIMIT = 200_000;

/** A reader over an image and the rows stored since. */
export class LedgerImageReader implements LedgerReader {
  #image: LedgerImage;
  #tokens = new Map<string, TokenImage>();
  #delta = new LedgerIndex();
  readonly #names = new Map<number, string>();

  constructor(image: LedgerImage) {
    this.#image = image;
    this.#index();
  }

  /** Rows held: the image's and the delta's. */
  get size(): number {
    return this.#image.size + this.#delta.size;
  }

  /** Rows held in the delta (past the image). */
  get deltaSize(): number {
    return this.#delta.size;
  }

  /** Adds rows stored after the image (duplicates of delta rows are ignored). */
  append(rows: ReadonlyArray<LedgerTransfer>): void {
    this.#delta.add(rows);
  }

  /** Reads from `image` from now on, with `rows` (stored after it) as the delta. */
  replace(image: LedgerImage, rows: ReadonlyArray<LedgerTransfer> = []): void {
    this.#image = image;
    this.#names.clear();
    this.#index();
    this.#delta = new LedgerIndex();
    this.#delta.add(rows);
  }

  /** The transfers of one transaction, by log index (empty when unknown): the image's and the delta's. */
  byTxHash(network: string, txHash: string): LedgerTransfer[] {
    const out: LedgerTransfer[] = [];
    const image = this.#image;
    for (const row of sharedStringMatches(image.hashes, txHash)) {
      const token = image.tokens[image.rowTokens[row] as number] as TokenImage;
      if (token.network !== network) continue;
      const adj = token.outgoing;
      const p = image.rowPositions[row] as number;
      out.push(this.#present(token, adj, p, this.#name(adj.keys[keyAt(adj, p)] as number), false));
    }
    for (const t of this.#delta.byTxHash(network, txHash)) {
      if (!out.some((o) => o.logIndex === t.logIndex)) out.push(t);
    }
    return out.sort((a, b) => a.logIndex - b.logIndex);
  }

  /** Synchronous `ledgerIncoming`. */
  incomingSync(
    network: string,
    tokenId: string,
    queries: ReadonlyArray<IncomingQuery>,
    limit: number,
  ): LedgerTransfer[] {
    const token = this.#tokens.get(network + SEP + tokenId);
    const delta = this.#delta.size > 0;
    const out: LedgerTransfer[] = [];
    for (const q of queries) {
      const base = token ? this.#incoming(token, q, limit) : [];
      if (!delta) {
        for (const t of base) out.push(t);
        continue;
      }
      const late = this.#delta.incomingSync(network, tokenId, [q], limit);
      mergeInto(out, base, late, limit, -1);
    }
    return out;
  }

  /** Synchronous `ledgerOutgoing`. */
  outgoingSync(
    network: string,
    tokenId: string,
    queries: ReadonlyArray<OutgoingQuery>,
    limit: number,
  ): LedgerTransfer[] {
    const token = this.#tokens.get(network + SEP + tokenId);
    const delta = this.#delta.size > 0;
    const out: LedgerTransfer[] = [];
    for (const q of queries) {
      const base = token ? this.#outgoing(token, q, limit) : [];
      if (!delta) {
        for (const t of base) out.push(t);
        continue;
      }
      const late = this.#delta.outgoingSync(network, tokenId, [q], limit);
      mergeInto(out, base, late, limit, 1);
    }
    return out;
  }

  /** See `LedgerReader.ledgerIncoming`. */
  ledgerIncoming(
    network: string,
    tokenId: string,
    queries: ReadonlyArray<IncomingQuery>,
    limit: number,
  ): Promise<ReadonlyArray<LedgerTransfer>> {
    return Promise.resolve(this.incomingSync(network, tokenId, queries, limit));
  }

  /** See `LedgerReader.ledgerOutgoing`. */
  ledgerOutgoing(
    network: string,
    tokenId: string,
    queries: ReadonlyArray<OutgoingQuery>,
    limit: number,
  ): Promise<ReadonlyArray<LedgerTransfer>> {
    return Promise.resolve(this.outgoingSync(network, tokenId, queries, limit));
  }

  #index(): void {
    this.#tokens = new Map(this.#image.tokens.map((t) => [t.network + SEP + t.tokenId, t]));
  }

  /** The image's rows into `q.address` strictly before `q.before`, the latest first. */
  #incoming(token: TokenImage, q: IncomingQuery, limit: number): LedgerTransfer[] {
    const out: LedgerTransfer[] = [];
    const address = sharedStringIndex(this.#image.addresses, q.address);
    if (address < 0) return out;
    const adj = token.incoming;
    const [start, end] = segment(adj, address);
    let p = search(adj, start, end, q.before, false) - 1;
    for (let n = 0; n < limit && p >= start; n++) out.push(this.#present(token, adj, p--, q.address, true));
    return out;
  }

  /** The image's rows out of `q.address` strictly after `q.after`, the earliest first. */
  #outgoing(token: TokenImage, q: OutgoingQuery, limit: number): LedgerTransfer[] {
    const out: LedgerTransfer[] = [];
    const address = sharedStringIndex(this.#image.addresses, q.address);
    if (address < 0) return out;
    const adj = token.outgoing;
    const [start, end] = segment(adj, address);
    let p = search(adj, start, end, q.after, true);
    for (let n = 0; n < limit && p < end; n++) out.push(this.#present(token, adj, p++, q.address, false));
    return out;
  }

  #present(
    token: TokenImage,
    adj: AdjacencyImage,
    p: number,
    self: string,
    incoming: boolean,
  ): LedgerTransfer {
    const d = p * IMAGE_STRIDE;
    const { data } = adj;
    const peer = this.#name(adj.peers[p] as number);
    const valueUsd = data[d + 2] as number;
    const block = data[d + 3] as number;
    return {
      network: token.network,
      txHash: sharedStringAt(this.#image.hashes, adj.rows[p] as number),
      logIndex: data[d + 4] as number,
      tokenId: token.tokenId,
      from: incoming ? peer : self,
      to: incoming ? self : peer,
      amount: data[d + 1] as number,
      occurredAt: data[d] as number,
      block: Number.isNaN(block) ? null : block,
      valueUsd: Number.isNaN(valueUsd) ? null : valueUsd,
    };
  }

  /** Address number `n` as a string, decoded once while the cache holds it. */
  #name(n: number): string {
    let s = this.#names.get(n);
    if (s === undefined) {
      if (this.#names.size >= ADDRESS_CACHE_LIMIT) this.#names.clear();
      s = sharedStringAt(this.#image.addresses, n);
      this.#names.set(n, s);
    }
    return s;
  }
}

/** Where address `a`'s rows are in `adj`. */
function segment(adj: AdjacencyImage, a: number): [number, number] {
  const { keys, offsets, slots } = adj;
  if (slots !== null) {
    const k = a < slots.length ? (slots[a] as number) : -1;
    return k < 0 ? [0, 0] : [offsets[k] as number, offsets[k + 1] as number];
  }
  let lo = 0;
  let hi = keys.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((keys[mid] as number) < a) lo = mid + 1;
    else hi = mid;
  }
  if (lo === keys.length || keys[lo] !== a) return [0, 0];
  return [offsets[lo] as number, offsets[lo + 1] as number];
}

/** The key (address) index whose segment holds position `p` of `adj`. */
function keyAt(adj: AdjacencyImage, p: number): number {
  const { offsets } = adj;
  let lo = 0;
  let hi = offsets.length - 2;
  while (lo < hi) {
    const mid = (lo + hi + 1) >>> 1;
    if ((offsets[mid] as number) <= p) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/** First position in `[start, end)` whose time is >= `at` (strict: > `at`). */
function search(adj: AdjacencyImage, start: number, end: number, at: number, strict: boolean): number {
  const { data } = adj;
  let lo = start;
  let hi = end;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    const t = data[mid * IMAGE_STRIDE] as number;
    if (t < at || (strict && t === at)) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * Appends to `out` the first `limit` rows of two lists that are each in order `sign` (-1: the
 * latest first, 1: the earliest first), merged in that order.
 */
function mergeInto(
  out: LedgerTransfer[],
  a: ReadonlyArray<LedgerTransfer>,
  b: ReadonlyArray<LedgerTransfer>,
  limit: number,
  sign: 1 | -1,
): void {
  let i = 0;
  let j = 0;
  for (let n = 0; n < limit && (i < a.length || j < b.length); n++) {
    const takeA =
      j >= b.length ||
      (i < a.length && sign * compareLedgerTransfers(a[i] as LedgerTransfer, b[j] as LedgerTransfer) < 0);
    out.push((takeA ? a[i++] : b[j++]) as LedgerTransfer);
  }
}
