/**
 * The rows of a process's busiest addresses held in memory, for a process that traces from the
 * database: per hub (an address with many rows in one direction of one network and token) its
 * rows in a {@link LedgerIndex} of their own, which answers reads, counts and lumped reads of
 * that address as the warm ledger does, bit for bit. Bounded: past `maxRows` held rows the
 * least recently read hubs leave, but only hubs not read for `minIdleMs`: a hub that would need a
 * hub read since then to leave is refused instead ({@link HubCache.canAdmit} tells a caller before
 * it loads one), so a working set larger than the bound costs the reads it cost without the cache,
 * not a load and an eviction per visit. Rows appended to held hubs past the bound evict the least
 * recently read hubs whatever their age (the bound holds). Pure: the rows come from a caller
 * (`engine/sources/hub-cached-ledger.ts` loads them from the store and follows its appends and
 * rewinds).
 *
 * What an entry holds, so that its index answers exactly for its address:
 * - outgoing: every row out of the address;
 * - incoming: every row into the address and, once it is to be read lumped, for each of them
 *   every other row of its sender at the same time (its "siblings", {@link HubCache.addSiblings}):
 *   a lumped read presents a row whose child another row of the sender shares (same position,
 *   `samePosition` in hub-lump.ts), and the index finds those among its own rows. Rows a sender
 *   stores after the load are kept too ({@link HubCache.append} routes every row of a known
 *   sender). A hub only counted (one the tracer's budget cannot take) never needs them.
 *
 * An entry's index never compacts what is appended after its load (`compactAt` infinite): an
 * appended row stays one the index reads one by one (never lumped), and an entry that took more
 * appended rows than it was loaded with leaves the cache, to be loaded again whole.
 */
import type { LedgerTransfer } from "../domain/records.js";
import { compareLedgerTransfers, LedgerIndex } from "./ledger-index.js";

/** A hub's direction: rows into it or out of it. */
export type HubDirection = "incoming" | "outgoing";

/** One held hub. */
interface HubEntry {
  readonly key: string;
  readonly direction: HubDirection;
  readonly network: string;
  readonly tokenId: string;
  readonly address: string;
  readonly index: LedgerIndex;
  /** Incoming: the senders whose rows this entry follows (keys of `HubCache.#bySender`). */
  readonly senders: ReadonlyArray<string>;
  /** Rows held (siblings included), as counted against the bound. */
  rows: number;
  /** Rows appended since the load. */
  appended: number;
  /** Incoming: whether its senders' siblings are held (lumped reads need them). */
  siblings: boolean;
  /** When it was last read (or admitted), by the cache's clock. */
  readAt: number;
}

/** Options of a {@link HubCache}. */
export interface HubCacheBounds {
  /** Held rows (siblings included) past which hubs leave or are refused. */
  readonly maxRows: number;
  /** Least time since its last read for a hub to leave for a new one, ms (default 60,000). */
  readonly minIdleMs?: number;
  /** The clock of `minIdleMs` (default `Date.now`). */
  readonly now?: () => number;
}

/** Appended rows past which an entry is dropped (and loaded again whole when next needed). */
const APPENDED_AT_MOST = 4096;

const SEP = "\u0000";

/** Key of one address in one direction of one network and token. */
function keyOf(direction: HubDirection, network: string, tokenId: string, address: string): string {
  return `${direction === "incoming" ? "i" : "o"}${network}${SEP}${tokenId}${SEP}${address}`;
}

/**
 * The keys (of `HubCache.#bySender`) of the senders of `rows` into `address`, each once: a key
 * per distinct sender, not per row (a hub's rows come from a third as many senders or fewer).
 */
function sendersOf(
  network: string,
  tokenId: string,
  address: string,
  rows: ReadonlyArray<LedgerTransfer>,
): string[] {
  const from = new Set<string>();
  for (const r of rows) if (r.to === address) from.add(r.from);
  const prefix = `${network}${SEP}${tokenId}${SEP}`;
  return [...from].map((sender) => prefix + sender);
}

/** Sizes of a {@link HubCache}. */
export interface HubCacheStats {
  readonly hubs: number;
  readonly rows: number;
  /** Hubs loaded and hubs evicted (least recently read, or dropped after many appends) so far. */
  readonly loaded: number;
  readonly evicted: number;
  /** Hubs refused for want of room (no idle hub to make way), so far. */
  readonly refused: number;
}

