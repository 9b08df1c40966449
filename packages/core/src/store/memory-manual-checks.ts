/** Manual checks of the in-memory store. */
import { KytError, notFound } from "../errors.js";
import type { ManualCheckStore } from "../ports/store.js";
import { type Journal, setEntry } from "./memory-journal.js";
import { copy, type MemoryTables, newestFirst, pageOf } from "./memory-state.js";

/** The manual check members of the store port. */
export type ManualCheckOps = ManualCheckStore;

/** Creates the manual check members over `tables`, writing through `journal`. */
export function memoryManualCheckOps(tables: MemoryTables, journal: Journal): ManualCheckOps {
  const { manualChecks } = tables;
  return {
    async insertManualCheck(record) {
      if (manualChecks.has(record.id)) throw new KytError("CONFLICT", `manual check ${record.id} exists`);
      setEntry(journal, manualChecks, record.id, copy(record));
    },
    async updateManualCheck(record) {
      if (!manualChecks.has(record.id)) throw notFound("manual check", record.id);
      setEntry(journal, manualChecks, record.id, copy(record));
    },
    async getManualCheck(id) {
      const record = manualChecks.get(id);
      return record ? copy(record) : null;
    },
    async listManualChecks(accountId, page) {
      const matching = [...manualChecks.values()].filter((c) => c.accountId === accountId);
      matching.sort(newestFirst((c) => c.createdAt));
      return pageOf(matching, page);
    },
  };
}
