/**
 * An in-memory index of ledger transfers that serves the `LedgerReader` port: per
 * (network, token, address) the incoming and the outgoing transfers sorted by time, so a read
 * is a binary search. Used by the in-memory store and as the warm cache of the benchmarks.
 */
import type { LedgerTransfer, Millis } from "../domain/records.js";
import type { IncomingQuery, LedgerReader, OutgoingQuery } from "../ports/ledger-reader.js";

const SEP = "\u0000";

/** A list of transfers of one address kept sorted by (occurredAt, txHash, logIndex) on demand. */
interface SortedRows {
  rows: LedgerTransfer[];
  sorted: boolean;
}

/** Total order of ledger rows: time, then transaction hash, then log index. */
export function compareLedgerTransfers(a: LedgerTransfer, b: LedgerTransfer): number {
  if (a.occurredAt !== b.occurredAt) return a.occurredAt - b.occurredAt;
  if (a.txHash !== b.txHash) return a.txHash < b.txHash ? -1 : 1;
  return a.logIndex - b.logIndex;
}

/** First index whose time is >= `at` (strict = false) or > `at` (strict = true). */
function searchTime(rows: ReadonlyArray<LedgerTransfer>, at: Millis, strict: boolean): number {
  let lo = 0;
  let hi = rows.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    const t = rows[mid]!.occurredAt;
    if (t < at || (strict && t === at)) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * In-memory `LedgerReader`. Rows are never mutated: each is kept as a copy of the row given
 * whose network, token and address strings are shared with every other row naming them (an
 * address recurs in many rows; one string each saves about a third of the index's memory).
 * Adding is O(1) per row and an address's list is sorted once, lazily, on its first read after
 * a change.
 */
export class LedgerIndex implements LedgerReader {
  #size = 0;
  /**
   * Per network and token (`network SEP tokenId`), per address: its rows. Two levels, so that a
   * read looks an address up by the held string itself (its hash is kept by the engine) rather
   * than by a key concatenated, and hashed afresh, per query.
   */
  readonly #incoming = new Map<string, Map<string, SortedRows>>();
  readonly #outgoing = new Map<string, Map<string, SortedRows>>();
  /** Per network, per transaction hash: its one row, or its rows when it has several. */
  readonly #byTx = new Map<string, Map<string, LedgerTransfer | LedgerTransfer[]>>();
  /** One copy of each network, token id and address string held. */
  readonly #strings = new Map<string, string>();

  #shared(text: string): string {
    const held = this.#strings.get(text);
    if (held !== undefined) return held;
    this.#strings.set(text, text);
    return text;
  }

  /** Adds rows; duplicates by (network, txHash, logIndex) are ignored. Returns how many were new. */
  add(rows: ReadonlyArray<LedgerTransfer>): number {
    let added = 0;
    for (const given of rows) {
      const network = this.#shared(given.network);
      let txs = this.#byTx.get(network);
      if (!txs) {
        txs = new Map();
        this.#byTx.set(network, txs);
      }
      const tx = txs.get(given.txHash);
      if (tx !== undefined && (Array.isArray(tx) ? tx : [tx]).some((r) => r.logIndex === given.logIndex))
        continue;
      const row: LedgerTransfer = {
        ...given,
        network,
        tokenId: this.#shared(given.tokenId),
        from: this.#shared(given.from),
        to: this.#shared(given.to),
      };
      if (tx === undefined) txs.set(row.txHash, row);
      else if (Array.isArray(tx)) tx.push(row);
      else txs.set(row.txHash, [tx, row]);
      added++;
      const tokenKey = network + SEP + row.tokenId;
      push(byToken(this.#incoming, tokenKey), row.to, row);
      push(byToken(this.#outgoing, tokenKey), row.from, row);
    }
    this.#size += added;
    return added;
  }

  /** The transfers of one transaction, by log index (empty when unknown). */
  byTxHash(network: string, txHash: string): LedgerTransfer[] {
    const tx = this.#byTx.get(network)?.get(txHash);
    if (tx === undefined) return [];
    return Array.isArray(tx) ? [...tx].sort((a, b) => a.logIndex - b.logIndex) : [tx];
  }

  /** Number of distinct transfers held. */
  get size(): number {
    return this.#size;
  }

  /** Synchronous form of `ledgerIncoming`: per address the latest rows strictly before its time. */
  incomingSync(
    network: string,
    tokenId: string,
    queries: ReadonlyArray<IncomingQuery>,
    limitPerAddress: number,
  ): LedgerTransfer[] {
    const out: LedgerTransfer[] = [];
    const addresses = this.#incoming.get(network + SEP + tokenId);
    if (!addresses) return out;
    for (const q of queries) {
      const rows = sortedRows(addresses, q.address);
      if (!rows) continue;
      const end = searchTime(rows, q.before, false);
      const start = Math.max(0, end - limitPerAddress);
      for (let i = end - 1; i >= start; i--) out.push(rows[i]!);
    }
    return out;
  }

  /** Synchronous form of `ledgerOutgoing`: per address the earliest rows strictly after its time. */
  outgoingSync(
    network: string,
    tokenId: string,
    queries: ReadonlyArray<OutgoingQuery>,
    limitPerAddress: number,
  ): LedgerTransfer[] {
    const out: LedgerTransfer[] = [];
    const addresses = this.#outgoing.get(network + SEP + tokenId);
    if (!addresses) return out;
    for (const q of queries) {
      const rows = sortedRows(addresses, q.address);
      if (!rows) continue;
      const start = searchTime(rows, q.after, true);
      const end = Math.min(rows.length, start + limitPerAddress);
      for (let i = start; i < end; i++) out.push(rows[i]!);
    }
    return out;
  }

  /** See `LedgerReader.ledgerIncoming`. */
  ledgerIncoming(
    network: string,
    tokenId: string,
    queries: ReadonlyArray<IncomingQuery>,
    limitPerAddress: number,
  ): Promise<ReadonlyArray<LedgerTransfer>> {
    return Promise.resolve(this.incomingSync(network, tokenId, queries, limitPerAddress));
  }

  /** See `LedgerReader.ledgerOutgoing`. */
  ledgerOutgoing(
    network: string,
    tokenId: string,
    queries: ReadonlyArray<OutgoingQuery>,
    limitPerAddress: number,
  ): Promise<ReadonlyArray<LedgerTransfer>> {
    return Promise.resolve(this.outgoingSync(network, tokenId, queries, limitPerAddress));
  }
}

/** The addresses of one network and token, created on first use. */
function byToken(map: Map<string, Map<string, SortedRows>>, tokenKey: string): Map<string, SortedRows> {
  let addresses = map.get(tokenKey);
  if (!addresses) {
    addresses = new Map();
    map.set(tokenKey, addresses);
  }
  return addresses;
}

function push(map: Map<string, SortedRows>, key: string, row: LedgerTransfer): void {
  const entry = map.get(key);
  if (!entry) {
    map.set(key, { rows: [row], sorted: true });
    return;
  }
  const last = entry.rows[entry.rows.length - 1];
  if (entry.sorted && last && compareLedgerTransfers(last, row) > 0) entry.sorted = false;
  entry.rows.push(row);
}

function sortedRows(map: Map<string, SortedRows>, key: string): ReadonlyArray<LedgerTransfer> | undefined {
  const entry = map.get(key);
  if (!entry) return undefined;
  if (!entry.sorted) {
    entry.rows.sort(compareLedgerTransfers);
    entry.sorted = true;
  }
  return entry.rows;
}
