/** Transfers of the in-memory store. */
import type { TransferRecord } from "../domain/records.js";
import { transferIdentityKey } from "../domain/transfer-identity.js";
import { KytError, notFound } from "../errors.js";
import type { TransferFilter, TransferIdentity, TransferStore } from "../ports/store.js";
import { deleteEntry, type Journal, setEntry } from "./memory-journal.js";
import { copy, type MemoryTables, newestFirst, pageOf, withinBounds } from "./memory-state.js";

/** The transfer members of the store port. */
export type TransferOps = TransferStore;

/** Case-insensitive equality of an optional text field. */
function sameText(value: string | null, wanted: string): boolean {
  return value !== null && value.toLowerCase() === wanted.toLowerCase();
}

/** True when a transfer passes every filter given. */
export function matchesTransferFilter(t: TransferRecord, f: TransferFilter): boolean {
  return (
    (f.clientId === undefined || t.clientId === f.clientId) &&
    (f.direction === undefined || t.direction === f.direction) &&
    (f.network === undefined || t.network === f.network) &&
    (f.tokenId === undefined || t.tokenId === f.tokenId) &&
    (f.tokenSymbol === undefined || sameText(t.tokenSymbol, f.tokenSymbol)) &&
    (f.txHash === undefined || t.txHash === f.txHash) &&
    (f.inputAddress === undefined || t.inputAddress === f.inputAddress) &&
    (f.outputAddress === undefined || t.outputAddress === f.outputAddress) &&
    withinBounds(t.registeredAt, f.registeredFrom, f.registeredTo) &&
    withinBounds(t.occurredAt, f.occurredFrom, f.occurredTo) &&
    (f.riskLevel === undefined || t.riskLevel === f.riskLevel) &&
    (f.txStatus === undefined || t.txStatus === f.txStatus) &&
    (f.counterpartyName === undefined || t.counterpartyName === f.counterpartyName) &&
    (f.counterpartyCategory === undefined || t.counterpartyCategory === f.counterpartyCategory)
  );
}

/** Creates the transfer members over `tables`, writing through `journal`. */
export function memoryTransferOps(tables: MemoryTables, journal: Journal): TransferOps {
  const { transfers, transferIdentities } = tables;

  /** Refuses a record whose identity belongs to another transfer (before anything is written). */
  const checkIdentity = (record: TransferRecord): void => {
    const key = transferIdentityKey(record);
    const owner = key === null ? undefined : transferIdentities.get(key);
    if (owner !== undefined && owner !== record.id) {
      throw new KytError("CONFLICT", `a transfer with this identity exists: ${owner}`);
    }
  };

  const write = (record: TransferRecord): void => {
    const key = transferIdentityKey(record);
    if (key !== null) setEntry(journal, transferIdentities, key, record.id);
    setEntry(journal, transfers, record.id, copy(record));
  };

  /** Refuses the whole batch before anything is written: a taken id or identity, or one named twice. */
  const checkNew = (records: ReadonlyArray<TransferRecord>): void => {
    const ids = new Set<string>();
    const keys = new Set<string>();
    for (const record of records) {
      if (transfers.has(record.id) || ids.has(record.id))
        throw new KytError("CONFLICT", `transfer ${record.id} exists`);
      checkIdentity(record);
      const key = transferIdentityKey(record);
      if (key !== null && keys.has(key))
        throw new KytError("CONFLICT", `two transfers of the batch have the identity of ${record.id}`);
      ids.add(record.id);
      if (key !== null) keys.add(key);
    }
  };

  const replace = (record: TransferRecord, previous: TransferRecord): void => {
    const oldKey = transferIdentityKey(previous);
    if (oldKey !== null && oldKey !== transferIdentityKey(record))
      deleteEntry(journal, transferIdentities, oldKey);
    write(record);
  };

  const ops: TransferOps = {
    async insertTransfer(record) {
      await ops.insertTransfers([record]);
    },
    async insertTransfers(records) {
      checkNew(records);
      for (const record of records) write(record);
    },
    async updateTransfer(record) {
      await ops.updateTransfers([record]);
    },
    async updateTransfers(records) {
      const previous = records.map((record) => {
        const stored = transfers.get(record.id);
        if (!stored) throw notFound("transfer", record.id);
        checkIdentity(record);
        return stored;
      });
      for (const [i, record] of records.entries()) replace(record, previous[i] as TransferRecord);
    },
    async getTransfer(id) {
      const record = transfers.get(id);
      return record ? copy(record) : null;
    },
    async getTransferSummary(id) {
      const record = transfers.get(id);
      if (!record) return null;
      const { exposure: _e, counterparty: _c, sanctions: _s, ...summary } = record;
      return copy(summary);
    },
    async getTransfers(ids) {
      const out: TransferRecord[] = [];
      for (const id of new Set(ids)) {
        const record = transfers.get(id);
        if (record) out.push(copy(record));
      }
      return out;
    },
    async findTransfer(identity: TransferIdentity) {
      return (await ops.findTransfers([identity]))[0] ?? null;
    },
    async findTransfers(identities) {
      const out = new Map<string, TransferRecord>();
      for (const identity of identities) {
        const id = transferIdentities.get(transferIdentityKey(identity) as string);
        const record = id === undefined ? undefined : transfers.get(id);
        if (record) out.set(record.id, copy(record));
      }
      return [...out.values()];
    },
    async listTransfers(accountId, filter, page) {
      const matching = [...transfers.values()].filter(
        (t) => t.accountId === accountId && matchesTransferFilter(t, filter),
      );
      matching.sort(newestFirst((t) => t.registeredAt));
      return pageOf(matching, page);
    },
  };
  return ops;
}
