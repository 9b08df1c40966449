/** Backtests of the in-memory store: the transfer scan and the backtest records. */
import { CHECK_KINDS } from "../domain/enums.js";
import type { TransferRecord } from "../domain/records.js";
import type { BacktestStoreOps, ScreenedTransfer } from "../ports/store-backtests.js";
import { type Journal, setEntry } from "./memory-journal.js";
import { compareStrings, copy, type MemoryTables } from "./memory-state.js";
import { matchesTransferFilter } from "./memory-transfers.js";

/** Creates the backtest members over `tables`, writing through `journal`. */
export function memoryBacktestOps(tables: MemoryTables, journal: Journal): BacktestStoreOps {
  const { transfers, backtests } = tables;
  return {
    async scanTransfers(accountId, filter, after, limit) {
      const size = Math.max(1, Math.floor(limit));
      const matching = [...transfers.values()].filter(
        (t) =>
          t.accountId === accountId &&
          matchesTransferFilter(t, filter) &&
          (after === null ||
            t.registeredAt > after.registeredAt ||
            (t.registeredAt === after.registeredAt && compareStrings(t.id, after.id) > 0)),
      );
      matching.sort((a, b) => a.registeredAt - b.registeredAt || compareStrings(a.id, b.id));
      const rows = matching.slice(0, size).map(screenedOf);
      const last = rows[rows.length - 1];
      const next = rows.length === size && last ? { registeredAt: last.registeredAt, id: last.id } : null;
      return { rows, next };
    },
    async putBacktest(record) {
      setEntry(journal, backtests, record.id, copy(record));
    },
    async getBacktest(accountId, id) {
      const found = backtests.get(id);
      return found && found.accountId === accountId ? copy(found) : null;
    },
    async countPendingBacktests(accountId) {
      let count = 0;
      for (const b of backtests.values()) {
        if (b.accountId === accountId && (b.status === "queued" || b.status === "running")) count += 1;
      }
      return count;
    },
  };
}

/** What a scan reads of `t`: a copy of its screening fields and results. */
function screenedOf(t: TransferRecord): ScreenedTransfer {
  return copy({
    id: t.id,
    registeredAt: t.registeredAt,
    direction: t.direction,
    txStatus: t.txStatus,
    valueInFiat: t.valueInFiat,
    riskLevel: t.riskLevel,
    riskModelVersion: t.riskModelVersion,
    anyChecked: CHECK_KINDS.some((kind) => t.checks[kind].state === "checked"),
    exposure: t.exposure,
    counterparty: t.counterparty,
    sanctions: t.sanctions,
  });
}
