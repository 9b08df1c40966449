/**
 * The warm sources of a process that screens on worker threads: a {@link ScreeningPool} runs
 * the traces and holds the ledger once, in shared memory, for its threads and for the main
 * thread (which reads it for the traces it runs itself: UTXO fallbacks, manual checks through
 * other paths); transaction hashes are looked up in the store (one indexed read per binding,
 * instead of a second copy of the ledger on the main thread). Labels, sanctions, tokens and
 * prices are held or cached as `createWarmSources` does. Spread into `createEngine`'s config:
 *
 *   const sources = await createPooledWarmSources(store);
 *   const engine = createEngine({ store, ...sources });
 *   // ... engine.stop(), then: await sources.traceExecutor.close();
 */
import {
  createWarmSources,
  type LedgerTransfer,
  type Store,
  storeChainSource,
  WARM_LEDGER_DEFAULTS,
  type WarmLedger,
  type WarmSources,
  type WarmSourcesOptions,
} from "@openkyt/core";
import { createScreeningPool, type ScreeningPool, type ScreeningPoolOptions } from "./screening-pool.js";

/** Options of {@link createPooledWarmSources}. */
export interface PooledWarmSourcesOptions extends Omit<WarmSourcesOptions, "ledger" | "warmLedger"> {
  readonly pool?: ScreeningPoolOptions;
}

/** Warm sources with the pool as the engine's trace executor. */
export interface PooledWarmSources extends WarmSources {
  readonly traceExecutor: ScreeningPool;
}

/** The pool's copy as a `WarmLedger`: reads older than the pool's lag catch up first. */
export function poolWarmLedger(
  pool: ScreeningPool,
  store: Store,
  maxLagMs: number,
  now: () => number,
): WarmLedger {
  const recent = () => now() - pool.caughtUpAt <= maxLagMs;
  const fresh = <T>(read: () => T): Promise<T> =>
    recent() ? Promise.resolve(read()) : pool.catchUp().then(read);
  return {
    ledgerIncoming: (network, tokenId, queries, limit) =>
      fresh((): ReadonlyArray<LedgerTransfer> => pool.ledger.incomingSync(network, tokenId, queries, limit)),
    ledgerOutgoing: (network, tokenId, queries, limit) =>
      fresh((): ReadonlyArray<LedgerTransfer> => pool.ledger.outgoingSync(network, tokenId, queries, limit)),
    chain: storeChainSource(store),
    catchUp: () => pool.catchUp(),
    get size() {
      return pool.ledger.size;
    },
    get caughtUpAt() {
      return pool.caughtUpAt;
    },
  };
}

/** Starts a screening pool over `store` and the warm sources around it. */
export async function createPooledWarmSources(
  store: Store,
  options: PooledWarmSourcesOptions = {},
): Promise<PooledWarmSources> {
  const pool = await createScreeningPool(store, options.pool);
  try {
    const now = options.pool?.now ?? Date.now;
    const maxLagMs = options.pool?.maxLagMs ?? WARM_LEDGER_DEFAULTS.maxLagMs;
    const { pool: _pool, ...rest } = options;
    const sources = await createWarmSources(store, {
      ...rest,
      warmLedger: poolWarmLedger(pool, store, maxLagMs, now),
    });
    return { ...sources, traceExecutor: pool };
  } catch (error) {
    await pool.close();
    throw error;
  }
}
