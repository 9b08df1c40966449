/**
 * The warm sources of a process that screens on worker threads: a {@link ScreeningPool} runs
 * the traces and holds the ledger once, in shared memory, for its threads and for the main
 * thread (which reads it for the traces it runs itself: UTXO fallbacks, manual checks through
 * other paths) and finds transaction hashes in it (the store for a row stored since), so the
 * main thread keeps no second copy of the ledger. Labels, sanctions, tokens and
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
  utxoLedgerLookup,
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
    chain: {
      // As the warm ledger's: the copy first, then the store for a row stored since.
      async lookup(network, txHash) {
        const utxo = await utxoLedgerLookup(store, network, txHash);
        if (utxo) return utxo;
        if (!recent()) await pool.catchUp();
        let transfers: ReadonlyArray<LedgerTransfer> = pool.ledger.byTxHash(network, txHash);
        if (transfers.length === 0) transfers = await store.ledgerByTxHash(network, txHash);
        return transfers.length > 0 ? { kind: "found", transfers } : { kind: "not_found" };
      },
    },
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
