/**
 * What a hop's counts learn for the read that follows them. A tracer counts a hop
 * (`ledgerIncomingCounts`), then reads the addresses it can use with the same queries
 * (`ledgerIncoming`): without this, the read asked the day tables again which addresses are hot,
 * and read again the granules the count had just read for every small address.
 *
 * The count of a hop now fetches the rows of its small addresses (at most {@link PREFETCH_ROWS}
 * each, duplicates included) instead of counting them on the server, and keeps, per address and
 * bound: all of its rows (duplicates removed, in hop order) when it has that few, and whether it
 * is hot (its rows per day) either way. The read takes them: a small address's answer is its
 * rows cut to the limit (exact: they are all of its rows before the bound), and the day tables
 * are asked only about addresses it knows nothing of. Each entry is taken once and lives
 * {@link PREFETCH_MS}, so a read served from it sees the ledger as of its count, as the Postgres
 * store's prefetch does (store-kysely's kysely-ledger.ts).
 */
import type { LedgerTransfer } from "@openkyt/core";
import type { DayRows, Direction } from "./ch-hop-window.js";

/** Most rows of an address fetched with its count (more: it is counted on the server). */
export const PREFETCH_ROWS = 64;

/** How long an entry waits for its read, ms; an older one is asked for again. */
const PREFETCH_MS = 1000;

/** Most entries held at once (counts whose reads never came are dropped with the rest past it). */
const PREFETCH_ADDRESSES = 20_000;

/** What one count learnt of one address before (incoming) or after (outgoing) one bound. */
export interface PrefetchEntry {
  /** Every row of the address past the bound, duplicates removed, in hop order; null: not fetched. */
  readonly rows: ReadonlyArray<LedgerTransfer> | null;
  /** Its rows per day when it is hot (more rows than the ledger's `hotRows`), else null. */
  readonly days: ReadonlyArray<DayRows> | null;
}

/** The entries of one ledger (one per `openClickHouseLedger`). */
export class HopPrefetch {
  readonly #held = new Map<string, PrefetchEntry & { readonly until: number }>();

  /** Holds what a count learnt of `address` before/after `bound`. */
  put(
    direction: Direction,
    network: string,
    tokenId: string,
    address: string,
    bound: number,
    entry: PrefetchEntry,
  ): void {
    if (this.#held.size >= PREFETCH_ADDRESSES) this.#held.clear();
    this.#held.set(prefetchKey(direction, network, tokenId, address, bound), {
      ...entry,
      until: Date.now() + PREFETCH_MS,
    });
  }

  /** The entry held for `address` and `bound`, removed; null when there is none or it is too old. */
  take(
    direction: Direction,
    network: string,
    tokenId: string,
    address: string,
    bound: number,
  ): PrefetchEntry | null {
    const key = prefetchKey(direction, network, tokenId, address, bound);
    const held = this.#held.get(key);
    if (!held) return null;
    this.#held.delete(key);
    return held.until >= Date.now() ? held : null;
  }
}

function prefetchKey(
  direction: Direction,
  network: string,
  tokenId: string,
  address: string,
  bound: number,
): string {
  return `${direction}\u0000${network}\u0000${tokenId}\u0000${address}\u0000${bound}`;
}
