/**
 * The ledger part of the Store conformance suite alone (the ledger, bulk ledger and hub cache sections), for
 * a ledger kept apart from the screening state: a store whose ledger members go to another
 * engine (ClickHouse) must give the same answers as SQLite and Postgres on the same rows.
 */
import type { Store } from "@openkyt/core";
import { afterEach, beforeEach, describe } from "vitest";
import type { ConformanceContext, StoreConformanceOptions } from "./store-conformance.js";
import { bulkLedgerConformance } from "./store-conformance-bulk-ledger.js";
import { hubCacheConformance } from "./store-conformance-hub-cache.js";
import { ledgerConformance } from "./store-conformance-ledger.js";

/** Registers the ledger sections of the Store conformance suite as a vitest `describe` block. */
export function runLedgerConformance(options: StoreConformanceOptions): void {
  describe(`Ledger conformance: ${options.name}`, () => {
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
    ledgerConformance(context);
    bulkLedgerConformance(context);
    hubCacheConformance(context);
  });
}
