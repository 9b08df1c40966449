/**
 * An in-memory index of ledger transfers that serves the `LedgerReader` port: per (network,
 * token, address) the incoming and the outgoing transfers sorted by time, so a read is a binary
 * search. Used by the in-memory store and as the warm ledger of a screening process.
 *
 * The rows are held in columns (typed arrays, one slot per row), not as one object per row: a
 * warm process holds millions of them, and every major garbage collection marked each row object
 * and its fields, on the main thread for part of it. On the 1M benchmark ledger that marking was
 * the longest pause of the screening path (docs/benchmarks.md). Rows are presented as
 * `LedgerTransfer` objects when read; they are short-lived and cost the young generation little.
 * Addresses, networks and token ids are numbered once (one string each); only transaction hashes
 * stay one string per row.
 */
import type { LedgerTransfer, Millis } from "../domain/records.js";
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

const SEP = "\u0000";

/** Total order of ledger rows: time, then transaction hash, then log index. */
export function compareLedgerTransfers(a: LedgerTransfer, b: LedgerTransfer): number {
  if (a.occurredAt !== b.occurredAt) return a.occurredAt - b.occurredAt;
  if (a.txHash !== b.txHash) return a.txHash < b.txHash ? -1 : 1;
  return a.logIndex - b.logIndex;
}

/** Rows of one direction of one network and token: per address id, its row numbers in ledger order. */
interface Adjacency {
  /**
   * The compacted part: the address numbers that have rows here, ascending, and for the k-th
   * of them its rows `rows[offsets[k]]` to `rows[offsets[k + 1] - 1]`. Per network and token
   * only its own addresses, so many tokens do not cost an entry per address each.
   */
  keys: Int32Array;
  /**
   * When this token's addresses are at least an eighth of all (the usual case of a chain's
   * native token or a big stablecoin): per address number, its position in `keys` or -1, so a
   * read finds it without a search. Null otherwise (a small token pays no array of every address).
   */
  slots: Int32Array | null;
  offsets: Int32Array;
  rows: Int32Array;
  /**
   * The compacted rows' fields in the order of `rows` (time, amount, value, block, log index
   * per position, {@link STRIDE} numbers each), the other address of each (the sender of an
   * incoming row, the recipient of an outgoing one) and its transaction hash: a read walks one
   * address's rows in sequence instead of touching every column at a scattered row number
   * (presenting a row that way cost about 0.3 µs, ten cache misses; now about one).
   */
  data: Float64Array;
  peers: Int32Array;
  hashes: string[];
  /** Rows into (true) or out of (false) each address. */
  readonly incoming: boolean;
  readonly network: string;
  readonly tokenId: string;
  /** Rows added since the last compaction, per address, each list in ledger order. */
  readonly recent: Map<number, number[]>;
  recentRows: number;
  /**
   * Incoming only: per address, its rows by amount for lumped reads (`HubLump`), built on the
   * first lumped read of the address and valid for `lumpKey` (the screen and the compacted
   * arrays they were built with); an addition that shares a child with one of its rows drops it.
   */
  readonly lumps: Map<number, HubLump>;
  lumpKey: { screen: AddressScreen; data: Float64Array } | null;
}

/** The rows of one network and token, both directions. */
interface TokenRows {
  readonly network: string;
  readonly tokenId: string;
  readonly incoming: Adjacency;
  readonly outgoing: Adjacency;
}

/** Numbers per compacted row in `Adjacency.data`: time, amount, value (NaN: null), block (NaN: null), log index. */
const STRIDE = LUMP_STRIDE;

/**
 * Recent rows past which a read first compacts them into the sorted arrays, and past as many as
 * are held there: compaction rebuilds the arrays whole (about 1.1 s per million rows on the
 * benchmark machine, on the thread that reads), so a running process pays it when its ledger
 * has doubled since, not every few ten thousand rows; until then reads merge the two.
 */
const COMPACT_AT_LEAST = 4096;

/** Initial row capacity of the columns; they double when full. */
const INITIAL_CAPACITY = 1024;

/**
 * In-memory `LedgerReader`. Adding is O(1) per row (a row goes to its addresses' recent lists);
 * the first read after as many additions as are held compacts them into the sorted arrays, once
 * for the lot (`compact()` does it now).
 */
