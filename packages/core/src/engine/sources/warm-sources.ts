/**
 * The warm configuration of the engine's reference sources, for one process that screens a
 * lot: the ledger in memory (`createWarmLedger`) and caches in front of attributions,
 * sanctions, tokens and daily prices. Spread the result into `createEngine`'s config:
 *
 *   const engine = createEngine({ store, ...(await createWarmSources(store)) });
 */
import type { ChainSource } from "../../ports/chain-source.js";
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
import {
  storeAttributionSource,
  storePriceSource,
  storeSanctionsSource,
  storeTokenCatalog,
} from "./store-sources.js";
import { createWarmLedger, type WarmLedger, type WarmLedgerOptions } from "./warm-ledger.js";

/** Options of {@link createWarmSources}. */
export interface WarmSourcesOptions {
  readonly ledger?: WarmLedgerOptions;
  readonly cache?: SourceCacheOptions;
}

/** Engine config members served warm. */
export interface WarmSources {
  readonly ledger: WarmLedger;
  readonly chainSource: ChainSource;
  readonly attributions: AttributionSource & Clearable;
  readonly sanctions: SanctionsSource & Clearable;
  readonly tokens: TokenCatalog & Clearable;
  readonly prices: PriceSource & Clearable;
}

/** Loads the ledger of `store` into memory and puts caches in front of its reference data. */
export async function createWarmSources(
  store: Store,
  options: WarmSourcesOptions = {},
): Promise<WarmSources> {
  const ledger = await createWarmLedger(store, options.ledger);
  return {
    ledger,
    chainSource: ledger.chain,
    attributions: cachingAttributionSource(storeAttributionSource(store), options.cache),
    sanctions: cachingSanctionsSource(storeSanctionsSource(store), options.cache),
    tokens: cachingTokenCatalog(storeTokenCatalog(store), options.cache),
    prices: cachingPriceSource(storePriceSource(store), options.cache),
  };
}
