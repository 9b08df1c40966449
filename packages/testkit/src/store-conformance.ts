/**
 * The Store port's conformance suite: one `describe` block that every store (memory, SQLite,
 * Postgres) must pass. Each test gets a fresh store from `createStore`.
 */
import type { ErrorCode, Store } from "@openkyt/core";
import { afterEach, beforeEach, describe, expect } from "vitest";
import { backtestConformance } from "./store-conformance-backtests.js";
import { batchConformance } from "./store-conformance-batches.js";
import { bulkLedgerConformance } from "./store-conformance-bulk-ledger.js";
import { caseworkConformance } from "./store-conformance-casework.js";
import { chainFollowConformance } from "./store-conformance-chain-follow.js";
import { clusterConformance } from "./store-conformance-clusters.js";
import { hubCacheConformance } from "./store-conformance-hub-cache.js";
import { jobConformance } from "./store-conformance-jobs.js";
import { keyModelConformance } from "./store-conformance-keys-models.js";
import { ledgerConformance } from "./store-conformance-ledger.js";
import { ledgerScanConformance } from "./store-conformance-ledger-scan.js";
import { manualCheckConformance } from "./store-conformance-manual-checks.js";
import { operationsConformance } from "./store-conformance-operations.js";
import { propertyConformance } from "./store-conformance-properties.js";
import { referenceConformance } from "./store-conformance-reference.js";
import { referenceScanConformance } from "./store-conformance-reference-scans.js";
import { replayConformance } from "./store-conformance-replay.js";
import { rewindConformance } from "./store-conformance-rewinds.js";
import { riskAlertConformance } from "./store-conformance-risks-alerts.js";
import { transactionConformance } from "./store-conformance-transactions.js";
import { transferConformance } from "./store-conformance-transfers.js";
import { userConformance } from "./store-conformance-users.js";
import { utxoConformance } from "./store-conformance-utxo.js";
import { workflowConformance } from "./store-conformance-workflow.js";

/** Options of {@link runStoreConformance}. */
export interface StoreConformanceOptions {
  /** Name of the store under test, shown in the test names. */
  readonly name: string;
  /** A fresh, empty, migrated store for one test. */
  readonly createStore: () => Promise<Store>;
  /** Disposes of a store after its test; defaults to `store.close()`. */
  readonly destroyStore?: (store: Store) => Promise<void>;
}

/** What each part of the suite gets: the current test's store. */
export interface ConformanceContext {
  /** The store of the running test. */
  store(): Store;
}

/** Asserts that `promise` rejects with a KytError of `code`. */
export async function expectKytError(promise: Promise<unknown>, code: ErrorCode): Promise<void> {
  await expect(promise).rejects.toMatchObject({ name: "KytError", code });
}

/** Ids of records, in order. */
export function idsOf(items: ReadonlyArray<{ readonly id: string }>): string[] {
  return items.map((item) => item.id);
}

/** Registers the whole Store conformance suite as a vitest `describe` block. */
export function runStoreConformance(options: StoreConformanceOptions): void {
  describe(`Store conformance: ${options.name}`, () => {
    let current: Store | null = null;
    beforeEach(async () => {
      current = await options.createStore();
    });
    afterEach(async () => {
      const store = current;
      current = null;
      if (store) await (options.destroyStore ?? ((s: Store) => s.close()))(store);
    });
    const context: ConformanceContext = {
      store: () => {
        if (!current) throw new Error("no store: the suite's beforeEach did not run");
        return current;
      },
    };
    transferConformance(context);
    batchConformance(context);
    manualCheckConformance(context);
    riskAlertConformance(context);
    jobConformance(context);
    transactionConformance(context);
    keyModelConformance(context);
    ledgerConformance(context);
    bulkLedgerConformance(context);
    ledgerScanConformance(context);
    utxoConformance(context);
    chainFollowConformance(context);
    rewindConformance(context);
    hubCacheConformance(context);
    clusterConformance(context);
    referenceConformance(context);
    referenceScanConformance(context);
    replayConformance(context);
    propertyConformance(context);
    workflowConformance(context);
    userConformance(context);
    caseworkConformance(context);
    backtestConformance(context);
    operationsConformance(context);
  });
}
