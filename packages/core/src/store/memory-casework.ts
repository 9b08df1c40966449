/** Decisions, the audit log, SLA policies, saved views and user roles of the in-memory store. */
import { KytError } from "../errors.js";
import type { CaseworkStoreOps } from "../ports/store-casework.js";
import { deleteEntry, type Journal, setEntry } from "./memory-journal.js";
import {
  compareStrings,
  copy,
  type MemoryTables,
  newestFirst,
  oldestFirst,
  pageOf,
  withinBounds,
} from "./memory-state.js";

/** Creates the casework members over `tables`, writing through `journal`. */
export function memoryCaseworkOps(tables: MemoryTables, journal: Journal): CaseworkStoreOps {
  const { decisions, auditEvents, slaPolicies, savedViews, users } = tables;
  return {
    async insertDecision(record) {
      if (decisions.has(record.id)) throw new KytError("CONFLICT", `decision ${record.id} exists`);
      setEntry(journal, decisions, record.id, copy(record));
    },
    async listDecisionsOfTransfer(transferId) {
      const of = [...decisions.values()].filter((d) => d.transferId === transferId);
      return of.sort(oldestFirst((d) => d.decidedAt)).map(copy);
    },
    async appendAuditEvent(record) {
      if (auditEvents.has(record.id)) throw new KytError("CONFLICT", `audit entry ${record.id} exists`);
      setEntry(journal, auditEvents, record.id, copy(record));
    },
    async listAuditEvents(accountId, f, page) {
      const matching = [...auditEvents.values()].filter(
        (e) =>
          e.accountId === accountId &&
          (f.action === undefined || e.action === f.action) &&
          (f.actor === undefined || e.actor === f.actor) &&
          (f.subject === undefined || e.subject === f.subject) &&
          withinBounds(e.at, f.from, f.to),
      );
      return pageOf(matching.sort(newestFirst((e) => e.at)), page);
    },
    async getSlaPolicy(accountId) {
      const found = slaPolicies.get(accountId);
      return found ? copy(found) : null;
    },
    async putSlaPolicy(record) {
      setEntry(journal, slaPolicies, record.accountId, copy(record));
    },
    async putSavedView(record) {
      if (savedViews.has(record.id)) throw new KytError("CONFLICT", `saved view ${record.id} exists`);
      for (const v of savedViews.values()) {
        if (v.userId === record.userId && v.name === record.name)
          throw new KytError("CONFLICT", `a saved view named ${JSON.stringify(record.name)} exists`);
      }
      setEntry(journal, savedViews, record.id, copy(record));
    },
    async listSavedViews(userId) {
      const of = [...savedViews.values()].filter((v) => v.userId === userId);
      return of.sort((a, b) => compareStrings(a.name, b.name) || compareStrings(a.id, b.id)).map(copy);
    },
    async listSharedViews(accountId) {
      const of = [...savedViews.values()].filter((v) => v.accountId === accountId && v.shared);
      return of.sort((a, b) => compareStrings(a.name, b.name) || compareStrings(a.id, b.id)).map(copy);
    },
    async getSavedView(id) {
      const found = savedViews.get(id);
      return found ? copy(found) : null;
    },
    async setSavedViewShared(userId, id, shared) {
      const found = savedViews.get(id);
      if (!found || found.userId !== userId) return false;
      setEntry(journal, savedViews, id, { ...found, shared });
      return true;
    },
    async deleteSavedView(userId, id) {
      const found = savedViews.get(id);
      if (!found || found.userId !== userId) return false;
      deleteEntry(journal, savedViews, id);
      return true;
    },
    async setUserRole(id, role) {
      const found = users.get(id);
      if (!found) return false;
      setEntry(journal, users, id, { ...found, role });
      return true;
    },
  };
}