/** The hubs held, least recently read first, under a bound of held rows. */
export class HubCache {
  readonly #maxRows: number;
  readonly #minIdleMs: number;
  readonly #now: () => number;
  /** Entries by key; the Map's order is the order of use (least recent first). */
  readonly #entries = new Map<string, HubEntry>();
  /** Per (network, token, sender): the incoming entries that follow that sender's rows. */
  readonly #bySender = new Map<string, Set<HubEntry>>();
  #rows = 0;
  #loaded = 0;
  #evicted = 0;
  #refused = 0;

  constructor(options: HubCacheBounds) {
    this.#maxRows = options.maxRows;
    this.#minIdleMs = options.minIdleMs ?? 60_000;
    this.#now = options.now ?? Date.now;
  }

  /** The index of a held hub, marked as just read; undefined when it is not held. */
  get(direction: HubDirection, network: string, tokenId: string, address: string): LedgerIndex | undefined {
    const key = keyOf(direction, network, tokenId, address);
    const entry = this.#entries.get(key);
    if (entry === undefined) return undefined;
    this.#entries.delete(key);
    this.#entries.set(key, entry);
    entry.readAt = this.#now();
    return entry.index;
  }

  /**
   * Whether a hub of `rows` rows would be held now: it fits beside the held ones once the hubs
   * not read for `minIdleMs` leave, least recently read first. An incoming hub needs room for
   * twice its rows (its senders' siblings come later).
   */
  canAdmit(direction: HubDirection, rows: number): boolean {
    return this.#room(direction === "incoming" ? 2 * rows : rows) !== null;
  }

  /** The idle hubs to evict for `rows` more rows to fit (least recently read first), or null when they cannot. */
  #room(rows: number): HubEntry[] | null {
    if (rows > this.#maxRows) return null;
    let free = this.#maxRows - this.#rows;
    const victims: HubEntry[] = [];
    const idleBefore = this.#now() - this.#minIdleMs;
    // The Map's order is the order of reads, so the idle hubs come first.
    for (const entry of this.#entries.values()) {
      if (free >= rows || entry.readAt > idleBefore) break;
      victims.push(entry);
      free += entry.rows;
    }
    return free >= rows ? victims : null;
  }

  /** Whether a hub is held (without marking it read). */
  has(direction: HubDirection, network: string, tokenId: string, address: string): boolean {
    return this.#entries.has(keyOf(direction, network, tokenId, address));
  }

  /**
   * Holds a hub: `rows` are all its rows of that direction (incoming: its senders' siblings
   * come later, {@link HubCache.addSiblings}). Evicts idle hubs (least recently read first) to make
   * room; refuses it, holding nothing, when that is not enough ({@link HubCache.canAdmit}, with room
   * for the rows given). Answers whether it is held.
   */
  admit(
    direction: HubDirection,
    network: string,
    tokenId: string,
    address: string,
    rows: ReadonlyArray<LedgerTransfer>,
  ): boolean {
    const key = keyOf(direction, network, tokenId, address);
    const old = this.#entries.get(key);
    if (old) this.#remove(old);
    const victims = this.#room(rows.length);
    if (victims === null) {
      this.#refused++;
      return false;
    }
    for (const victim of victims) {
      this.#remove(victim);
      this.#evicted++;
    }
    const index = new LedgerIndex({ compactAt: Number.POSITIVE_INFINITY });
    // In ledger order: the index keeps each address's added rows in order by insertion, which
    // costs a step per row already added when they come latest first (as incoming reads return them).
    const held = index.add([...rows].sort(compareLedgerTransfers));
    index.compact();
    const senders = direction === "incoming" ? sendersOf(network, tokenId, address, rows) : [];
    const entry: HubEntry = {
      key,
      direction,
      network,
      tokenId,
      address,
      index,
      senders,
      rows: held,
      appended: 0,
      siblings: false,
      readAt: this.#now(),
    };
    this.#entries.set(key, entry);
    for (const s of senders) {
      let set = this.#bySender.get(s);
      if (!set) {
        set = new Set();
        this.#bySender.set(s, set);
      }
      set.add(entry);
    }
    this.#rows += held;
    this.#loaded++;
    return true;
  }

