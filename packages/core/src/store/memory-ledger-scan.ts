/** The memory store's ledger in stored order: a row's position is its place in the insertion list, from 1. */
import type { LedgerScan } from "../ports/store.js";
import type { Mutex } from "./memory-mutex.js";
import type { MemoryTables } from "./memory-state.js";

/** `scanLedger` over `tables`, run under `mutex` like every other member. */
export function memoryLedgerScan(
  tables: MemoryTables,
  mutex: Mutex,
): (after: number, limit: number) => Promise<LedgerScan> {
  return (after, limit) =>
    mutex.run(async () => {
      const from = Math.max(0, Math.floor(after));
      const rows = tables.ledger.rows.slice(from, from + Math.max(0, Math.floor(limit)));
      return { rows: rows.map((row) => ({ ...row })), last: from + rows.length };
    });
}
