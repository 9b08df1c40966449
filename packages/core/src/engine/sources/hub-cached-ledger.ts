/**
 * The ledger of a process that traces from the database, with its hubs held in memory: a
 * `LedgerReader` over the store's (or any reader) that keeps the rows of every address a read
 * finds with at least `minRows` rows in a bounded {@link HubCache}, and answers that address's
 * reads, counts and lumped reads from memory as the warm ledger does. A cold trace of the
 * real-shaped benchmark ledger read about 21,400 rows per screened transfer from Postgres, most
 * at a few hundred hubs (docs/benchmarks.md, "Hub cache").
 *
 * Admission: an address whose count (`ledgerIncomingCounts`, `ledgerOutgoingCounts`) or read
 * reaches `minRows` is loaded whole before the answer: its rows, and for an incoming hub, on its
 * first lumped read, its senders' other rows at the times they sent to it (what a lumped read
 * needs, see hub-cache.ts): one `ledgerSenderSiblings` call for the hubs of that read when the
 * inner reader has it (Postgres answers it with a join, a statement per 16 hubs), else an
 * outgoing read per sender and time. Not when the cache is full of hubs read in the last `minIdleMs`
 * (`HubCache.canAdmit`): such an address is read from the store as without the cache, and one
 * refused after its load is not loaded again for `minIdleMs`, so a working set larger than the
 * bound never costs a load per visit.
 *
 * Freshness, as the warm ledger's (`warm-catch-up.ts`): the reader follows `Store.scanLedger`
 * from the ledger's end as it was when the reader was made, and `Store.scanRewinds`; a read
 * answered from a hub first reads what was stored since when the last catch-up is older than
 * `maxLagMs` (with 0, every time: answers are then those of the store; by default a row stored
 * by any process reaches a hub's reads at most 1 s later, as with `--warm`). A hub is loaded between two catch-ups, never
 * during one: a row stored after the catch-up before the load has a higher position than it
 * and is read by the next (twice when the load saw it too: held rows are skipped).
 *
 * A ledger whose rows have no stored order (ClickHouse) is followed by `Store.ledgerChangesSince`
 * instead: a catch-up reads the rows stored since the last one began (the ledger's own clock,
 * with its own overlap: rows held already are skipped, duplicates included), less those the
 * catch-ups before it were given (the store's mark remembers them, so a quiet ledger's catch-up
 * reads no rows), and when more than `maxChanges` transactions were stored meanwhile (an import)
 * or the ledger dropped changes the cache has not read (it lagged past the change log's
 * retention) drops every hub, to be loaded again when next read. Loads run between catch-ups as
 * above, and the catch-up after a load is given every row of its overlap again (a hub's own
 * tables may show a row later than its change); such a ledger removes no rows, so there are no
 * rewinds to follow.
 */
import type { LedgerTransfer } from "../../domain/records.js";
import { KytError } from "../../errors.js";
import { HubCache, type HubCacheStats, type HubDirection } from "../../exposure/hub-cache.js";
import type { LedgerIndex } from "../../exposure/ledger-index.js";
import type {
  IncomingQuery,
  LedgerReader,
  LumpedRows,
  LumpQuery,
  OutgoingQuery,
} from "../../ports/ledger-reader.js";
import type { AddressScreen } from "../../ports/reference-sources.js";
import { type Clock, systemClock } from "../../ports/runtime.js";
import type { LedgerChanges, LedgerChangesMark, Store } from "../../ports/store.js";
import { ledgerTail } from "./ledger-tail.js";
import { type WarmStart, warmCatchUp } from "./warm-catch-up.js";

