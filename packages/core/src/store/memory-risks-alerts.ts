/** Risks, alerts and alert history of the in-memory store. */
import type { AlertOrder } from "../domain/casework.js";
import { riskRank } from "../domain/enums.js";
import type { AlertRecord, RiskRecord, TransferRecord } from "../domain/records.js";
import { KytError, notFound } from "../errors.js";
import type { AlertFilter, AlertStore, RiskStore } from "../ports/store.js";
import { assertReplacements } from "../ports/store-contract.js";
import { type Journal, setEntry } from "./memory-journal.js";
import {
  compareStrings,
  copy,
  keyOf,
  type MemoryTables,
  newestFirst,
  oldestFirst,
  pageOf,
  withinBounds,
} from "./memory-state.js";

/** The risk and alert members of the store port. */
export type RiskAlertOps = RiskStore & AlertStore;

/** Highest level first, then createdAt and id ascending (the order of `listRisks`). */
export function compareRisks(a: RiskRecord, b: RiskRecord): number {
  return (
    riskRank(b.riskLevel) - riskRank(a.riskLevel) || a.createdAt - b.createdAt || compareStrings(a.id, b.id)
  );
}

/** The alert search: id, transfer id or client id exactly, or a part of the hash or an address. */
function matchesSearch(a: AlertRecord, t: TransferRecord | undefined, search: string): boolean {
  const q = search.toLowerCase();
  if (a.id.toLowerCase() === q) return true;
  if (!t) return false;
  const exact = [t.id, t.clientId].some((v) => v !== null && v.toLowerCase() === q);
  const part = [t.txHash, t.inputAddress, t.outputAddress].some((v) => v?.toLowerCase().includes(q) === true);
  return exact || part;
}

/** Compares two alerts in the order asked for; ties newest first, then by id descending. */
export function alertOrder(order: AlertOrder = "newest") {
  const newest = newestFirst<AlertRecord>((a) => a.createdAt);
  return (a: AlertRecord, b: AlertRecord): number => {
    if (order === "oldest") return -newest(a, b);
    if (order === "level") return riskRank(b.riskLevel) - riskRank(a.riskLevel) || newest(a, b);
    if (order === "value") return (b.valueInFiat ?? -1) - (a.valueInFiat ?? -1) || newest(a, b);
    return newest(a, b);
  };
}

/** True when an alert (and its transfer, for the transfer filters) passes every filter given. */
export function matchesAlertFilter(a: AlertRecord, t: TransferRecord | undefined, f: AlertFilter): boolean {
  const needsTransfer =
    f.clientId !== undefined ||
    f.network !== undefined ||
    f.tokenId !== undefined ||
    f.tokenSymbol !== undefined;
  if (needsTransfer) {
    if (!t) return false;
    if (f.clientId !== undefined && t.clientId !== f.clientId) return false;
    if (f.network !== undefined && t.network !== f.network) return false;
    if (f.tokenId !== undefined && t.tokenId !== f.tokenId) return false;
    if (f.tokenSymbol !== undefined && t.tokenSymbol?.toLowerCase() !== f.tokenSymbol.toLowerCase())
      return false;
  }
  if (f.search !== undefined && !matchesSearch(a, t, f.search)) return false;
  if (f.assignee !== undefined && a.assignee !== f.assignee) return false;
  if (f.active === true && a.alertStatus === "done") return false;
  if (f.overdue !== undefined) {
    const cutoff = f.overdue[a.riskLevel];
    if (cutoff === undefined || a.createdAt >= cutoff) return false;
  }
  return (
    (f.riskType === undefined || a.riskType === f.riskType) &&
    (f.riskLevel === undefined || a.riskLevel === f.riskLevel) &&
    (f.alertStatus === undefined || a.alertStatus === f.alertStatus) &&
    withinBounds(a.createdAt, f.createdFrom, f.createdTo) &&
    withinBounds(a.riskOccurredAt, f.occurredFrom, f.occurredTo) &&
    (f.entityCategory === undefined || a.entityCategory === f.entityCategory) &&
    (f.proximity === undefined || a.proximity === f.proximity)
  );
}

/** Creates the risk and alert members over `tables`, writing through `journal`. */
export function memoryRiskAlertOps(tables: MemoryTables, journal: Journal): RiskAlertOps {
  const { risks, alerts, alertDedupe, alertHistory, transfers } = tables;
  const ops: RiskAlertOps = {
    async replaceRisks(subjectType, subjectId, checkKinds, replacement) {
      await ops.replaceRisksOfSubjects(subjectType, [{ subjectId, checkKinds, risks: replacement }]);
    },
    async replaceRisksOfSubjects(subjectType, replacements) {
      assertReplacements(replacements);
      for (const { subjectId, checkKinds, risks: replacement } of replacements) {
        const key = keyOf(subjectType, subjectId);
        const kept = (risks.get(key) ?? []).filter((r) => !checkKinds.includes(r.checkKind));
        setEntry(journal, risks, key, [...kept, ...replacement.map(copy)]);
      }
    },
    async listRisks(subjectType, subjectId) {
      return [...(risks.get(keyOf(subjectType, subjectId)) ?? [])].sort(compareRisks).map(copy);
    },
    async insertAlert(record) {
      const dedupe = keyOf(record.transferId, record.dedupeKey);
      // A taken id is refused the same way (the SQL stores insert with ON CONFLICT DO NOTHING).
      if (alertDedupe.has(dedupe) || alerts.has(record.id)) return false;
      setEntry(journal, alertDedupe, dedupe, record.id);
      setEntry(journal, alerts, record.id, copy(record));
      return true;
    },
    async updateAlert(record) {
      if (!alerts.has(record.id)) throw notFound("alert", record.id);
      setEntry(journal, alerts, record.id, copy(record));
    },
    async getAlert(id) {
      const record = alerts.get(id);
      return record ? copy(record) : null;
    },
    async listAlerts(accountId, filter, page) {
      const matching = [...alerts.values()].filter(
        (a) => a.accountId === accountId && matchesAlertFilter(a, transfers.get(a.transferId), filter),
      );
      matching.sort(alertOrder(filter.order));
      return pageOf(matching, page);
    },
    async listAlertsOfTransfer(transferId) {
      const matching = [...alerts.values()].filter((a) => a.transferId === transferId);
      return matching.sort(oldestFirst((a) => a.createdAt)).map(copy);
    },
    async appendAlertHistory(entry) {
      setEntry(journal, alertHistory, entry.alertId, [
        ...(alertHistory.get(entry.alertId) ?? []),
        copy(entry),
      ]);
    },
    async appendFirstAlertHistory(entries) {
      const ids = entries.map((entry) => entry.alertId);
      const taken = ids.find((id, i) => ids.indexOf(id) !== i || (alertHistory.get(id)?.length ?? 0) > 0);
      if (taken !== undefined) throw new KytError("CONFLICT", `alert ${taken} has a first history entry`);
      for (const entry of entries) setEntry(journal, alertHistory, entry.alertId, [copy(entry)]);
    },
    async listAlertHistory(alertId) {
      const entries = alertHistory.get(alertId) ?? [];
      // Oldest first; entries of the same instant keep the order they were appended in.
      return entries
        .map((entry, position) => ({ entry, position }))
        .sort((x, y) => x.entry.at - y.entry.at || x.position - y.position)
        .map((x) => copy(x.entry));
    },
  };
  return ops;
}
