/**
 * The rows of a process's busiest addresses held in memory, for a process that traces from the
 * database: per hub (an address with many rows in one direction of one network and token) its
 * rows in a {@link LedgerIndex} of their own, which answers reads, counts and lumped reads of
 * that address as the warm ledger does, bit for bit. Bounded: past `maxRows` held rows the
 * least recently read hubs leave. Pure: the rows come from a caller
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
}

/** Appended rows past which an entry is dropped (and loaded again whole when next needed). */
const APPENDED_AT_MOST = 4096;

const SEP = "\u0000";

/** Key of one address in one direction of one network and token. */
function keyOf(direction: HubDirection, network: string, tokenId: string, address: string): string {
  return `${direction === "incoming" ? "i" : "o"}${network}${SEP}${tokenId}${SEP}${address}`;
}

/** Sizes of a {@link HubCache}. */
export interface HubCacheStats {
  readonly hubs: number;
  readonly rows: number;
  /** Hubs loaded and hubs evicted (least recently read, or dropped after many appends) so far. */
  readonly loaded: number;
  readonly evicted: number;
}

/** The hubs held, least recently read first, under a bound of held rows. */
export class HubCache {
  readonly #maxRows: number;
  /** Entries by key; the Map's order is the order of use (least recent first). */
  readonly #entries = new Map<string, HubEntry>();
  /** Per (network, token, sender): the incoming entries that follow that sender's rows. */
  readonly #bySender = new Map<string, Set<HubEntry>>();
  #rows = 0;
  #loaded = 0;
  #evicted = 0;

  /** `maxRows`: held rows (siblings included) past which the least recently read hubs leave. */
  constructor(options: { readonly maxRows: number }) {
    this.#maxRows = options.maxRows;
  }

  /** The index of a held hub, marked as just read; undefined when it is not held. */
  get(direction: HubDirection, network: string, tokenId: string, address: string): LedgerIndex | undefined {
    const key = keyOf(direction, network, tokenId, address);
    const entry = this.#entries.get(key);
    if (entry === undefined) return undefined;
    this.#entries.delete(key);
    this.#entries.set(key, entry);
    return entry.index;
  }

  /** Whether a hub is held (without marking it read). */
  has(direction: HubDirection, network: string, tokenId: string, address: string): boolean {
    return this.#entries.has(keyOf(direction, network, tokenId, address));
  }

  /**
   * Holds a hub: `rows` are all its rows of that direction (incoming: its senders' siblings
   * come later, {@link HubCache.addSiblings}). Evicts the least recently read hubs while the bound is
   * passed; a hub larger than the whole bound is not held. Answers whether it is held.
   */
  admit(
    direction: HubDirection,
    network: string,
    tokenId: string,
    address: string,
    rows: ReadonlyArray<LedgerTransfer>,
  ): boolean {
    if (rows.length > this.#maxRows) return false;
    const key = keyOf(direction, network, tokenId, address);
    const old = this.#entries.get(key);
    if (old) this.#remove(old);
    const index = new LedgerIndex({ compactAt: Number.POSITIVE_INFINITY });
    // In ledger order: the index keeps each address's added rows in order by insertion, which
    // costs a step per row already added when they come latest first (as incoming reads return them).
    const held = index.add([...rows].sort(compareLedgerTransfers));
    index.compact();
    const senders =
      direction === "incoming"
        ? [
            ...new Set(
              rows.filter((r) => r.to === address).map((r) => `${network}${SEP}${tokenId}${SEP}${r.from}`),
            ),
          ]
        : [];
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
    this.#evictOver();
    return this.#entries.has(key);
  }

  /** Evicts the least recently read hubs while the bound is passed. */
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
   * already are skipped); evicts as {@link HubCache.admit}. Answers whether the hub is still held.
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
    return { hubs: this.#entries.size, rows: this.#rows, loaded: this.#loaded, evicted: this.#evicted };
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