/** Options of {@link createHubCachedLedger}. */
export interface HubCacheOptions {
  /** Rows (in one direction of one network and token) from which an address is held. */
  readonly minRows?: number;
  /** Memory the held rows may take, bytes (counted as {@link HUB_CACHE_BYTES_PER_ROW} each). */
  readonly maxBytes?: number;
  /** Least time since its last read for a held hub to make way for a new one, ms (default 60,000). */
  readonly minIdleMs?: number;
  /**
   * How old the held hubs may be when read, ms: a read that touches one catches up first when the
   * last catch-up began longer ago (0: before every such read). Default 1,000, the warm ledger's
   * bound: a catch-up is three statements, and one before every read cost a cold worker about
   * as much as the cache spared it (docs/benchmarks.md, "Hub cache").
   */
  readonly maxLagMs?: number;
  /** Rows per statement while following the store. */
  readonly pageSize?: number;
  /**
   * Following `Store.ledgerChangesSince`: transactions stored since the last catch-up past which
   * the cache drops its hubs rather than reading them all.
   */
  readonly maxChanges?: number;
  /**
   * Whether held hubs answer lumped reads (`ledgerIncomingLumped`), for which an incoming hub's
   * senders' siblings are loaded on its first one. Default: yes, except over a ledger followed by
   * its changes (ClickHouse) whose reader does not join the siblings itself: there the outgoing
   * reads per sender and time (or a join, which 18.16 runs as a scan of the outgoing table per
   * hub) cost the server more than the cache spared it (docs/benchmarks.md, "Hub cache on
   * ClickHouse"). Without, a trace reads a held hub's rows whole, from memory; answers are the same.
   */
  readonly lumped?: boolean;
  readonly clock?: Clock;
}

/**
 * Memory per held row, bytes, as the bound counts it: measured 320 (a fresh cold worker's heap
 * after a full collection with the cache filled, less the same without it, over the rows held,
 * siblings included: 392,760 rows of 559 hubs of the real-shaped 1M ledger, 126 MB, twice;
 * docs/benchmarks.md, "Hub cache, fourth pass"), plus a tenth. A hub's `LedgerIndex` holds, per
 * row, its columns and both directions' compacted copies, its transaction hash string and
 * entry, and its peer's address string (most peers of a hub are its own).
 */
export const HUB_CACHE_BYTES_PER_ROW = 350;

/** Defaults of {@link HubCacheOptions}. */
export const HUB_CACHE_DEFAULTS = Object.freeze({
  minRows: 64,
  maxBytes: 256 * 2 ** 20,
  minIdleMs: 60_000,
  maxLagMs: 1_000,
  pageSize: 5_000,
  maxChanges: 50_000,
});

/** The reader, and its upkeep. */
export interface HubCachedLedger extends LedgerReader {
  /** Reads what was stored since the last catch-up now; resolves to how many rows were new to a hub. */
  catchUp(): Promise<number>;
  /** Hubs and rows held, loads and evictions. */
  stats(): HubCacheStats;
}

/** Refusals remembered at most (past it they are forgotten together). */
const REFUSALS_HELD = 4096;
/** Frontier addresses per statement while loading a hub's senders' rows. */
const SIBLING_CHUNK = 512;
/** Rows asked per sender and time at first; a sender with more at one time is asked again. */
const SIBLING_FIRST_LIMIT = 2;
/** Every row of an address, in both directions (times are ms, stored as 64-bit integers). */
const ALL_BEFORE = Number.MAX_SAFE_INTEGER;
const ALL_AFTER = Number.MIN_SAFE_INTEGER;
const ALL_ROWS = 2 ** 31 - 1;

/**
 * `inner` (the store's reader) with hubs held in memory, following `store`'s appends and rewinds
 * (or its changes, `Store.ledgerChangesSince`). NOT_CONFIGURED when the store offers neither.
 */
