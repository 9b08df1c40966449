/** The rewinds of the in-memory store (`Store.scanRewinds`): a list, numbered from 1. */
import type { LedgerRewind } from "../ports/store-chain-follow.js";
import type { Journal } from "./memory-journal.js";
import type { Mutex } from "./memory-mutex.js";
import type { MemoryTables } from "./memory-state.js";

/** Appends a rewind (numbered next), undone with the transaction that wrote it. */
export function recordRewind(tables: MemoryTables, journal: Journal, rewind: Omit<LedgerRewind, "id">): void {
  const { rewinds } = tables;
  rewinds.push({ id: rewinds.length + 1, ...rewind });
  journal.record(() => {
    rewinds.pop();
  });
}

/** `scanRewinds` over `tables`, run under `mutex` like every other member. */
export function memoryRewindScan(
  tables: MemoryTables,
  mutex: Mutex,
): (after: number, limit: number) => Promise<ReadonlyArray<LedgerRewind>> {
  return (after, limit) =>
    mutex.run(async () => {
      const from = Math.max(0, Math.floor(after));
      return tables.rewinds.slice(from, from + Math.max(0, Math.floor(limit))).map((r) => ({ ...r }));
    });
}
