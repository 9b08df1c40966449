/**
 * The in-memory store: the reference implementation of the Store port. Plain Maps, copies in
 * and out, transactions serialised by an async mutex and made atomic by an undo log.
 */

import type { Store, StoreCapabilities, StoreOps } from "../ports/store.js";
import { memoryBacktestOps } from "./memory-backtests.js";
import { memoryBulkLedgerWriter } from "./memory-bulk-ledger.js";
import { memoryCaseworkOps } from "./memory-casework.js";
import { memoryChainFollowOps } from "./memory-chain-follow.js";
import { memoryClusterOps } from "./memory-clusters.js";
import { memoryJobOps } from "./memory-jobs.js";
import { createUndoLog, finalJournal, type Journal } from "./memory-journal.js";
import { memoryKeyModelOps } from "./memory-keys-models.js";
import { memoryLedgerScan } from "./memory-ledger-scan.js";
import { memoryManualCheckOps } from "./memory-manual-checks.js";
import { createMutex, type Mutex } from "./memory-mutex.js";
import { memoryOperationsOps } from "./memory-operations.js";
import { memoryReferenceOps } from "./memory-reference.js";
import { createMemoryReplayGuard } from "./memory-replay.js";
import { memoryRewindScan } from "./memory-rewinds.js";
import { memoryRiskAlertOps } from "./memory-risks-alerts.js";
import { memorySecretOps } from "./memory-secrets.js";
import { createMemoryTables, type MemoryTables } from "./memory-state.js";
import { memoryTransferOps } from "./memory-transfers.js";
import { memoryUserOps } from "./memory-users.js";
import { memoryUtxoOps } from "./memory-utxo.js";
import { memoryWebhookOps } from "./memory-webhooks.js";

/** Capabilities of the in-memory store. */
export const MEMORY_STORE_CAPABILITIES: StoreCapabilities = Object.freeze({
  multiProcess: false,
  dialect: "memory",
  inProcess: true,
});

/** Every member of the port over `tables`, writing through `journal`. */
function memoryOps(tables: MemoryTables, journal: Journal): StoreOps {
  return {
    ...memoryTransferOps(tables, journal),
    ...memoryManualCheckOps(tables, journal),
    ...memoryRiskAlertOps(tables, journal),
    ...memoryJobOps(tables, journal),
    ...memoryKeyModelOps(tables, journal),
    ...memoryReferenceOps(tables, journal),
    ...memoryUtxoOps(tables, journal),
    ...memoryClusterOps(tables, journal),
    ...memoryWebhookOps(tables, journal),
    ...memorySecretOps(tables, journal),
    ...memoryUserOps(tables, journal),
    ...memoryCaseworkOps(tables, journal),
    ...memoryChainFollowOps(tables, journal),
    ...memoryBacktestOps(tables, journal),
    ...memoryOperationsOps(tables),
  };
}

/** `ops` with every member run under `mutex`, so none interleaves with an open transaction. */
function serialised(ops: StoreOps, mutex: Mutex): StoreOps {
  const wrapped: Record<string, unknown> = {};
  for (const [name, member] of Object.entries(ops) as Array<
    [string, (...args: unknown[]) => Promise<unknown>]
  >) {
    wrapped[name] = (...args: unknown[]) => mutex.run(() => member(...args));
  }
  return wrapped as unknown as StoreOps;
}

/**
 * Creates an empty in-memory store. Nothing survives the process; capabilities
 * `{ multiProcess: false, dialect: "memory", inProcess: true }`. Inside `transaction(fn)`, use the `tx` view:
 * the root store waits for the transaction to end (as a single SQLite connection does).
 */
export function createMemoryStore(): Store {
  const tables = createMemoryTables();
  const mutex = createMutex();
  const replay = createMemoryReplayGuard();
  const store: Store = {
    ...serialised(memoryOps(tables, finalJournal), mutex),
    capabilities: MEMORY_STORE_CAPABILITIES,
    bulkLedgerWriter: async () => memoryBulkLedgerWriter(store),
    scanLedger: memoryLedgerScan(tables, mutex),
    scanRewinds: memoryRewindScan(tables, mutex),
    admitRequestSignature: (keyId, digest, expiresAt, now) => replay.admit(keyId, digest, expiresAt, now),
    transaction<T>(fn: (tx: StoreOps) => Promise<T>): Promise<T> {
      return mutex.run(async () => {
        const undo = createUndoLog();
        try {
          return await fn(memoryOps(tables, undo));
        } catch (error) {
          undo.rollback();
          throw error;
        }
      });
    },
    async close() {},
  };
  return store;
}
