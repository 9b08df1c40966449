/**
 * The warm configuration of the engine's reference sources, for one process that screens a
 * lot: the ledger in memory (`createWarmLedger`), the UTXO ledger too when the store can list
 * it (`createWarmUtxoLedger`), attributions and sanctions held whole
 * (`whole-reference.ts`; a table past the row budget gets a cache instead), and caches in
 * front of tokens and daily prices. Spread the result into `createEngine`'s config:
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
import { createWarmUtxoLedger, type WarmUtxoLedger, warmUtxoChainSource } from "./warm-utxo-ledger.js";
import {
  type WholeReferenceOptions,
  wholeAttributionSource,
  wholeSanctionsSource,
} from "./whole-reference.js";

/** Options of {@link createWarmSources}. */
export interface WarmSourcesOptions {
  readonly ledger?: WarmLedgerOptions;
  /**
   * A warm ledger already loaded, used instead of loading one (`ledger` is then ignored): a
   * screening pool's, whose copy is shared with its threads (`@openkyt/runtime-node`).
   */
  readonly warmLedger?: WarmLedger;
  readonly cache?: SourceCacheOptions;
  /** Attributions and sanctions held whole (the default), or `false` for caches in front of the store. */
  readonly reference?: WholeReferenceOptions | false;
}

/** Engine config members served warm. */
export interface WarmSources {
  readonly ledger: WarmLedger;
  /** The UTXO ledger in memory (`warm-utxo-ledger.ts`); left out when the store cannot list it. */
  readonly utxoLedger?: WarmUtxoLedger;
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
  const ledger = options.warmLedger ?? (await createWarmLedger(store, options.ledger));
  const utxoLedger = await createWarmUtxoLedger(store, options.ledger);
  const whole = options.reference === false ? null : (options.reference ?? {});
  return {
    ledger,
    ...(utxoLedger ? { utxoLedger } : {}),
    chainSource: utxoLedger ? warmUtxoChainSource(utxoLedger, ledger.chain) : ledger.chain,
    attributions:
      (whole && (await wholeAttributionSource(store, whole))) ||
      cachingAttributionSource(storeAttributionSource(store), options.cache),
    sanctions:
      (whole && (await wholeSanctionsSource(store, whole))) ||
      cachingSanctionsSource(storeSanctionsSource(store), options.cache),
    tokens: cachingTokenCatalog(storeTokenCatalog(store), options.cache),
    prices: cachingPriceSource(storePriceSource(store), options.cache),
  };
}