export async function createHubCachedLedger(
  inner: LedgerReader,
  store: Pick<Store, "scanLedger" | "scanRewinds" | "ledgerChangesSince">,
  options: HubCacheOptions = {},
): Promise<HubCachedLedger> {
  const settings = { ...HUB_CACHE_DEFAULTS, ...options };
  if (
    !(settings.minRows >= 1 && settings.maxBytes >= 0 && settings.maxLagMs >= 0 && settings.minIdleMs >= 0)
  ) {
    throw new KytError(
      "VALIDATION_ERROR",
      "hub cache: minRows must be >= 1, maxBytes, maxLagMs and minIdleMs >= 0",
    );
  }
  const changes = store.scanLedger ? undefined : store.ledgerChangesSince?.bind(store);
  const start = changes ? null : await ledgerTail(store, settings.pageSize);
  const clock = options.clock ?? systemClock;
  const maxRows = Math.floor(settings.maxBytes / HUB_CACHE_BYTES_PER_ROW);
  const cache = new HubCache({
    maxRows,
    minIdleMs: settings.minIdleMs,
    now: () => clock.now(),
  });
  /** Hubs refused after their load, by key, and when: not loaded again for `minIdleMs`. */
  const refusedAt = new Map<string, number>();
  const refusalKey = (direction: HubDirection, network: string, tokenId: string, address: string) =>
    `${direction}\u0000${network}\u0000${tokenId}\u0000${address}`;
  const refusedLately = (key: string): boolean => {
    const at = refusedAt.get(key);
    if (at === undefined) return false;
    if (clock.now() - at < settings.minIdleMs) return true;
    refusedAt.delete(key);
    return false;
  };
  const innerSiblings = inner.ledgerSenderSiblings?.bind(inner);
  const lumped = options.lumped ?? (changes === undefined || innerSiblings !== undefined);
  let upkeep: HubUpkeep;
  if (start !== null) upkeep = scanCatchUp(store, cache, settings, clock, start);
  else if (changes) upkeep = await changesCatchUp(changes, cache, settings.maxChanges, clock);
  else {
    throw new KytError(
      "NOT_CONFIGURED",
      "the store can neither list its ledger in stored order nor tell its changes: no hub cache",
    );
  }

  // Catch-ups and loads run one at a time (see the module comment).
  let chain: Promise<unknown> = Promise.resolve();
  const exclusive = <T>(run: () => Promise<T>): Promise<T> => {
    const next = chain.then(run);
    chain = next.catch(() => undefined);
    return next;
  };
  /** A catch-up queued and not yet started: a read that comes meanwhile waits for the same one. */
  let queued: Promise<number> | null = null;
  const catchUp = (): Promise<number> => {
    queued ??= exclusive(() => {
      queued = null;
      return upkeep.catchUp();
    });
    return queued;
  };
  /** Catches up when the hubs are older than `maxLagMs` (always with 0). */
  const fresh = async (): Promise<void> => {
    const lag = clock.now() - upkeep.caughtUpAt;
    if (settings.maxLagMs === 0 || lag > settings.maxLagMs) await catchUp();
  };

  /**
   * Catches up, inside the exclusive section, when the last catch-up is older than `maxLagMs`
   * (always with 0). A load needs no catch-up of its own: it runs between catch-ups, and the
   * next one reads every row stored since the last (those the load saw too are skipped) and
   * applies every rewind recorded since, before those rows. One per load was 3 statements per
   * hub of a fresh worker: 1,225 catch-ups over its first 300 transfers on the real-shaped 1M
   * ledger (docs/benchmarks.md, "Cold checks in fewer round trips").
   */
  const freshInside = async (): Promise<void> => {
    if (settings.maxLagMs === 0 || clock.now() - upkeep.caughtUpAt > settings.maxLagMs)
      await upkeep.catchUp();
  };

  /**
   * Loads a hub's rows (incoming: with its senders' rows at those times) between catch-ups. At
   * most one row more than the cache could hold is read: a hub past the bound is refused on
   * that row, never read whole (on a 100,000,000-row ClickHouse ledger a hub's whole answer
   * exceeded the largest string V8 can hold, and every check of the workers failed).
   */
  const load = (direction: HubDirection, network: string, tokenId: string, address: string) =>
    exclusive(async () => {
      await freshInside();
      if (cache.has(direction, network, tokenId, address)) return;
      const limit = Math.min(ALL_ROWS, maxRows + 1);
      const rows =
        direction === "incoming"
          ? await inner.ledgerIncoming(network, tokenId, [{ address, before: ALL_BEFORE }], limit)
          : await inner.ledgerOutgoing(network, tokenId, [{ address, after: ALL_AFTER }], limit);
      upkeep.loaded();
      // `limit` rows are one more than the cache holds: `admit` refuses them, holding nothing.
      if (!cache.admit(direction, network, tokenId, address, rows)) {
        // Bounded: past REFUSALS_HELD refusals they are all forgotten (and may be loaded once more).
        if (refusedAt.size >= REFUSALS_HELD) refusedAt.clear();
        refusedAt.set(refusalKey(direction, network, tokenId, address), clock.now());
      }
    });

  /**
   * Reads the senders' siblings of held incoming hubs (for their first lumped read), between
   * catch-ups: from the reader's `ledgerSenderSiblings` when it has it (one call for them all),
   * else one outgoing read per sender and time (`sendersRows`). Either gives the hub's index the
   * same rows: the second also returns the hub's own rows, which it holds already.
   */
  const loadSiblings = (network: string, tokenId: string, addresses: ReadonlyArray<string>) =>
    exclusive(async () => {
      await freshInside();
      const bare = addresses.filter(
        (a) => cache.has("incoming", network, tokenId, a) && !cache.hasSiblings(network, tokenId, a),
      );
      if (innerSiblings) {
        const found = bare.length > 0 ? await innerSiblings(network, tokenId, bare) : [];
        for (const [i, address] of bare.entries()) {
          // Marked as just read, so that the rows it adds evict others first.
          if (cache.get("incoming", network, tokenId, address)) {
            cache.addSiblings(network, tokenId, address, found[i] ?? []);
          }
        }
        return;
      }
      for (const address of bare) {
        const index = cache.get("incoming", network, tokenId, address);
        if (!index) continue;
        const rows = index.incomingSync(network, tokenId, [{ address, before: ALL_BEFORE }], ALL_ROWS);
        cache.addSiblings(
          network,
          tokenId,
          address,
          await sendersRows(inner, network, tokenId, address, rows),
        );
      }
    });

  /** Loads, one after the other, the addresses of `queries` with at least `minRows` rows. */
  const admit = async (
    direction: HubDirection,
    network: string,
    tokenId: string,
    addresses: ReadonlyArray<string>,
    sizes: ReadonlyArray<number>,
  ): Promise<void> => {
    const wanted = new Set<string>();
    for (const [i, address] of addresses.entries()) {
      const size = sizes[i] as number;
      if (
        size >= settings.minRows &&
        !cache.has(direction, network, tokenId, address) &&
        cache.canAdmit(direction, size) &&
        !refusedLately(refusalKey(direction, network, tokenId, address))
      )
        wanted.add(address);
    }
    for (const address of wanted) await load(direction, network, tokenId, address);
  };

  /**
   * Answers `queries` in order: those of held hubs by `held(index, query)`, the rest by
   * `others(queries)` (one call for them all, in order); catches up first when a hub answers.
   */
  async function split<Q extends { readonly address: string }, A>(
    direction: HubDirection,
    network: string,
    tokenId: string,
    queries: ReadonlyArray<Q>,
    held: (index: LedgerIndex, q: Q) => A,
    others: (rest: ReadonlyArray<Q>) => Promise<ReadonlyArray<A>>,
  ): Promise<A[]> {
    if (queries.some((q) => cache.has(direction, network, tokenId, q.address))) await fresh();
    const out: A[] = new Array(queries.length);
    const rest: Q[] = [];
    const restAt: number[] = [];
    for (const [i, q] of queries.entries()) {
      const index = cache.get(direction, network, tokenId, q.address);
      if (index) out[i] = held(index, q);
      else {
        rest.push(q);
        restAt.push(i);
      }
    }
    if (rest.length > 0) {
      const answers = await others(rest);
      for (const [k, i] of restAt.entries()) out[i] = answers[k] as A;
    }
    return out;
  }

  /**
   * A read: the rows of held hubs from memory, the others' from `inner` in one call; then the
   * addresses `inner` returned at least `minRows` rows for are loaded (a store that does not
   * count finds its hubs so).
   */
  async function read<Q extends { readonly address: string }>(
    direction: HubDirection,
    network: string,
    tokenId: string,
    queries: ReadonlyArray<Q>,
    held: (index: LedgerIndex, q: Q) => LedgerTransfer[],
    others: (rest: ReadonlyArray<Q>) => Promise<ReadonlyArray<LedgerTransfer>>,
  ): Promise<LedgerTransfer[]> {
    if (queries.some((q) => cache.has(direction, network, tokenId, q.address))) await fresh();
    const out: LedgerTransfer[] = [];
    const rest: Q[] = [];
    for (const q of queries) {
      const index = cache.get(direction, network, tokenId, q.address);
      if (index) for (const r of held(index, q)) out.push(r);
      else rest.push(q);
    }
    if (rest.length === 0) return out;
    const sizes = new Map<string, number>();
    for (const r of await others(rest)) {
      out.push(r);
      const address = direction === "incoming" ? r.to : r.from;
      sizes.set(address, (sizes.get(address) ?? 0) + 1);
    }
    await admit(direction, network, tokenId, [...sizes.keys()], [...sizes.values()]);
    return out;
  }

  const reader: HubCachedLedger = {
    ledgerIncoming(network, tokenId, queries: ReadonlyArray<IncomingQuery>, limit) {
      return read(
        "incoming",
        network,
        tokenId,
        queries,
        (index, q) => index.incomingSync(network, tokenId, [q], limit),
        (rest) => inner.ledgerIncoming(network, tokenId, rest, limit),
      );
    },
    ledgerOutgoing(network, tokenId, queries: ReadonlyArray<OutgoingQuery>, limit) {
      return read(
        "outgoing",
        network,
        tokenId,
        queries,
        (index, q) => index.outgoingSync(network, tokenId, [q], limit),
        (rest) => inner.ledgerOutgoing(network, tokenId, rest, limit),
      );
    },
    async ledgerIncomingLumped(
      network: string,
      tokenId: string,
      queries: ReadonlyArray<LumpQuery>,
      screen: AddressScreen,
    ): Promise<ReadonlyArray<LumpedRows | null>> {
      const innerLumped = inner.ledgerIncomingLumped?.bind(inner);
      const bare = queries
        .map((q) => q.address)
        .filter((a) => cache.has("incoming", network, tokenId, a) && !cache.hasSiblings(network, tokenId, a));
      if (bare.length > 0) await loadSiblings(network, tokenId, [...new Set(bare)]);
      return split(
        "incoming",
        network,
        tokenId,
        queries,
        (index, q) => index.incomingLumpedSync(network, tokenId, [q], screen)[0] ?? null,
        async (rest) => (innerLumped ? innerLumped(network, tokenId, rest, screen) : rest.map(() => null)),
      );
    },
    catchUp,
    stats: () => cache.stats(),
  };
  const { ledgerIncomingLumped: _lumped, ...unlumped } = reader;
  // Counts only where the inner reader counts: the others' addresses are counted by it.
  const innerIncomingCounts = inner.ledgerIncomingCounts?.bind(inner);
  const innerOutgoingCounts = inner.ledgerOutgoingCounts?.bind(inner);
  return Object.freeze({
    ...(lumped ? reader : unlumped),
    ...(innerIncomingCounts
      ? {
          async ledgerIncomingCounts(
            network: string,
            tokenId: string,
            queries: ReadonlyArray<IncomingQuery>,
          ) {
            const counts = await split(
              "incoming",
              network,
              tokenId,
              queries,
              (index, q) => index.incomingCountsSync(network, tokenId, [q])[0] as number,
              (rest) => innerIncomingCounts(network, tokenId, rest),
            );
            await admit(
              "incoming",
              network,
              tokenId,
              queries.map((q) => q.address),
              counts,
            );
            return counts;
          },
        }
      : {}),
    ...(innerOutgoingCounts
      ? {
          async ledgerOutgoingCounts(
            network: string,
            tokenId: string,
            queries: ReadonlyArray<OutgoingQuery>,
          ) {
            const counts = await split(
              "outgoing",
              network,
              tokenId,
              queries,
              (index, q) => index.outgoingCountsSync(network, tokenId, [q])[0] as number,
              (rest) => innerOutgoingCounts(network, tokenId, rest),
            );
            await admit(
              "outgoing",
              network,
              tokenId,
              queries.map((q) => q.address),
              counts,
            );
            return counts;
          },
        }
      : {}),
  });
}

