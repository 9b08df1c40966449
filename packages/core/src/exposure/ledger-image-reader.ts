/**
 * The `LedgerReader` of a {@link LedgerImage} and of the rows stored since it was built (the
 * delta, held in a small {@link LedgerIndex}). Reads answer exactly what a `LedgerIndex` holding
 * every row would: per address the same rows in the same order. Each thread of a screening
 * pool has one over the same shared image; only the delta, caches of decoded addresses and
 * transaction hashes, and the lumps of its hubs (lumped reads, built from the image's rows) are
 * its own.
 */
import type { LedgerTransfer } from "../domain/records.js";
import type {
  IncomingQuery,
  LedgerReader,
  LumpedRows,
  LumpQuery,
  OutgoingQuery,
} from "../ports/ledger-reader.js";
import type { AddressScreen } from "../ports/reference-sources.js";
import {
  buildHubLump,
  type HubLump,
  LUMP_MAX_VISITS,
  LUMP_MIN_ROWS,
  LUMP_STRIDE,
  lumpedPositions,
  samePosition,
} from "./hub-lump.js";
import { type AdjacencyImage, IMAGE_STRIDE, type LedgerImage, type TokenImage } from "./ledger-image.js";
import { compareLedgerTransfers, LedgerIndex } from "./ledger-index.js";
import { sharedStringAt, sharedStringIndex, sharedStringMatches } from "./shared-strings.js";

const SEP = "\u0000";

/** Decoded addresses kept per reader before the cache starts over. */
const ADDRESS_CACHE_LIMIT = 200_000;

/**
 * Decoded transaction hashes per generation of the reader's hash cache: a trace presents the
 * rows of the hubs it meets, and every trace meets the same hubs, so most presented rows were
 * presented before (docs/benchmarks.md, "In the screening pool"). A full generation becomes the
 * old one and the older is dropped, so the rows presented again since stay: at most twice this
 * many are held, and a working set a little larger than one generation (the real-shaped 1M
 * ledger's) is not decoded again every time the cache fills (docs/benchmarks.md, "A trace on
 * the screening threads' shared image").
 */
const HASH_CACHE_LIMIT = 100_000;

// Lumps read the image's columns: the layouts must agree.
if (IMAGE_STRIDE !== LUMP_STRIDE)
  throw new Error("ledger image rows and lumped reads disagree on the row layout");

/** A reader over an image and the rows stored since. */
export class LedgerImageReader implements LedgerReader {
  #image: LedgerImage;
  #tokens = new Map<string, TokenImage>();
  #delta = new LedgerIndex();
  readonly #names = new Map<number, string>();
  /**
   * Image address numbers by address: the decoded ones (`#names`) and those asked for, so that a
   * read of an address the reader presented finds its number by the string's own hash, not by
   * hashing its characters in the image's table again.
   */
  readonly #numbers = new Map<string, number>();
  /** Decoded transaction hashes by image row number, the newer generation (see {@link HASH_CACHE_LIMIT}). */
  #hashes = new Map<number, string>();
  /** The older generation: a row found here moves to `#hashes`. */
  #oldHashes = new Map<number, string>();
  /**
   * Per token (network and token id), per image address number: the lump of its image rows,
   * built on its first lumped read; all valid for `#lumpScreen`. The image never changes, so a
   * lump stays until the screen changes, the image is replaced, or a delta row shares a child
   * with one of its rows.
   */
  readonly #lumps = new Map<string, Map<number, HubLump>>();
  #lumpScreen: AddressScreen | null = null;
  /**
   * The rows a lump's reads presented, by position in its segment: built on first presentation
   * and dropped with the lump (a lump's rows are presented at every visit of its hub; building
   * them again was a quarter of a warm trace's CPU on the real-shaped 1M ledger).
   */
  readonly #lumpRows = new WeakMap<HubLump, LedgerTransfer[]>();
  /** Per position of the delta's rows ({@link positionKey}): the recipients of its rows there. */
  readonly #deltaPositions = new Map<string, string[]>();

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

