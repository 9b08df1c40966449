/**
 * The transfer-row and risk writes of one transaction. A single job writes at once
 * ({@link directWrites}); a batch gathers them ({@link batchWrites}) and sends each kind as one
 * multi-row statement when its transaction ends: the batch's transfers are read with one
 * statement at its start, each transfer row is written once per pass, the risks of every
 * subject are replaced together, and the new alerts' first history entries are written
 * together. Reads through the same object see what it has written.
 */
import type { CheckKind } from "../../domain/enums.js";
import type { AlertHistoryRecord, RiskRecord, TransferRecord } from "../../domain/records.js";
import type { StoreOps } from "../../ports/store.js";

/** Where a check pass reads its transfer and writes the transfer row and its risks. */
export interface TransferWrites {
  /** The transfer as this transaction last wrote it, else as stored. */
  transfer(id: string): Promise<TransferRecord | null>;
  /** Writes a whole transfer row (by id). */
  updateTransfer(record: TransferRecord): Promise<void>;
  /** Replaces the transfer's risks of `kinds` (see `Store.replaceRisks`). */
  replaceRisks(id: string, kinds: ReadonlyArray<CheckKind>, risks: ReadonlyArray<RiskRecord>): Promise<void>;
  /** Every risk of the transfer, as this transaction left them (in no particular order). */
  risks(id: string): Promise<ReadonlyArray<RiskRecord>>;
  /** Writes the first history entry of an alert this transaction inserted (see `Store.appendFirstAlertHistory`). */
  alertOpened(entry: AlertHistoryRecord): Promise<void>;
}

/** Writes that go to `tx` at once. */
export function directWrites(tx: StoreOps): TransferWrites {
  return {
    transfer: (id) => tx.getTransfer(id),
    updateTransfer: (record) => tx.updateTransfer(record),
    replaceRisks: (id, kinds, risks) => tx.replaceRisks("transfer", id, kinds, risks),
    risks: (id) => tx.listRisks("transfer", id),
    alertOpened: (entry) => tx.appendFirstAlertHistory([entry]),
  };
}

/** Gathered writes, sent by `flush()`. */
export interface BatchWrites extends TransferWrites {
  /**
   * Sends the gathered transfer rows, risk replacements and new alerts' first history entries,
   * a multi-row statement per kind.
   */
  flush(): Promise<void>;
}

/** A risk replacement waiting for `flush`. */
interface PendingRisks {
  readonly kinds: ReadonlyArray<CheckKind>;
  readonly risks: ReadonlyArray<RiskRecord>;
}

/** Writes gathered for `tx`, over the transfers `ids` read now with one statement. */
export async function batchWrites(tx: StoreOps, ids: ReadonlyArray<string>): Promise<BatchWrites> {
  const current = new Map<string, TransferRecord | null>();
  for (const t of await tx.getTransfers(ids)) current.set(t.id, t);
  const rows = new Map<string, TransferRecord>();
  const replaced = new Map<string, PendingRisks>();
  const opened: AlertHistoryRecord[] = [];
  return {
    async transfer(id) {
      if (!current.has(id)) current.set(id, await tx.getTransfer(id));
      return current.get(id) ?? null;
    },
    async updateTransfer(record) {
      current.set(record.id, record);
      rows.set(record.id, record);
    },
    async replaceRisks(id, kinds, risks) {
      const earlier = replaced.get(id);
      // A second pass over the same transfer in one batch: its kinds win, the earlier pass's others stay.
      replaced.set(
        id,
        earlier
          ? {
              kinds: [...new Set([...earlier.kinds, ...kinds])],
              risks: [...earlier.risks.filter((r) => !kinds.includes(r.checkKind)), ...risks],
            }
          : { kinds, risks },
      );
    },
    async risks(id) {
      const stored = await tx.listRisks("transfer", id);
      const pending = replaced.get(id);
      if (!pending) return stored;
      return [...stored.filter((r) => !pending.kinds.includes(r.checkKind)), ...pending.risks];
    },
    async alertOpened(entry) {
      opened.push(entry);
    },
    async flush() {
      if (replaced.size > 0) {
        await tx.replaceRisksOfSubjects(
          "transfer",
          [...replaced].map(([subjectId, p]) => ({ subjectId, checkKinds: p.kinds, risks: p.risks })),
        );
      }
      if (rows.size > 0) await tx.updateTransfers([...rows.values()]);
      // The alerts themselves were inserted one by one (each insert answers whether it was new).
      if (opened.length > 0) await tx.appendFirstAlertHistory(opened);
      replaced.clear();
      rows.clear();
      opened.length = 0;
    },
  };
}
