/**
 * The reference sources of a process that traces from the database (a worker or server without
 * `--warm`): the ledger stays in the store, and everything else a trace asks over and over is
 * held in this process. Attributions and sanctions are held whole (`whole-reference.ts`; a table
 * past its row budget gets a cache in front of the store instead), tokens and daily prices are
 * cached. A trace looks up every new address of every hop: asked of the store, those lookups
 * were about two thirds of a cold worker's CPU on the benchmark ledger (docs/benchmarks.md,
 * "Cold traces"). A label, listing, token or price imported by any process is seen at most
 * about 30 s later (`refreshMs`, `ttlMs`); `clear()` on a source makes it read again at once.
 *
 * On request (`hubCache`) the ledger's hubs are held too (`hub-cached-ledger.ts`): the rows of
 * every address a trace finds with at least 64 rows, up to a bound, followed as the store
 * changes, so that a trace reads them and lumps their light rows in memory instead of reading
 * thousands of rows a visit. Here it is off unless asked (`hubCache`); `openkyt serve` and
 * `worker` ask for it on a store that counts its hops (Postgres, and a ClickHouse ledger, followed
 * by its change log), where a fresh worker's own CPU and the database's were both lower with it
 * (docs/benchmarks.md, "Hub cache, fourth pass" and "Hub cache on ClickHouse").
 *
 *   const engine = createEngine({ store, ...(await createColdSources(store)) });
 */

import type { LedgerReader } from "../../ports/ledger-reader.js";
import type {
  AttributionSource,
  PriceSource,
  SanctionsSource,
  TokenCatalog,
} from "../../ports/reference-sources.js";
import type { Store } from "../../ports/store.js";
import {
  type Clearable,
  cachingAttributionSource,
  cachingPriceSource,
  cachingSanctionsSource,
  cachingTokenCatalog,
  type SourceCacheOptions,
} from "./cached-sources.js";
import { coalescedCounts } from "./coalesced-counts.js";
import { createHubCachedLedger, type HubCacheOptions } from "./hub-cached-ledger.js";
import {
  storeAttributionSource,
  storePriceSource,
  storeSanctionsSource,
  storeTokenCatalog,
} from "./store-sources.js";
import {
  type WholeReferenceOptions,
  wholeAttributionSource,
  wholeSanctionsSource,
} from "./whole-reference.js";

/** Options of {@link createColdSources}. */
export interface ColdSourcesOptions {
  readonly cache?: SourceCacheOptions;
  /** Attributions and sanctions held whole (the default), or `false` for caches in front of the store. */
  readonly reference?: WholeReferenceOptions | false;
  /**
   * The hub cache in front of the store's ledger, or absent / `false` for none (the default:
   * every hop read from the store). A store that can neither list its ledger in stored order nor
   * tell its changes (`ledgerChangesSince`) gets none.
   */
  readonly hubCache?: HubCacheOptions | false;
  /**
   * Whether the hop counts of traces that run at once are asked of the store in one statement
   * per hop (`coalesced-counts.ts`; default: on, except for a store whose capabilities say
   * `inProcess`, such as the in-memory one, where a count is no round trip; a store that does
   * not count is read as it is).
   */
  readonly coalesceCounts?: boolean;
}

/** Engine config members a cold process holds in memory (the ledger is read from the store). */
export interface ColdSources {
  readonly attributions: AttributionSource & Clearable;
  readonly sanctions: SanctionsSource & Clearable;
  readonly tokens: TokenCatalog & Clearable;
  readonly prices: PriceSource & Clearable;
  /**
   * The store's ledger with its hop counts joined across concurrent traces and its hubs held
   * (absent when the store neither counts nor holds hubs: the engine then reads the store).
   */
  readonly ledger?: LedgerReader;
}

/** Reads the attributions and sanctions of `store` whole and puts caches in front of the rest. */
export async function createColdSources(
  store: Store,
  options: ColdSourcesOptions = {},
): Promise<ColdSources> {
  const whole = options.reference === false ? null : (options.reference ?? {});
  const [attributions, sanctions] = await Promise.all([
    whole ? wholeAttributionSource(store, whole) : null,
    whole ? wholeSanctionsSource(store, whole) : null,
  ]);
  // A store that lists its ledger in stored order, or tells its changes (a ClickHouse ledger).
  const follows = store.scanLedger !== undefined || store.ledgerChangesSince !== undefined;
  const hubs = !options.hubCache || !follows ? null : options.hubCache;
  // The hop counts of a batch's concurrent traces asked together (`coalesced-counts.ts`): a
  // round trip saved per trace and hop on a database; in memory a count costs no round trip.
  const coalesce = options.coalesceCounts ?? store.capabilities.inProcess !== true;
  const ledger = coalesce ? coalescedCounts(store) : store;
  return {
    ...(hubs
      ? { ledger: await createHubCachedLedger(ledger, store, hubs) }
      : ledger === store
        ? {}
        : { ledger }),
    attributions: attributions ?? cachingAttributionSource(storeAttributionSource(store), options.cache),
    sanctions: sanctions ?? cachingSanctionsSource(storeSanctionsSource(store), options.cache),
    tokens: cachingTokenCatalog(storeTokenCatalog(store), options.cache),
    prices: cachingPriceSource(storePriceSource(store), options.cache),
  };
}