export class LedgerIndex implements LedgerReader {
  /** Recent rows of one direction of a token that make a read compact them (and as many as are held). */
  readonly #compactAt: number;
  #size = 0;
  /** Rows removed by {@link LedgerIndex.removeBlocksFrom} (their slots stay, unreferenced). */
  #removed = 0;
  #occurredAt = new Float64Array(INITIAL_CAPACITY);
  #amount = new Float64Array(INITIAL_CAPACITY);
  /** NaN: null. */
  #valueUsd = new Float64Array(INITIAL_CAPACITY);
  /** NaN: null. */
  #block = new Float64Array(INITIAL_CAPACITY);
  #logIndex = new Float64Array(INITIAL_CAPACITY);
  #from = new Int32Array(INITIAL_CAPACITY);
  #to = new Int32Array(INITIAL_CAPACITY);
  /** The row's network and token (an index into `#tokens`). */
  #token = new Int32Array(INITIAL_CAPACITY);
  #txHash: string[] = [];
  /** Addresses by number, and their numbers. */
  readonly #addresses: string[] = [];
  readonly #addressIds = new Map<string, number>();
  /** Per network and token: its strings and both directions' rows. */
  readonly #tokens: TokenRows[] = [];
  readonly #tokenIds = new Map<string, number>();
  /** Per network, per transaction hash: its row, or its rows when it has several. */
  readonly #byTx = new Map<string, Map<string, number | number[]>>();
  /** The rows a lump's reads presented, by position in its segment (see `#lumped`); dropped with the lump. */
  readonly #lumpRows = new WeakMap<HubLump, LedgerTransfer[]>();

  /**
   * `compactAt`: the least number of recent rows a read compacts, see {@link COMPACT_AT_LEAST}
   * (tests set 1 or 3 so that small ledgers are compacted, and read from both the compacted
   * arrays and the recent lists).
   */
  constructor(options: { readonly compactAt?: number } = {}) {
    this.#compactAt = options.compactAt ?? COMPACT_AT_LEAST;
  }

