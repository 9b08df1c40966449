/** Reference data of the in-memory store: ledger, attributions, sanctions, tokens, prices. */
import type { LedgerTransfer, SanctionsListing, TokenInfo } from "../domain/records.js";
import { LedgerIndex } from "../exposure/ledger-index.js";
import type { LedgerReader } from "../ports/ledger-reader.js";
import type { LedgerStore, ReferenceStore, SettingsStore } from "../ports/store.js";
import { labelClustered } from "./memory-cluster-labels.js";
import { type Journal, setEntry } from "./memory-journal.js";
import { compareStrings, copy, keyOf, type LedgerSlot, type MemoryTables, pageOf } from "./memory-state.js";

/** The reference data members of the store port (the ledger reader included). */
export type ReferenceOps = LedgerStore & ReferenceStore & SettingsStore & LedgerReader;

/** The ledger index, rebuilt from the kept rows after a rollback dropped it. */
function indexOf(slot: LedgerSlot): LedgerIndex {
  if (slot.index === null) {
    slot.index = new LedgerIndex();
    slot.index.add(slot.rows);
  }
  return slot.index;
}

/** Copies of ledger rows (they are flat). */
function ledgerCopies(rows: ReadonlyArray<LedgerTransfer>): LedgerTransfer[] {
  return rows.map((row) => ({ ...row }));
}

/** True when two listings have the same key (address, listName, listedAt). */
function sameListing(a: SanctionsListing, b: SanctionsListing): boolean {
  return a.address === b.address && a.listName === b.listName && a.listedAt === b.listedAt;
}

