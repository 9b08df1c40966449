/** Backtests of the in-memory store: the transfer scan and the backtest records. */
import {
  type BacktestStoreOps,
  SCREENED_TRANSFER_FIELDS,
  type ScreenedTransfer,
} from "../ports/store-backtests.js";
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
      const rows = matching.slice(0, size).map((t) => {
        const picked: Record<string, unknown> = {};
        for (const field of SCREENED_TRANSFER_FIELDS) picked[field] = t[field];
        return copy(picked as unknown as ScreenedTransfer);
      });
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
  };
}