/** How the cache follows the store: a catch-up now, and when the last one began. */
interface HubUpkeep {
  catchUp(): Promise<number>;
  readonly caughtUpAt: number;
  /** A hub was loaded from the store's tables: the next catch-up reads its whole overlap again. */
  loaded(): void;
}

/** Follows `Store.scanLedger` and `Store.scanRewinds` from `start` (the module comment). */
function scanCatchUp(
  store: Pick<Store, "scanLedger" | "scanRewinds">,
  cache: HubCache,
  settings: { readonly maxLagMs: number; readonly pageSize: number },
  clock: Clock,
  start: WarmStart,
): HubUpkeep {
  const scan = (store.scanLedger as NonNullable<Store["scanLedger"]>).bind(store);
  const upkeep = warmCatchUp(
    "hub cache",
    { maxLagMs: settings.maxLagMs, pageSize: settings.pageSize, clock },
    HUB_CACHE_DEFAULTS,
    async (position, pageSize) => {
      const page = await scan(position, pageSize);
      return { read: page.rows.length, added: cache.append(page.rows), last: page.last };
    },
    store.scanRewinds
      ? {
          scan: store.scanRewinds.bind(store),
          ledger: "account",
          drop: (network, fromHeight) => cache.removeBlocksFrom(network, fromHeight),
        }
      : null,
    start,
  );
  return {
    catchUp: () => upkeep.catchUp(),
    get caughtUpAt() {
      return upkeep.caughtUpAt;
    },
    // Stored order: a row a load saw early has a position the next catch-up reads anyway.
    loaded() {},
  };
}