  /**
   * Adds rows stored after the image (duplicates of delta rows are ignored). A new row whose
   * sender sent another row at its position drops the lump of that row's recipient: the two
   * children now merge in a backward hop, so that row must be presented.
   */
  append(rows: ReadonlyArray<LedgerTransfer>): void {
    for (const row of rows) {
      if (this.#delta.add([row]) === 0) continue;
      const key = positionKey(row);
      const others = this.#deltaPositions.get(key);
      const lumps = this.#lumps.get(row.network + SEP + row.tokenId);
      if (lumps !== undefined && lumps.size > 0) this.#dropSharedLumps(lumps, row, others ?? []);
      if (others) others.push(row.to);
      else this.#deltaPositions.set(key, [row.to]);
    }
  }

  /** Reads from `image` from now on, with `rows` (stored after it) as the delta. */
  replace(image: LedgerImage, rows: ReadonlyArray<LedgerTransfer> = []): void {
    this.#image = image;
    this.#names.clear();
    this.#numbers.clear();
    this.#hashes.clear();
    this.#oldHashes.clear();
    this.#index();
    this.#lumps.clear();
    this.#delta = new LedgerIndex();
    this.#deltaPositions.clear();
    this.append(rows);
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

  /**
   * Per query, the number of rows `incomingSync` returns for it without a limit: the image's
   * (a binary search in the address's rows) and the delta's, as {@link LedgerIndex} counts.
   */
  incomingCountsSync(network: string, tokenId: string, queries: ReadonlyArray<IncomingQuery>): number[] {
    const token = this.#tokens.get(network + SEP + tokenId);
    const late = this.#delta.size > 0 ? this.#delta.incomingCountsSync(network, tokenId, queries) : null;
    return queries.map((q, i) => {
      let held = 0;
      const address = token ? this.#number(q.address) : -1;
      if (token && address >= 0) {
        const [start, end] = segment(token.incoming, address);
        held = search(token.incoming, start, end, q.before, false) - start;
      }
      return held + (late === null ? 0 : (late[i] as number));
    });
  }

  /** Per query, the number of rows `outgoingSync` returns for it without a limit. */
  outgoingCountsSync(network: string, tokenId: string, queries: ReadonlyArray<OutgoingQuery>): number[] {
    const token = this.#tokens.get(network + SEP + tokenId);
    const late = this.#delta.size > 0 ? this.#delta.outgoingCountsSync(network, tokenId, queries) : null;
    return queries.map((q, i) => {
      let held = 0;
      const address = token ? this.#number(q.address) : -1;
      if (token && address >= 0) {
        const [start, end] = segment(token.outgoing, address);
        held = end - search(token.outgoing, start, end, q.after, true);
      }
      return held + (late === null ? 0 : (late[i] as number));
    });
  }

  /** See `LedgerReader.ledgerIncomingCounts`. */
  ledgerIncomingCounts(
    network: string,
    tokenId: string,
    queries: ReadonlyArray<IncomingQuery>,
  ): Promise<ReadonlyArray<number>> {
    return Promise.resolve(this.incomingCountsSync(network, tokenId, queries));
  }

  /** See `LedgerReader.ledgerOutgoingCounts`. */
  ledgerOutgoingCounts(
    network: string,
    tokenId: string,
    queries: ReadonlyArray<OutgoingQuery>,
  ): Promise<ReadonlyArray<number>> {
    return Promise.resolve(this.outgoingCountsSync(network, tokenId, queries));
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

  /**
   * Synchronous form of `ledgerIncomingLumped`: per query a lumped read of the address's image
   * rows (its delta rows are read one by one after them, as the tail), or null for an address
   * with fewer than {@link LUMP_MIN_ROWS} image rows, more than {@link LUMP_MAX_VISITS} visits in
   * the hop, or a delta row before one of its image rows in ledger order: as `LedgerIndex` does
   * with its compacted and recent rows.
   */
  incomingLumpedSync(
    network: string,
    tokenId: string,
    queries: ReadonlyArray<LumpQuery>,
    screen: AddressScreen,
  ): Array<LumpedRows | null> {
    const key = network + SEP + tokenId;
    const token = this.#tokens.get(key);
    if (token === undefined) return queries.map(() => null);
    if (this.#lumpScreen !== screen) {
      this.#lumps.clear();
      this.#lumpScreen = screen;
    }
    let lumps = this.#lumps.get(key);
    if (!lumps) {
      lumps = new Map();
      this.#lumps.set(key, lumps);
    }
    const held = lumps;
    return queries.map((q) => this.#lumped(token, held, q, screen));
  }

  /** See `LedgerReader.ledgerIncomingLumped`. */
  ledgerIncomingLumped(
    network: string,
    tokenId: string,
    queries: ReadonlyArray<LumpQuery>,
    screen: AddressScreen,
  ): Promise<ReadonlyArray<LumpedRows | null>> {
    return Promise.resolve(this.incomingLumpedSync(network, tokenId, queries, screen));
  }

  /** One lumped read (see {@link LedgerImageReader.incomingLumpedSync}). */
  #lumped(
    token: TokenImage,
    lumps: Map<number, HubLump>,
    q: LumpQuery,
    screen: AddressScreen,
  ): LumpedRows | null {
    if (q.visits.length > LUMP_MAX_VISITS) return null;
    const address = this.#number(q.address);
    if (address < 0) return null;
    const adj = token.incoming;
    const [start, end] = segment(adj, address);
    if (end - start < LUMP_MIN_ROWS) return null;
    // The delta's rows before `q.before`, the latest first: the tail after the image's rows, only
    // when they all come after them in ledger order (so the prefix is image rows alone).
    const late =
      this.#delta.size > 0
        ? this.#delta.incomingSync(
            token.network,
            token.tokenId,
            [{ address: q.address, before: q.before }],
            Infinity,
          )
        : [];
    const earliest = late[late.length - 1];
    if (
      earliest !== undefined &&
      compareLedgerTransfers(this.#present(token, adj, end - 1, q.address, true), earliest) > 0
    )
      return null;
    let hub = lumps.get(address);
    if (!hub) {
      hub = this.#buildLump(token, address, start, end, screen);
      lumps.set(address, hub);
    }
    const { prefixCount, prefixSum, picked, tailEnd } = lumpedPositions(adj.data, start, end, hub, q);
    const tail: LedgerTransfer[] = [];
    for (let p = start + prefixCount; p < tailEnd; p++)
      tail.push(this.#present(token, adj, p, q.address, true));
    for (let j = late.length - 1; j >= 0; j--) tail.push(late[j] as LedgerTransfer);
    // A hub's presented rows are mostly the same visit after visit (its flagged senders): each is
    // built once per lump and kept with it (the image never changes under a lump).
    let built = this.#lumpRows.get(hub);
    if (!built) {
      built = [];
      this.#lumpRows.set(hub, built);
    }
    const presented: LedgerTransfer[] = [];
    for (const i of picked) {
      let row = built[i];
      if (row === undefined) {
        row = this.#present(token, adj, start + i, q.address, true);
        built[i] = row;
      }
      presented.push(row);
    }
    return { prefixCount, prefixSum, presented, tail };
  }

  /** Builds the lump of image address `address`'s incoming rows `[start, end)` of `token`. */
  #buildLump(token: TokenImage, address: number, start: number, end: number, screen: AddressScreen): HubLump {
    const { data, peers } = token.incoming;
    return buildHubLump(
      data,
      start,
      end,
      (p) => peers[p] !== address,
      (p) => {
        const sender = this.#name(peers[p] as number);
        return screen.mayResolve(sender) || this.#sharesChild(token, peers[p] as number, sender, data, p);
      },
    );
  }

  /**
   * Whether the sender (`peer`, named `sender`) of the image's incoming row at position `p`
   * sent another row of this token at the same position ({@link samePosition}): that row's child
   * in a backward hop would merge with this one. Read from the sender's outgoing image rows of
   * that time and the delta's rows at that position.
   */
  #sharesChild(token: TokenImage, peer: number, sender: string, data: Float64Array, p: number): boolean {
    const at = data[p * IMAGE_STRIDE] as number;
    const block = data[p * IMAGE_STRIDE + 3] as number;
    const logIndex = data[p * IMAGE_STRIDE + 4] as number;
    let found = 0;
    const out = token.outgoing;
    const [start, end] = segment(out, peer);
    const od = out.data;
    for (let q = search(out, start, end, at, false); q < end; q++) {
      const d = q * IMAGE_STRIDE;
      if ((od[d] as number) !== at) break;
      if (samePosition(at, block, logIndex, at, od[d + 3] as number, od[d + 4] as number) && ++found > 1)
        return true;
    }
    if (this.#deltaPositions.size === 0) return false;
    const key = positionKey({
      network: token.network,
      tokenId: token.tokenId,
      from: sender,
      occurredAt: at,
      block: Number.isNaN(block) ? null : block,
      logIndex,
    });
    return found + (this.#deltaPositions.get(key)?.length ?? 0) > 1;
  }

  /**
   * After delta row `row` was added: drops the lumps of the addresses that received another row
   * of its sender at its position, in the image or in the delta (`others`: the recipients of
   * the delta's earlier rows there). The row's own recipient reads it in its tail, one by one.
   */
  #dropSharedLumps(lumps: Map<number, HubLump>, row: LedgerTransfer, others: ReadonlyArray<string>): void {
    const token = this.#tokens.get(row.network + SEP + row.tokenId);
    const sender = this.#number(row.from);
    const block = row.block ?? Number.NaN;
    if (token !== undefined && sender >= 0) {
      const out = token.outgoing;
      const [start, end] = segment(out, sender);
      const od = out.data;
      for (let q = search(out, start, end, row.occurredAt, false); q < end; q++) {
        const d = q * IMAGE_STRIDE;
        if ((od[d] as number) !== row.occurredAt) break;
        if (
          samePosition(
            row.occurredAt,
            block,
            row.logIndex,
            od[d] as number,
            od[d + 3] as number,
            od[d + 4] as number,
          )
        )
          lumps.delete(out.peers[q] as number);
      }
    }
    for (const to of others) {
      const recipient = this.#number(to);
      if (recipient >= 0) lumps.delete(recipient);
    }
  }

  #index(): void {
    this.#tokens = new Map(this.#image.tokens.map((t) => [t.network + SEP + t.tokenId, t]));
  }

  /** The image's rows into `q.address` strictly before `q.before`, the latest first. */
  #incoming(token: TokenImage, q: IncomingQuery, limit: number): LedgerTransfer[] {
    const out: LedgerTransfer[] = [];
    const address = this.#number(q.address);
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
    const address = this.#number(q.address);
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
      txHash: this.#hash(adj.rows[p] as number),
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

  /** The transaction hash of image row `row`, decoded once while the cache holds it. */
  #hash(row: number): string {
    let s = this.#hashes.get(row);
    if (s !== undefined) return s;
    s = this.#oldHashes.get(row) ?? sharedStringAt(this.#image.hashes, row);
    if (this.#hashes.size >= HASH_CACHE_LIMIT) {
      this.#oldHashes = this.#hashes;
      this.#hashes = new Map();
    }
    this.#hashes.set(row, s);
    return s;
  }

  /** Address number `n` as a string, decoded once while the cache holds it. */
  #name(n: number): string {
    let s = this.#names.get(n);
    if (s === undefined) {
      if (this.#names.size >= ADDRESS_CACHE_LIMIT) {
        this.#names.clear();
        this.#numbers.clear();
      }
      s = sharedStringAt(this.#image.addresses, n);
      this.#names.set(n, s);
      this.#numbers.set(s, n);
    }
    return s;
  }

  /** The image's number of `address`, or -1: looked up once while the cache holds it. */
  #number(address: string): number {
    let n = this.#numbers.get(address);
    if (n === undefined) {
      if (this.#numbers.size >= ADDRESS_CACHE_LIMIT) {
        this.#names.clear();
        this.#numbers.clear();
      }
      n = sharedStringIndex(this.#image.addresses, address);
      this.#numbers.set(address, n);
    }
    return n;
  }
}

/**
 * The key of a row's position among its sender's rows of its token ({@link samePosition}): two
 * rows with one key have children a backward hop merges.
 */
function positionKey(
  row: Pick<LedgerTransfer, "network" | "tokenId" | "from" | "occurredAt" | "block" | "logIndex">,
): string {
  const at = row.block === null ? "none" : `${row.block}${SEP}${row.logIndex}`;
  return `${row.network}${SEP}${row.tokenId}${SEP}${row.from}${SEP}${row.occurredAt}${SEP}${at}`;
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
