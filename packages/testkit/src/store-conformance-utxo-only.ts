/**
 * The UTXO ledger part of the Store conformance suite alone, for a UTXO ledger kept apart from
 * the screening state: a store whose UTXO members go to another engine (ClickHouse) must give
 * the same answers as SQLite and Postgres on the same transactions. Such a ledger's writes are
 * not undone by the store's rollback, so the rollback checks are left out.
 */
import type { Store } from "@openkyt/core";
import { afterEach, beforeEach, describe } from "vitest";
import type { ConformanceContext, StoreConformanceOptions } from "./store-conformance.js";
import { utxoConformance } from "./store-conformance-utxo.js";

/** Registers the UTXO ledger section of the Store conformance suite as a vitest `describe` block. */
export function runUtxoLedgerConformance(options: StoreConformanceOptions): void {
  describe(`UTXO ledger conformance: ${options.name}`, () => {
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
    utxoConformance(context, { rollback: false });
  });
}