  /** Evicts the least recently read hubs while the bound is passed (rows appended or siblings added). */
  #evictOver(): void {
    for (const first of this.#entries.values()) {
      if (this.#rows <= this.#maxRows) break;
      this.#remove(first);
      this.#evicted++;
    }
  }

  /** Whether a held incoming hub holds its senders' siblings (false when it is not held). */
  hasSiblings(network: string, tokenId: string, address: string): boolean {
    return this.#entries.get(keyOf("incoming", network, tokenId, address))?.siblings === true;
  }

  /**
   * Adds to a held incoming hub its senders' siblings, read after the hub's load (rows held
   * already are skipped); past the bound the least recently read hubs leave (the hub itself was
   * just read: it is the last to). Answers whether the hub is still held.
   */
  addSiblings(
    network: string,
    tokenId: string,
    address: string,
    rows: ReadonlyArray<LedgerTransfer>,
  ): boolean {
    const entry = this.#entries.get(keyOf("incoming", network, tokenId, address));
    if (entry === undefined) return false;
    const n = entry.index.add([...rows].sort(compareLedgerTransfers));
    entry.rows += n;
    entry.siblings = true;
    this.#rows += n;
    this.#evictOver();
    return this.#entries.has(entry.key);
  }

  /**
   * Rows stored since the hubs were loaded (any order, duplicates of held rows ignored): each
   * goes to the entries it belongs to (the incoming hub it enters and those that follow its
   * sender, the outgoing hub it leaves). Answers how many rows were new to some entry.
   */
  append(rows: ReadonlyArray<LedgerTransfer>): number {
    if (this.#entries.size === 0) return 0;
    const touched = new Map<HubEntry, LedgerTransfer[]>();
    const route = (entry: HubEntry | undefined, row: LedgerTransfer) => {
      if (entry === undefined) return;
      const list = touched.get(entry);
      if (list) list.push(row);
      else touched.set(entry, [row]);
    };
    for (const row of rows) {
      route(this.#entries.get(keyOf("incoming", row.network, row.tokenId, row.to)), row);
      route(this.#entries.get(keyOf("outgoing", row.network, row.tokenId, row.from)), row);
      const following = this.#bySender.get(`${row.network}${SEP}${row.tokenId}${SEP}${row.from}`);
      if (following) for (const entry of following) route(entry, row);
    }
    let added = 0;
    for (const [entry, list] of touched) {
      // A row both entered the hub and came from a followed sender: one list, deduplicated by the index.
      const n = entry.index.add(list);
      added += n;
      entry.rows += n;
      entry.appended += n;
      this.#rows += n;
      if (entry.appended > APPENDED_AT_MOST && entry.appended > entry.rows - entry.appended) {
        this.#remove(entry);
        this.#evicted++;
      }
    }
    return added;
  }

  /**
   * A reorganisation removed the rows of `network` in blocks at or above `fromHeight` from the
   * store: every hub that held some leaves the cache (its index would compact its appended rows
   * while dropping them, and an appended row's siblings may not be held). Answers how many rows
   * left with them.
   */
  removeBlocksFrom(network: string, fromHeight: number): number {
    let removed = 0;
    for (const entry of [...this.#entries.values()]) {
      if (entry.network !== network || entry.index.removeBlocksFrom(network, fromHeight) === 0) continue;
      removed += entry.rows;
      this.#remove(entry);
      this.#evicted++;
    }
    return removed;
  }

  /** Drops every hub. */
  clear(): void {
    for (const entry of [...this.#entries.values()]) this.#remove(entry);
  }

  /** Hubs and rows held, loads and evictions. */
  stats(): HubCacheStats {
    return {
      hubs: this.#entries.size,
      rows: this.#rows,
      loaded: this.#loaded,
      evicted: this.#evicted,
      refused: this.#refused,
    };
  }

  #remove(entry: HubEntry): void {
    this.#entries.delete(entry.key);
    this.#rows -= entry.rows;
    for (const s of entry.senders) {
      const set = this.#bySender.get(s);
      set?.delete(entry);
      if (set?.size === 0) this.#bySender.delete(s);
    }
  }
}
