/**
 * Caches in front of the reference sources: a screening asks about the same few thousand hub
 * addresses over and over, and about the same tokens and the same days' prices for every
 * transfer. An answer, found or not, is kept for `ttlMs` (so a
 * label or a listing imported by any process is seen at most that much later), the oldest
 * answers are dropped first past `maxEntries` (an address still in use is simply asked again),
 * and `clear()` drops everything (call it after importing reference data in this process).
 */
import type { Attribution, SanctionsListing, TokenInfo } from "../../domain/records.js";
import { KytError } from "../../errors.js";
import type {
  AttributionSource,
  PriceSource,
  SanctionsSource,
  TokenCatalog,
} from "../../ports/reference-sources.js";
import { type Clock, systemClock } from "../../ports/runtime.js";
import { utcDay } from "./store-sources.js";

/** Options of the caches. */
export interface SourceCacheOptions {
  /** How long an answer is kept, in ms (default 30,000). */
  readonly ttlMs?: number;
  /** Most addresses kept (per network for attributions; default 200,000). */
  readonly maxEntries?: number;
  readonly clock?: Clock;
}

/** Default lifetime and size of a source cache. */
export const SOURCE_CACHE_DEFAULTS = Object.freeze({ ttlMs: 30_000, maxEntries: 200_000 });

/** Something that can be emptied. */
export interface Clearable {
  /** Forgets every cached answer. */
  clear(): void;
}

interface Entry<V> {
  readonly value: V;
  readonly at: number;
}

/**
 * A map with a lifetime per entry, dropping the oldest entries first when full (a Map keeps
 * insertion order). Hits do not reorder: moving an entry on every hit cost more than the
 * occasional second lookup of an evicted hub address.
 */
export class TtlCache<V> {
  readonly #entries = new Map<string, Entry<V>>();
  constructor(readonly settings: CacheSettings) {}

  /** The live entry of `key`; undefined when absent or expired. */
  get(key: string, now: number): Entry<V> | undefined {
    const entry = this.#entries.get(key);
    if (!entry || now - entry.at > this.settings.ttlMs) return undefined;
    return entry;
  }

  set(key: string, value: V, at: number): void {
    this.#entries.delete(key);
    this.#entries.set(key, { value, at });
    while (this.#entries.size > this.settings.maxEntries) {
      const oldest = this.#entries.keys().next().value as string;
      this.#entries.delete(oldest);
    }
  }

  clear(): void {
    this.#entries.clear();
  }
}

/** Options with their defaults, checked. */
export interface CacheSettings {
  readonly ttlMs: number;
  readonly maxEntries: number;
  readonly clock: Clock;
}

/**
 * The settings of `options` over `defaults`; VALIDATION_ERROR naming what is wrong (`what` names
 * the cache in the message).
 */
export function cacheSettings(
  options: SourceCacheOptions,
  defaults: { readonly ttlMs: number; readonly maxEntries: number } = SOURCE_CACHE_DEFAULTS,
  what = "source cache",
): CacheSettings {
  const ttlMs = options.ttlMs ?? defaults.ttlMs;
  const maxEntries = options.maxEntries ?? defaults.maxEntries;
  if (!(ttlMs >= 0)) throw new KytError("VALIDATION_ERROR", `${what}: ttlMs must be >= 0, got ${ttlMs}`);
  if (!Number.isInteger(maxEntries) || maxEntries < 1) {
    throw new KytError(
      "VALIDATION_ERROR",
      `${what}: maxEntries must be a positive integer, got ${maxEntries}`,
    );
  }
  return { ttlMs, maxEntries, clock: options.clock ?? systemClock };
}