/** Creates the reference data members over `tables`, writing through `journal`. */
export function memoryReferenceOps(tables: MemoryTables, journal: Journal): ReferenceOps {
  const { ledger, attributions, sanctions, tokens, prices, settings } = tables;
  return {
    async ledgerIncoming(network, tokenId, queries, limit) {
      return ledgerCopies(indexOf(ledger).incomingSync(network, tokenId, queries, limit));
    },
    async ledgerOutgoing(network, tokenId, queries, limit) {
      return ledgerCopies(indexOf(ledger).outgoingSync(network, tokenId, queries, limit));
    },
    async ledgerIncomingCounts(network, tokenId, queries) {
      return indexOf(ledger).incomingCountsSync(network, tokenId, queries);
    },
    async ledgerOutgoingCounts(network, tokenId, queries) {
      return indexOf(ledger).outgoingCountsSync(network, tokenId, queries);
    },
    async ledgerSenderSiblings(network, tokenId, addresses) {
      const index = indexOf(ledger);
      return addresses.map((a) => ledgerCopies(index.senderSiblingsSync(network, tokenId, a)));
    },
    async putLedgerTransfers(rows) {
      const index = indexOf(ledger);
      const before = ledger.rows.length;
      for (const row of ledgerCopies(rows)) {
        if (index.add([row]) === 1) ledger.rows.push(row);
      }
      const added = ledger.rows.length - before;
      if (added > 0) {
        journal.record(() => {
          ledger.rows.length = before;
          ledger.index = null;
        });
      }
      return added;
    },
    async ledgerByTxHash(network, txHash) {
      return ledgerCopies(indexOf(ledger).byTxHash(network, txHash));
    },
    async ledgerByTxHashes(network, txHashes) {
      const index = indexOf(ledger);
      return [...new Set(txHashes)].flatMap((h) => ledgerCopies(index.byTxHash(network, h)));
    },
    async putAttributions(rows) {
      const written = new Set<string>();
      for (const row of rows) {
        const key = keyOf(row.network, row.address);
        labelClustered(tables, journal, row.network, row.address);
        setEntry(journal, attributions, key, copy(row));
        written.add(key);
      }
      return written.size;
    },
    async getAttributions(network, addresses) {
      const out = [];
      for (const address of new Set(addresses)) {
        const row = attributions.get(keyOf(network, address));
        if (row) out.push(copy(row));
      }
      return out;
    },
    async putSanctions(rows) {
      const written = new Set<string>();
      for (const row of rows) {
        const kept = (sanctions.get(row.address) ?? []).filter((l) => !sameListing(l, row));
        // An unknown designation date is kept as no field at all, as the SQL stores read it back.
        const { designatedAt, ...listing } = row;
        const stored = designatedAt == null ? listing : { ...listing, designatedAt };
        labelClustered(tables, journal, null, row.address);
        setEntry(journal, sanctions, row.address, [...kept, copy(stored)]);
        written.add(keyOf(row.address, row.listName, row.listedAt));
      }
      return written.size;
    },
    async getSanctions(addresses) {
      return [...new Set(addresses)].flatMap((a) => (sanctions.get(a) ?? []).map(copy));
    },
    async listSanctionsOfList(listName) {
      const rows = [...sanctions.values()].flat().filter((l) => l.listName === listName);
      rows.sort(
        (a, b) =>
          compareStrings(a.address, b.address) || (a.listedAt ?? -Infinity) - (b.listedAt ?? -Infinity),
      );
      return rows.map(copy);
    },
    async scanAttributions(after, limit) {
      const all = [...attributions.values()].sort(
        (a, b) => compareStrings(a.network, b.network) || compareStrings(a.address, b.address),
      );
      const from =
        after === null
          ? 0
          : all.findIndex(
              (a) =>
                compareStrings(a.network, after.network) > 0 ||
                (a.network === after.network && compareStrings(a.address, after.address) > 0),
            );
      return from === -1 ? [] : all.slice(from, from + Math.max(0, limit)).map(copy);
    },
    async scanSanctions(after, limit) {
      const order = (a: SanctionsListing, b: SanctionsListing) =>
        compareStrings(a.address, b.address) ||
        compareStrings(a.listName, b.listName) ||
        (a.listedAt ?? Number.MIN_SAFE_INTEGER) - (b.listedAt ?? Number.MIN_SAFE_INTEGER);
      const all = [...sanctions.values()].flat().sort(order);
      const from = after === null ? 0 : all.findIndex((l) => order(l, after) > 0);
      return from === -1 ? [] : all.slice(from, from + Math.max(0, limit)).map(copy);
    },
    async getSetting(key) {
      return settings.get(key) ?? null;
    },
    async putSetting(key, value) {
      setEntry(journal, settings, key, value);
    },
    async putTokens(rows) {
      const written = new Set<string>();
      for (const row of rows) {
        const key = keyOf(row.network, row.tokenId);
        setEntry(journal, tokens, key, copy(row));
        written.add(key);
      }
      return written.size;
    },
    async getToken(network, tokenId) {
      const row = tokens.get(keyOf(network, tokenId));
      return row ? copy(row) : null;
    },
    async listTokens(filter, page) {
      const symbol = filter.symbol?.toLowerCase();
      const matching = [...tokens.values()].filter(
        (t: TokenInfo) =>
          (filter.network === undefined || t.network === filter.network) &&
          (filter.tokenId === undefined || t.tokenId === filter.tokenId) &&
          (symbol === undefined || t.symbol.toLowerCase() === symbol),
      );
      matching.sort((a, b) => compareStrings(a.network, b.network) || compareStrings(a.tokenId, b.tokenId));
      return pageOf(matching, page);
    },
    async putPrices(rows) {
      const written = new Set<string>();
      for (const row of rows) {
        const key = keyOf(row.network, row.tokenId);
        let days = prices.get(key);
        if (!days) {
          days = new Map();
          setEntry(journal, prices, key, days);
        }
        setEntry(journal, days, row.day, row.usd);
        written.add(keyOf(key, row.day));
      }
      return written.size;
    },
    async getPrice(network, tokenId, day) {
      let best: string | null = null;
      for (const candidate of prices.get(keyOf(network, tokenId))?.keys() ?? []) {
        if (candidate <= day && (best === null || candidate > best)) best = candidate;
      }
      return best === null ? null : (prices.get(keyOf(network, tokenId))?.get(best) ?? null);
    },
  };
}