/**
 * Follows `Store.ledgerChangesSince` from now (the module comment): each catch-up appends the
 * rows stored since the last one began, or drops every hub when more than `maxChanges`
 * transactions were. The callers run catch-ups one at a time.
 */
async function changesCatchUp(
  changes: (since: LedgerChangesMark | null, limit: number) => Promise<LedgerChanges>,
  cache: HubCache,
  maxChanges: number,
  clock: Clock,
): Promise<HubUpkeep> {
  let since: LedgerChangesMark = (await changes(null, maxChanges)).next;
  let caughtUpAt = Number.NEGATIVE_INFINITY;
  return {
    loaded() {
      // A mark of our own stands for no rows given: the next answer holds the whole overlap.
      since = { at: since.at };
    },
    async catchUp() {
      const startedAt = clock.now();
      const page = await changes(since, maxChanges);
      since = page.next;
      let added = 0;
      if (page.rows === null) cache.clear();
      else added = cache.append(page.rows);
      caughtUpAt = startedAt;
      return added;
    },
    get caughtUpAt() {
      return caughtUpAt;
    },
  };
}

/**
 * For readers without `ledgerSenderSiblings`, the incoming rows of hub `address`: every row
 * its senders sent at the times they sent to it (the rows that may share a child with one of
 * the hub's, see hub-cache.ts), the hub's own rows included. One outgoing
 * read per sender and time (from the time on, earliest first), in chunks; a pair that found
 * `limit` rows at its time is read again with twice the limit until it finds fewer.
 */
