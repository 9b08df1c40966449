/**
 * The transfer graph used for tracing. One call per hop: the tracer asks for every frontier
 * address of a hop at once, and the adapter decides how to batch.
 */
import type { LedgerTransfer, Millis } from "../domain/records.js";

/** One frontier address of a backward hop: transfers into `address` strictly before `before`. */
export interface IncomingQuery {
  readonly address: string;
  readonly before: Millis;
}

/** One frontier address of a forward hop: transfers out of `address` strictly after `after`. */
export interface OutgoingQuery {
  readonly address: string;
  readonly after: Millis;
}

/** Reads the ledger for tracing. Implementations must not mutate their arguments. */
export interface LedgerReader {
  /**
   * Transfers of `tokenId` on `network` into each query's address strictly before its time.
   * For each address at most `limitPerAddress` rows are returned, the latest first; a caller
   * that gets exactly `limitPerAddress` rows for an address must assume there are more.
   */
  ledgerIncoming(
    network: string,
    tokenId: string,
    queries: ReadonlyArray<IncomingQuery>,
    limitPerAddress: number,
  ): Promise<ReadonlyArray<LedgerTransfer>>;
  /** The mirror image: transfers out of each address strictly after its time, earliest first. */
  ledgerOutgoing(
    network: string,
    tokenId: string,
    queries: ReadonlyArray<OutgoingQuery>,
    limitPerAddress: number,
  ): Promise<ReadonlyArray<LedgerTransfer>>;
  /**
   * Optional, for readers that count without reading (an index in memory): per query, in order,
   * how many rows `ledgerIncoming` would return for it without a limit. A tracer asks before
   * reading a hub's rows it could not use: a count at or above what it may read tells it so
   * without presenting them.
   */
  ledgerIncomingCounts?(
    network: string,
    tokenId: string,
    queries: ReadonlyArray<IncomingQuery>,
  ): Promise<ReadonlyArray<number>>;
  /** Optional: the counts of `ledgerOutgoing`'s rows, as `ledgerIncomingCounts`. */
  ledgerOutgoingCounts?(
    network: string,
    tokenId: string,
    queries: ReadonlyArray<OutgoingQuery>,
  ): Promise<ReadonlyArray<number>>;
}
