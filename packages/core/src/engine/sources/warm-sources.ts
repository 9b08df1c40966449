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
import type { Store } from "../../ports/store.js";
import { CLUSTER_CACHE_DEFAULTS, cachingClusterReader, type UtxoClusterReader } from "./cached-clusters.js";
import { type ColdSources, type ColdSourcesOptions, createColdSources } from "./cold-sources.js";
import { createWarmLedger, type WarmLedger, type WarmLedgerOptions } from "./warm-ledger.js";
import { createWarmUtxoLedger, type WarmUtxoLedger, warmUtxoChainSource } from "./warm-utxo-ledger.js";

/** Options of {@link createWarmSources}. */
export interface WarmSourcesOptions extends ColdSourcesOptions {
  readonly ledger?: WarmLedgerOptions;
  /**
   * A warm ledger already loaded, used instead of loading one (`ledger` is then ignored): a
   * screening pool's, whose copy is shared with its threads (`@openkyt/runtime-node`).
   */
  readonly warmLedger?: WarmLedger;
}

/** Engine config members served warm: the cold process's sources and the ledger in memory. */
export interface WarmSources extends ColdSources {
  readonly ledger: WarmLedger;
  /** The UTXO ledger in memory (`warm-utxo-ledger.ts`); left out when the store cannot list it. */
  readonly utxoLedger?: WarmUtxoLedger;
  /** The store's address clusters behind a cache as old as the ledger may be (`cached-clusters.ts`). */
  readonly clusters: UtxoClusterReader;
  readonly chainSource: ChainSource;
}

/** Loads the ledger of `store` into memory and puts caches in front of its reference data. */
export async function createWarmSources(
  store: Store,
  options: WarmSourcesOptions = {},
): Promise<WarmSources> {
  const ledger = options.warmLedger ?? (await createWarmLedger(store, options.ledger));
  const utxoLedger = await createWarmUtxoLedger(store, options.ledger);
  return {
    ...(await createColdSources(store, options)),
    ledger,
    ...(utxoLedger ? { utxoLedger } : {}),
    clusters: cachingClusterReader(store, {
      ttlMs: options.ledger?.maxLagMs ?? CLUSTER_CACHE_DEFAULTS.ttlMs,
      ...(options.ledger?.clock ? { clock: options.ledger.clock } : {}),
    }),
    chainSource: utxoLedger ? warmUtxoChainSource(utxoLedger, ledger.chain) : ledger.chain,
  };
}