async function sendersRows(
  inner: LedgerReader,
  network: string,
  tokenId: string,
  address: string,
  rows: ReadonlyArray<LedgerTransfer>,
): Promise<LedgerTransfer[]> {
  const pairs = new Map<string, OutgoingQuery & { readonly at: number }>();
  for (const r of rows) {
    if (r.from === address) continue;
    pairs.set(`${r.from}\u0000${r.occurredAt}`, {
      address: r.from,
      after: r.occurredAt - 1,
      at: r.occurredAt,
    });
  }
  const out: LedgerTransfer[] = [];
  let asked = [...pairs.values()];
  for (let limit = SIBLING_FIRST_LIMIT; asked.length > 0; limit *= 2) {
    const again: typeof asked = [];
    for (let i = 0; i < asked.length; i += SIBLING_CHUNK) {
      const chunk = asked.slice(i, i + SIBLING_CHUNK);
      const found = await inner.ledgerOutgoing(network, tokenId, chunk, limit);
      // Reads of one sender at several times overlap: its rows at a time, each once.
      const byPair = new Map<string, Map<string, LedgerTransfer>>();
      for (const r of found) {
        const key = `${r.from}\u0000${r.occurredAt}`;
        let same = byPair.get(key);
        if (!same) {
          same = new Map();
          byPair.set(key, same);
        }
        same.set(`${r.txHash}\u0000${r.logIndex}`, r);
      }
      for (const q of chunk) {
        const same = byPair.get(`${q.address}\u0000${q.at}`);
        // Fewer than `limit` rows at its time: the read, earliest first, returned all of them.
        if (same && same.size >= limit) again.push(q);
        else if (same) out.push(...same.values());
        byPair.delete(`${q.address}\u0000${q.at}`);
      }
    }
    asked = again;
  }
  return out;
}