/** `source` behind a cache of its answers per (network, address), misses included. */
export function cachingAttributionSource(
  source: AttributionSource,
  options: SourceCacheOptions = {},
): AttributionSource & Clearable {
  // One cache per network, keyed by the address string itself: a ledger row's address keeps
  // its hash, where a concatenated key would be hashed afresh on every lookup.
  const settings = cacheSettings(options);
  const caches = new Map<string, TtlCache<Attribution | null>>();
  const cacheFor = (network: string) => {
    let cache = caches.get(network);
    if (!cache) {
      cache = new TtlCache<Attribution | null>(settings);
      caches.set(network, cache);
    }
    return cache;
  };
  return {
    async attributions(network, addresses) {
      const out: Attribution[] = [];
      const missing: string[] = [];
      const cache = cacheFor(network);
      const now = cache.settings.clock.now();
      for (const address of new Set(addresses)) {
        const hit = cache.get(address, now);
        if (!hit) missing.push(address);
        else if (hit.value) out.push(hit.value);
      }
      if (missing.length === 0) return out;
      const found = await source.attributions(network, missing);
      const byAddress = new Map(found.map((a) => [a.address, a]));
      for (const address of missing) {
        const value = byAddress.get(address) ?? null;
        cache.set(address, value, now);
        if (value) out.push(value);
      }
      return out;
    },
    clear: () => caches.clear(),
  };
}

/** Answers of `load` per key, kept as in {@link TtlCache} (a miss is kept too). */
function cachedAnswers<V>(settings: CacheSettings): (key: string, load: () => Promise<V>) => Promise<V> {
  const cache = new TtlCache<V>(settings);
  return async (key, load) => {
    const now = settings.clock.now();
    const hit = cache.get(key, now);
    if (hit) return hit.value;
    const value = await load();
    cache.set(key, value, now);
    return value;
  };
}

/**
 * `catalog` behind a cache of its answers per (network, token id) and per (network, symbol),
 * unknown tokens included.
 */
export function cachingTokenCatalog(
  catalog: TokenCatalog,
  options: SourceCacheOptions = {},
): TokenCatalog & Clearable {
  const settings = cacheSettings(options);
  let byId = cachedAnswers<TokenInfo | null>(settings);
  let bySymbol = cachedAnswers<TokenInfo | null>(settings);
  return {
    token: (network, tokenId) => byId(`${network}\u0000${tokenId}`, () => catalog.token(network, tokenId)),
    bySymbol: (network, symbol) =>
      bySymbol(`${network}\u0000${symbol.toUpperCase()}`, () => catalog.bySymbol(network, symbol)),
    clear() {
      byId = cachedAnswers(settings);
      bySymbol = cachedAnswers(settings);
    },
  };
}

/**
 * `source` behind a cache of its answers per (network, token, UTC day): a daily price source
 * answers the same for every time of a day.
 */
export function cachingPriceSource(
  source: PriceSource,
  options: SourceCacheOptions = {},
): PriceSource & Clearable {
  const settings = cacheSettings(options);
  let prices = cachedAnswers<number | null>(settings);
  return {
    usdPrice: (network, tokenId, at) =>
      prices(`${network}\u0000${tokenId}\u0000${utcDay(at)}`, () => source.usdPrice(network, tokenId, at)),
    clear() {
      prices = cachedAnswers(settings);
    },
  };
}

/** `source` behind a cache of its answers per address (every listing of it, or none). */
export function cachingSanctionsSource(
  source: SanctionsSource,
  options: SourceCacheOptions = {},
): SanctionsSource & Clearable {
  const cache = new TtlCache<ReadonlyArray<SanctionsListing>>(cacheSettings(options));
  return {
    async listings(addresses) {
      const out: SanctionsListing[] = [];
      const missing: string[] = [];
      const now = cache.settings.clock.now();
      for (const address of new Set(addresses)) {
        const hit = cache.get(address, now);
        if (!hit) missing.push(address);
        else out.push(...hit.value);
      }
      if (missing.length === 0) return out;
      const found = await source.listings(missing);
      const byAddress = new Map<string, SanctionsListing[]>();
      for (const listing of found) {
        const list = byAddress.get(listing.address);
        if (list) list.push(listing);
        else byAddress.set(listing.address, [listing]);
      }
      for (const address of missing) {
        const value = byAddress.get(address) ?? [];
        cache.set(address, value, now);
        out.push(...value);
      }
      return out;
    },
    clear: () => cache.clear(),
  };
}