  /** Adds rows; duplicates by (network, txHash, logIndex) are ignored. Returns how many were new. */
  add(rows: ReadonlyArray<LedgerTransfer>): number {
    let added = 0;
    // The last row's network and token, and their entries: rows mostly come in runs of one token
    // (a hub's load is all one), so a row of the same pays no key string and no lookups for them.
    let lastNetwork: string | null = null;
    let lastTokenId: string | null = null;
    let token = -1;
    let txs: Map<string, number | number[]> = new Map();
    // Room for the batch at once: a hub's load of 70,000 rows into a new index doubled the
    // columns seven times, copying them each time.
    this.#reserve(this.#size + rows.length);
    for (const given of rows) {
      if (given.network !== lastNetwork || given.tokenId !== lastTokenId) {
        lastNetwork = given.network;
        lastTokenId = given.tokenId;
        token = this.#tokenOf(given.network, given.tokenId);
        txs = this.#txsOf((this.#tokens[token] as TokenRows).network);
      }
      const tx = txs.get(given.txHash);
      if (tx !== undefined && this.#rowsOfTx(tx).some((r) => this.#logIndex[r] === given.logIndex)) continue;
      const row = this.#size;
      if (row === this.#occurredAt.length) this.#grow();
      this.#occurredAt[row] = given.occurredAt;
      this.#amount[row] = given.amount;
      this.#valueUsd[row] = given.valueUsd ?? Number.NaN;
      this.#block[row] = given.block ?? Number.NaN;
      this.#logIndex[row] = given.logIndex;
      this.#from[row] = this.#addressOf(given.from);
      this.#to[row] = this.#addressOf(given.to);
      this.#token[row] = token;
      this.#txHash.push(given.txHash);
      this.#size = row + 1;
      if (tx === undefined) txs.set(given.txHash, row);
      else if (Array.isArray(tx)) tx.push(row);
      else txs.set(given.txHash, [tx, row]);
      added++;
      const { incoming, outgoing } = this.#tokens[token] as TokenRows;
      this.#addRecent(incoming, this.#to[row] as number, row);
      this.#addRecent(outgoing, this.#from[row] as number, row);
      if (incoming.lumps.size > 0) this.#dropSharedLumps(incoming, outgoing, row);
    }
    return added;
  }

  /**
   * Merges every recent row into the sorted arrays now, whatever their number: after a large
   * load, so that the first reads do not pay for it.
   */
  compact(): void {
    for (const token of this.#tokens) {
      this.#compact(token.incoming);
      this.#compact(token.outgoing);
    }
  }

  /**
   * Removes the rows of `network` in blocks at or above `fromHeight` (a reorganisation replaced
   * them; rows without a block stay) with their index entries, as the store's
   * `rewindFollowedChain` does; returns how many. Linear in the rows held and in the affected
   * tokens' rows (they are compacted again): meant for the rare undo of a reorganisation.
   */
  removeBlocksFrom(network: string, fromHeight: number): number {
    const doomed = new Set<number>();
    for (let row = 0; row < this.#size; row++) {
      // A removed row's block is NaN, so it is never found again.
      if (!((this.#block[row] as number) >= fromHeight)) continue;
      if ((this.#tokens[this.#token[row] as number] as TokenRows).network === network) doomed.add(row);
    }
    if (doomed.size === 0) return 0;
    const txs = this.#byTx.get(network);
    const tokens = new Set<TokenRows>();
    for (const row of doomed) {
      this.#block[row] = Number.NaN;
      tokens.add(this.#tokens[this.#token[row] as number] as TokenRows);
      const hash = this.#txHash[row] as string;
      const tx = txs?.get(hash);
      if (tx === undefined) continue;
      const left = this.#rowsOfTx(tx).filter((r) => r !== row);
      if (left.length === 0) txs?.delete(hash);
      else txs?.set(hash, left.length === 1 ? (left[0] as number) : left);
    }
    for (const token of tokens) {
      this.#dropRows(token.incoming, doomed);
      this.#dropRows(token.outgoing, doomed);
    }
    this.#removed += doomed.size;
    return doomed.size;
  }

  /** The transfers of one transaction, by log index (empty when unknown). */
  byTxHash(network: string, txHash: string): LedgerTransfer[] {
    const tx = this.#byTx.get(network)?.get(txHash);
    if (tx === undefined) return [];
    return this.#rowsOfTx(tx)
      .sort((a, b) => (this.#logIndex[a] as number) - (this.#logIndex[b] as number))
      .map((row) => this.#present(row));
  }

  /** Number of distinct transfers held. */
  get size(): number {
    return this.#size - this.#removed;
  }

  /** Synchronous form of `ledgerIncoming`: per address the latest rows strictly before its time. */
  incomingSync(
    network: string,
    tokenId: string,
    queries: ReadonlyArray<IncomingQuery>,
    limitPerAddress: number,
  ): LedgerTransfer[] {
    const out: LedgerTransfer[] = [];
    const token = this.#tokenIds.get(network + SEP + tokenId);
    if (token === undefined) return out;
    const adjacency = this.#compacted((this.#tokens[token] as TokenRows).incoming);
    for (const q of queries) {
      const address = this.#addressIds.get(q.address);
      if (address === undefined) continue;
      const [start, end] = this.#segment(adjacency, address);
      let i = this.#searchSegment(adjacency, start, end, q.before, false) - 1;
      const recent = adjacency.recent.get(address);
      let j = recent === undefined ? -1 : this.#searchTime(recent, q.before, false) - 1;
      // The latest first: from the back of both lists, the later row each time.
      for (let n = 0; n < limitPerAddress && (i >= start || j >= 0); n++) {
        if (
          j < 0 ||
          (i >= start &&
            this.#compareRows(adjacency.rows[i] as number, (recent as number[])[j] as number) > 0)
        ) {
          out.push(this.#presentAt(adjacency, i--, address));
        } else {
          out.push(this.#present((recent as number[])[j--] as number));
        }
      }
    }
    return out;
  }

  /** Synchronous form of `ledgerOutgoing`: per address the earliest rows strictly after its time. */
  outgoingSync(
    network: string,
    tokenId: string,
    queries: ReadonlyArray<OutgoingQuery>,
    limitPerAddress: number,
  ): LedgerTransfer[] {
    const out: LedgerTransfer[] = [];
    const token = this.#tokenIds.get(network + SEP + tokenId);
    if (token === undefined) return out;
    const adjacency = this.#compacted((this.#tokens[token] as TokenRows).outgoing);
    for (const q of queries) {
      const address = this.#addressIds.get(q.address);
      if (address === undefined) continue;
      const [start, end] = this.#segment(adjacency, address);
      let i = this.#searchSegment(adjacency, start, end, q.after, true);
      const recent = adjacency.recent.get(address);
      let j = recent === undefined ? 0 : this.#searchTime(recent, q.after, true);
      const recentEnd = recent === undefined ? 0 : recent.length;
      // The earliest first: from the front of both lists, the earlier row each time.
      for (let n = 0; n < limitPerAddress && (i < end || j < recentEnd); n++) {
        if (
          j >= recentEnd ||
          (i < end && this.#compareRows(adjacency.rows[i] as number, (recent as number[])[j] as number) < 0)
        ) {
          out.push(this.#presentAt(adjacency, i++, address));
        } else {
          out.push(this.#present((recent as number[])[j++] as number));
        }
      }
    }
    return out;
  }

  /** Per query, the number of rows `incomingSync` returns for it without a limit (a binary search each). */
  incomingCountsSync(network: string, tokenId: string, queries: ReadonlyArray<IncomingQuery>): number[] {
    const token = this.#tokenIds.get(network + SEP + tokenId);
    if (token === undefined) return queries.map(() => 0);
    const adjacency = this.#compacted((this.#tokens[token] as TokenRows).incoming);
    return queries.map((q) => {
      const address = this.#addressIds.get(q.address);
      if (address === undefined) return 0;
      const [start, end] = this.#segment(adjacency, address);
      const recent = adjacency.recent.get(address);
      const held = this.#searchSegment(adjacency, start, end, q.before, false) - start;
      return held + (recent === undefined ? 0 : this.#searchTime(recent, q.before, false));
    });
  }

  /** Per query, the number of rows `outgoingSync` returns for it without a limit. */
  outgoingCountsSync(network: string, tokenId: string, queries: ReadonlyArray<OutgoingQuery>): number[] {
    const token = this.#tokenIds.get(network + SEP + tokenId);
    if (token === undefined) return queries.map(() => 0);
    const adjacency = this.#compacted((this.#tokens[token] as TokenRows).outgoing);
    return queries.map((q) => {
      const address = this.#addressIds.get(q.address);
      if (address === undefined) return 0;
      const [start, end] = this.#segment(adjacency, address);
      const recent = adjacency.recent.get(address);
      const held = end - this.#searchSegment(adjacency, start, end, q.after, true);
      return held + (recent === undefined ? 0 : recent.length - this.#searchTime(recent, q.after, true));
    });
  }

  /**
   * Synchronous form of `ledgerSenderSiblings` for one address: the rows its senders sent at
   * the times they sent to it, other than those into it (see `LedgerReader`), in no order. A
   * binary search of each sender's outgoing rows per distinct (sender, time) of the address.
   */
  senderSiblingsSync(network: string, tokenId: string, address: string): LedgerTransfer[] {
    const token = this.#tokenIds.get(network + SEP + tokenId);
    const hub = this.#addressIds.get(address);
    if (token === undefined || hub === undefined) return [];
    const rows = this.#tokens[token] as TokenRows;
    const incoming = this.#compacted(rows.incoming);
    const outgoing = this.#compacted(rows.outgoing);
    // The distinct (sender, time) pairs of the address's rows, its own sends left out.
    const pairs = new Map<number, Set<number>>();
    const pair = (sender: number, at: number) => {
      if (sender === hub) return;
      let times = pairs.get(sender);
      if (!times) {
        times = new Set();
        pairs.set(sender, times);
      }
      times.add(at);
    };
    const [start, end] = this.#segment(incoming, hub);
    for (let p = start; p < end; p++) pair(incoming.peers[p] as number, incoming.data[p * STRIDE] as number);
    for (const r of incoming.recent.get(hub) ?? [])
      pair(this.#from[r] as number, this.#occurredAt[r] as number);
    const found = new Set<number>();
    for (const [sender, times] of pairs) {
      const [from, to] = this.#segment(outgoing, sender);
      const recent = outgoing.recent.get(sender);
      for (const at of times) {
        for (let q = this.#searchSegment(outgoing, from, to, at, false); q < to; q++) {
          if ((outgoing.data[q * STRIDE] as number) !== at) break;
          if ((outgoing.peers[q] as number) !== hub) found.add(outgoing.rows[q] as number);
        }
        if (recent === undefined) continue;
        for (let j = this.#searchTime(recent, at, false); j < recent.length; j++) {
          const r = recent[j] as number;
          if ((this.#occurredAt[r] as number) !== at) break;
          if ((this.#to[r] as number) !== hub) found.add(r);
        }
      }
    }
    return [...found].map((r) => this.#present(r));
  }

  /** See `LedgerReader.ledgerSenderSiblings`. */
  ledgerSenderSiblings(
    network: string,
    tokenId: string,
    addresses: ReadonlyArray<string>,
  ): Promise<ReadonlyArray<ReadonlyArray<LedgerTransfer>>> {
    return Promise.resolve(addresses.map((a) => this.senderSiblingsSync(network, tokenId, a)));
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
    limitPerAddress: number,
  ): Promise<ReadonlyArray<LedgerTransfer>> {
    return Promise.resolve(this.incomingSync(network, tokenId, queries, limitPerAddress));
  }

  /** See `LedgerReader.ledgerOutgoing`. */
  ledgerOutgoing(
    network: string,
    tokenId: string,
    queries: ReadonlyArray<OutgoingQuery>,
    limitPerAddress: number,
  ): Promise<ReadonlyArray<LedgerTransfer>> {
    return Promise.resolve(this.outgoingSync(network, tokenId, queries, limitPerAddress));
  }

  /**
   * Synchronous form of `ledgerIncomingLumped`: per query a lumped read of the address's
   * compacted incoming rows (its recent rows, not yet compacted, are read one by one after them),
   * or null for an address with fewer than {@link LUMP_MIN_ROWS} compacted rows, more than
   * {@link LUMP_MAX_VISITS} visits in the hop, or a recent row before a compacted one.
   * Whole buckets of the prefix cost a walk of their heaviest rows each; the rows of a bucket cut
   * by a visit's end are looked at one by one, and the tail is presented row by row.
   */
  incomingLumpedSync(
    network: string,
    tokenId: string,
    queries: ReadonlyArray<LumpQuery>,
    screen: AddressScreen,
  ): Array<LumpedRows | null> {
    const token = this.#tokenIds.get(network + SEP + tokenId);
    if (token === undefined) return queries.map(() => null);
    const adjacency = this.#compacted((this.#tokens[token] as TokenRows).incoming);
    const key = adjacency.lumpKey;
    if (key?.screen !== screen || key.data !== adjacency.data) {
      adjacency.lumps.clear();
      adjacency.lumpKey = { screen, data: adjacency.data };
    }
    return queries.map((q) => this.#lumped(adjacency, token, q, screen));
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

  /** One lumped read (see {@link LedgerIndex.incomingLumpedSync}). */
  #lumped(adjacency: Adjacency, token: number, q: LumpQuery, screen: AddressScreen): LumpedRows | null {
    const address = this.#addressIds.get(q.address);
    if (address === undefined || q.visits.length > LUMP_MAX_VISITS) return null;
    const [start, end] = this.#segment(adjacency, address);
    if (end - start < LUMP_MIN_ROWS) return null;
    // Recent rows are read one by one, as the tail: only when they all come after the compacted
    // ones in ledger order (rows arrive in that order), so that the prefix is compacted rows alone.
    const recent = adjacency.recent.get(address) ?? [];
    const firstRecent = recent[0];
    if (firstRecent !== undefined && this.#compareRows(adjacency.rows[end - 1] as number, firstRecent) > 0)
      return null;
    let hub = adjacency.lumps.get(address);
    if (!hub) {
      hub = this.#buildLump(adjacency, token, address, start, end, screen);
      adjacency.lumps.set(address, hub);
    }
    const { prefixCount, prefixSum, picked, tailEnd } = lumpedPositions(adjacency.data, start, end, hub, q);
    const tail: LedgerTransfer[] = [];
    for (let p = start + prefixCount; p < tailEnd; p++) tail.push(this.#presentAt(adjacency, p, address));
    for (const r of recent) {
      if (!((this.#occurredAt[r] as number) < q.before)) break;
      tail.push(this.#present(r));
    }
    // A hub's presented rows are mostly the same visit after visit (its flagged senders): each is
    // built once per lump and kept with it (a lump is dropped when its rows change).
    let built = this.#lumpRows.get(hub);
    if (!built) {
      built = [];
      this.#lumpRows.set(hub, built);
    }
    const presented: LedgerTransfer[] = [];
    for (const i of picked) {
      let row = built[i];
      if (row === undefined) {
        row = this.#presentAt(adjacency, start + i, address);
        built[i] = row;
      }
      presented.push(row);
    }
    return { prefixCount, prefixSum, presented, tail };
  }

  /** Builds the {@link HubLump} of `address`'s compacted incoming rows `[start, end)`. */
  #buildLump(
    adjacency: Adjacency,
    token: number,
    address: number,
    start: number,
    end: number,
    screen: AddressScreen,
  ): HubLump {
    const { data, peers } = adjacency;
    const outgoing = this.#compacted((this.#tokens[token] as TokenRows).outgoing);
    return buildHubLump(
      data,
      start,
      end,
      (p) => peers[p] !== address,
      (p) =>
        screen.mayResolve(this.#addresses[peers[p] as number] as string) ||
        this.#sharesChild(outgoing, peers[p] as number, data, p),
    );
  }

  /**
   * After row `row` was added: drops the lumps of the addresses that received another row of its
   * sender at its position (their row's child now merges with the new row's, so it must be
   * presented). The new row's own address reads it as a recent row, one by one.
   */
  #dropSharedLumps(incoming: Adjacency, outgoing: Adjacency, row: number): void {
    const sender = this.#from[row] as number;
    const at = this.#occurredAt[row] as number;
    const block = this.#block[row] as number;
    const logIndex = this.#logIndex[row] as number;
    const same = (t: number, b: number, l: number) => samePosition(at, block, logIndex, t, b, l);
    const [start, end] = this.#segment(outgoing, sender);
    const od = outgoing.data;
    for (let q = this.#searchSegment(outgoing, start, end, at, false); q < end; q++) {
      const d = q * STRIDE;
      if ((od[d] as number) !== at) break;
      if (same(at, od[d + 3] as number, od[d + 4] as number))
        incoming.lumps.delete(outgoing.peers[q] as number);
    }
    const recent = outgoing.recent.get(sender) ?? [];
    for (let j = this.#searchTime(recent, at, false); j < recent.length; j++) {
      const r = recent[j] as number;
      if ((this.#occurredAt[r] as number) !== at) break;
      if (
        r !== row &&
        same(this.#occurredAt[r] as number, this.#block[r] as number, this.#logIndex[r] as number)
      )
        incoming.lumps.delete(this.#to[r] as number);
    }
  }

  /**
   * Whether the sender `peer` of the incoming row at compacted position `p` sent another row of
   * this token at the same position (`atPosition` in trace-node.ts: same time and block, and the
   * same log index when the block is known): that row's child in a backward hop would merge with
   * this one. Read from the sender's outgoing rows of that time (compacted and recent).
   */
  #sharesChild(outgoing: Adjacency, peer: number, data: Float64Array, p: number): boolean {
    const at = data[p * STRIDE] as number;
    const block = data[p * STRIDE + 3] as number;
    const logIndex = data[p * STRIDE + 4] as number;
    const same = (t: number, b: number, l: number) => samePosition(at, block, logIndex, t, b, l);
    let found = 0;
    const [start, end] = this.#segment(outgoing, peer);
    const od = outgoing.data;
    for (let q = this.#searchSegment(outgoing, start, end, at, false); q < end; q++) {
      const d = q * STRIDE;
      if ((od[d] as number) !== at) break;
      if (same(od[d] as number, od[d + 3] as number, od[d + 4] as number) && ++found > 1) return true;
    }
    const recent = outgoing.recent.get(peer);
    if (recent !== undefined) {
      for (let j = this.#searchTime(recent, at, false); j < recent.length; j++) {
        const r = recent[j] as number;
        if ((this.#occurredAt[r] as number) !== at) break;
        if (same(at, this.#block[r] as number, this.#logIndex[r] as number) && ++found > 1) return true;
      }
    }
    return false;
  }

  /** Row `row` as a transfer (a new object; the strings are the held ones). */
  #present(row: number): LedgerTransfer {
    const token = this.#tokens[this.#token[row] as number] as TokenRows;
    const block = this.#block[row] as number;
    const valueUsd = this.#valueUsd[row] as number;
    return {
      network: token.network,
      txHash: this.#txHash[row] as string,
      logIndex: this.#logIndex[row] as number,
      tokenId: token.tokenId,
      from: this.#addresses[this.#from[row] as number] as string,
      to: this.#addresses[this.#to[row] as number] as string,
      amount: this.#amount[row] as number,
      occurredAt: this.#occurredAt[row] as number,
      block: Number.isNaN(block) ? null : block,
      valueUsd: Number.isNaN(valueUsd) ? null : valueUsd,
    };
  }

  /** The compacted row at position `p` of `adjacency`, one of `address`'s. */
  #presentAt(adjacency: Adjacency, p: number, address: number): LedgerTransfer {
    const { data } = adjacency;
    const d = p * STRIDE;
    const self = this.#addresses[address] as string;
    const peer = this.#addresses[adjacency.peers[p] as number] as string;
    const valueUsd = data[d + 2] as number;
    const block = data[d + 3] as number;
    return {
      network: adjacency.network,
      txHash: adjacency.hashes[p] as string,
      logIndex: data[d + 4] as number,
      tokenId: adjacency.tokenId,
      from: adjacency.incoming ? peer : self,
      to: adjacency.incoming ? self : peer,
      amount: data[d + 1] as number,
      occurredAt: data[d] as number,
      block: Number.isNaN(block) ? null : block,
      valueUsd: Number.isNaN(valueUsd) ? null : valueUsd,
    };
  }

  /** First position in `[start, end)` of `adjacency`'s compacted rows whose time is >= `at` (strict: > `at`). */
  #searchSegment(adjacency: Adjacency, start: number, end: number, at: Millis, strict: boolean): number {
    const { data } = adjacency;
    let lo = start;
    let hi = end;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      const t = data[mid * STRIDE] as number;
      if (t < at || (strict && t === at)) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** {@link compareLedgerTransfers} of two rows by number. */
  #compareRows(a: number, b: number): number {
    const ta = this.#occurredAt[a] as number;
    const tb = this.#occurredAt[b] as number;
    if (ta !== tb) return ta - tb;
    const ha = this.#txHash[a] as string;
    const hb = this.#txHash[b] as string;
    if (ha !== hb) return ha < hb ? -1 : 1;
    return (this.#logIndex[a] as number) - (this.#logIndex[b] as number);
  }

  /** First position in a recent list (row numbers) whose time is >= `at` (strict: > `at`). */
  #searchTime(rows: ReadonlyArray<number>, at: Millis, strict: boolean): number {
    let lo = 0;
    let hi = rows.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      const t = this.#occurredAt[rows[mid] as number] as number;
      if (t < at || (strict && t === at)) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** Where address `a`'s compacted rows are in `adjacency.rows` (a binary search of its keys). */
  #segment(adjacency: Adjacency, a: number): [number, number] {
    const { keys, offsets, slots } = adjacency;
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

  /** Puts row `row` on address `a`'s recent list, keeping the list in ledger order. */
  #addRecent(adjacency: Adjacency, a: number, row: number): void {
    let list = adjacency.recent.get(a);
    if (!list) {
      list = [];
      adjacency.recent.set(a, list);
    }
    list.push(row);
    // Rows mostly come in ledger order: the new one rarely moves.
    for (let k = list.length - 1; k > 0 && this.#compareRows(list[k - 1] as number, row) > 0; k--) {
      list[k] = list[k - 1] as number;
      list[k - 1] = row;
    }
    adjacency.recentRows++;
  }

  /**
   * `adjacency` with its recent rows merged into the sorted arrays when they are many (at least
   * {@link COMPACT_AT_LEAST} and as many as the compacted ones).
   */
  #compacted(adjacency: Adjacency): Adjacency {
    if (adjacency.recentRows >= Math.max(this.#compactAt, adjacency.rows.length)) this.#compact(adjacency);
    return adjacency;
  }

  /** Merges `adjacency`'s recent rows into its sorted arrays. */
  #compact(adjacency: Adjacency): void {
    if (adjacency.recentRows === 0) return;
    const held = adjacency.rows.length;
    const keys = Int32Array.from(new Set([...adjacency.keys, ...adjacency.recent.keys()])).sort();
    const offsets = new Int32Array(keys.length + 1);
    const rows = new Int32Array(held + adjacency.recentRows);
    for (const [k, a] of keys.entries()) {
      const [start, end] = this.#segment(adjacency, a);
      const recent = adjacency.recent.get(a) ?? [];
      // Merge the two sorted lists into the new segment.
      let out = offsets[k] as number;
      let i = start;
      let j = 0;
      while (i < end || j < recent.length) {
        const fromBase =
          j >= recent.length ||
          (i < end && this.#compareRows(adjacency.rows[i] as number, recent[j] as number) <= 0);
        rows[out++] = fromBase ? (adjacency.rows[i++] as number) : (recent[j++] as number);
      }
      offsets[k + 1] = out;
    }
    const data = new Float64Array(rows.length * STRIDE);
    const peers = new Int32Array(rows.length);
    const hashes: string[] = new Array(rows.length);
    for (let p = 0; p < rows.length; p++) {
      const r = rows[p] as number;
      const d = p * STRIDE;
      data[d] = this.#occurredAt[r] as number;
      data[d + 1] = this.#amount[r] as number;
      data[d + 2] = this.#valueUsd[r] as number;
      data[d + 3] = this.#block[r] as number;
      data[d + 4] = this.#logIndex[r] as number;
      peers[p] = (adjacency.incoming ? this.#from[r] : this.#to[r]) as number;
      hashes[p] = this.#txHash[r] as string;
    }
    adjacency.data = data;
    adjacency.peers = peers;
    adjacency.hashes = hashes;
    adjacency.keys = keys;
    adjacency.slots = null;
    if (keys.length * 8 >= this.#addresses.length) {
      const slots = new Int32Array(this.#addresses.length).fill(-1);
      for (const [k, a] of keys.entries()) slots[a] = k;
      adjacency.slots = slots;
    }
    adjacency.offsets = offsets;
    adjacency.rows = rows;
    adjacency.recent.clear();
    adjacency.recentRows = 0;
  }

  /** Rebuilds `adjacency` without the rows in `doomed`: every address's rows, sorted, compacted again. */
  #dropRows(adjacency: Adjacency, doomed: ReadonlySet<number>): void {
    const lists = new Map<number, number[]>();
    for (const a of new Set([...adjacency.keys, ...adjacency.recent.keys()])) {
      const [start, end] = this.#segment(adjacency, a);
      const list = [...adjacency.rows.subarray(start, end), ...(adjacency.recent.get(a) ?? [])].filter(
        (r) => !doomed.has(r),
      );
      if (list.length > 0)
        lists.set(
          a,
          list.sort((x, y) => this.#compareRows(x, y)),
        );
    }
    adjacency.keys = new Int32Array(0);
    adjacency.slots = null;
    adjacency.offsets = new Int32Array(1);
    adjacency.rows = new Int32Array(0);
    adjacency.data = new Float64Array(0);
    adjacency.peers = new Int32Array(0);
    adjacency.hashes = [];
    adjacency.recent.clear();
    adjacency.recentRows = 0;
    for (const [a, list] of lists) {
      adjacency.recent.set(a, list);
      adjacency.recentRows += list.length;
    }
    this.#compact(adjacency);
  }

  /** The rows by transaction hash of `network` (made on first use). */
  #txsOf(network: string): Map<string, number | number[]> {
    let txs = this.#byTx.get(network);
    if (!txs) {
      txs = new Map();
      this.#byTx.set(network, txs);
    }
    return txs;
  }

  #rowsOfTx(tx: number | number[]): number[] {
    return Array.isArray(tx) ? [...tx] : [tx];
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
      const empty = (incoming: boolean): Adjacency => ({
        keys: new Int32Array(0),
        slots: null,
        offsets: new Int32Array(1),
        rows: new Int32Array(0),
        data: new Float64Array(0),
        peers: new Int32Array(0),
        hashes: [],
        incoming,
        network,
        tokenId,
        recent: new Map(),
        recentRows: 0,
        lumps: new Map(),
        lumpKey: null,
      });
      this.#tokens.push({ network, tokenId, incoming: empty(true), outgoing: empty(false) });
      this.#tokenIds.set(key, id);
    }
    return id;
  }

  /** Grows the columns (doubling) until they hold `rows` rows. */
  #reserve(rows: number): void {
    let capacity = this.#occurredAt.length;
    if (rows <= capacity) return;
    while (capacity < rows) capacity *= 2;
    this.#grow(capacity);
  }

  /** Grows the columns' capacity to `capacity` (default: twice the current). */
  #grow(capacity = this.#occurredAt.length * 2): void {
    const grown = <T extends Float64Array | Int32Array>(column: T, make: (n: number) => T): T => {
      const next = make(capacity);
      next.set(column);
      return next;
    };
    this.#occurredAt = grown(this.#occurredAt, (n) => new Float64Array(n));
    this.#amount = grown(this.#amount, (n) => new Float64Array(n));
    this.#valueUsd = grown(this.#valueUsd, (n) => new Float64Array(n));
    this.#block = grown(this.#block, (n) => new Float64Array(n));
    this.#logIndex = grown(this.#logIndex, (n) => new Float64Array(n));
    this.#from = grown(this.#from, (n) => new Int32Array(n));
    this.#to = grown(this.#to, (n) => new Int32Array(n));
    this.#token = grown(this.#token, (n) => new Int32Array(n));
  }
}
