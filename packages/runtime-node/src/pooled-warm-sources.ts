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
 *   // ... engine.stop(), then: await sources.close();
 *
 * Sized to the machine by default: one fewer thread than the cores this process may use
 * (`screeningThreadCount`), so on one core, or with `pool: { threads: 0 }`, there is no pool and
 * the engine traces inline over a warm ledger of its own, exactly as with `createWarmSources`.
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
import {
  createScreeningPool,
  type ScreeningPool,
  type ScreeningPoolOptions,
  screeningThreadCount,
} from "./screening-pool.js";

/** Options of {@link createPooledWarmSources}. */
export interface PooledWarmSourcesOptions extends Omit<WarmSourcesOptions, "ledger" | "warmLedger"> {
  readonly pool?: ScreeningPoolOptions;
}

/** Warm sources with the pool as the engine's trace executor (none when sized to 0 threads). */
export interface PooledWarmSources extends WarmSources {
  /** The pool that runs the traces; absent when there are 0 threads (the engine traces inline). */
  readonly traceExecutor?: ScreeningPool;
  /** Stops the pool's threads, if any; call it after `engine.stop()`. */
  close(): Promise<void>;
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

/**
 * Starts a screening pool over `store` and the warm sources around it; with 0 threads (asked, or
 * the default on one core) the warm sources of `createWarmSources`, which trace inline.
 * VALIDATION_ERROR for a thread count that is not an integer >= 0.
 */
export async function createPooledWarmSources(
  store: Store,
  options: PooledWarmSourcesOptions = {},
): Promise<PooledWarmSources> {
  const { pool: poolOptions, ...rest } = options;
  const threads = screeningThreadCount(poolOptions?.threads);
  if (threads === 0) {
    const inline = await createWarmSources(store, {
      ...rest,
      ...(poolOptions?.maxLagMs !== undefined ? { ledger: { maxLagMs: poolOptions.maxLagMs } } : {}),
    });
    return { ...inline, close: async () => {} };
  }
  const pool = await createScreeningPool(store, { ...poolOptions, threads });
  try {
    const now = poolOptions?.now ?? Date.now;
    const maxLagMs = poolOptions?.maxLagMs ?? WARM_LEDGER_DEFAULTS.maxLagMs;
    const sources = await createWarmSources(store, {
      ...rest,
      warmLedger: poolWarmLedger(pool, store, maxLagMs, now),
    });
    return { ...sources, traceExecutor: pool, close: () => pool.close() };
  } catch (error) {
    await pool.close();
    throw error;
  }
}
