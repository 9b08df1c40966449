/**
 * The transfer graph used for tracing. One call per hop: the tracer asks for every frontier
 * address of a hop at once, and the adapter decides how to batch.
 */
import type { LedgerTransfer, Millis } from "../domain/records.js";
import type { AddressScreen } from "./reference-sources.js";

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

/**
 * One backward visit of a hub that a reader may answer with a lump (`ledgerIncomingLumped`):
 * the rows into `address` strictly before `prefixBefore` (the window's prefix in ledger order),
 * and those from `prefixBefore` to strictly before `before` (rows of the node's own time, which
 * the order rule filters), for a node of weight `weight` whose children below `floor` are not
 * followed.
 */
export interface LumpQuery {
  readonly address: string;
  readonly prefixBefore: Millis;
  readonly before: Millis;
  readonly weight: number;
  readonly floor: number;
  /**
   * Every visit of `address` in this hop, this one included: its prefix's and its read's ends,
   * and its weight. The children of several visits at one row merge, so their parts add up; a
   * reader leaves a row unpresented only when the parts of all visits together stay below the
   * floor, and never a row another visit reads in its tail.
   */
  readonly visits: ReadonlyArray<{
    readonly prefixBefore: Millis;
    readonly before: Millis;
    readonly weight: number;
  }>;
}

/**
 * A lumped answer to a {@link LumpQuery}. Of the prefix's rows only those are presented whose
 * child could matter one by one: a part that may reach the floor, an address of the screen, a
 * child another row of the ledger could merge with, and the heaviest of the rest (with every
 * row of nearly its amount, so that no unpresented row ties with it). Every unpresented row of
 * the prefix makes an unresolved child lighter than a presented one of the same hop, so it
 * changes nothing of a trace's result but the `undefined` weight it adds, which a result does
 * not report (`ExposureTally.finish`).
 */
export interface LumpedRows {
  /** Rows of the prefix. */
  readonly prefixCount: number;
  /**
   * The sum of the prefix's amounts as `splitNode` adds them: left to right in ledger order,
   * skipping amounts not above 0 and self-transfers (bit for bit).
   */
  readonly prefixSum: number;
  /** The presented rows of the prefix, in ledger order. */
  readonly presented: ReadonlyArray<LedgerTransfer>;
  /** Every row from `prefixBefore` to before `before`, in ledger order. */
  readonly tail: ReadonlyArray<LedgerTransfer>;
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
   * without presenting them. A reader may stop counting at a cap of its own, documented and
   * above the rows a tracer reads at once (the ClickHouse ledger's `countCap`): it then answers
   * min(count, cap), which still tells a tracer whether a hub fits.
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
  /**
   * Optional, for readers that hold rows by amount (an index in memory): per query, in order, a
   * {@link LumpedRows} whose unpresented rows come from no address of `screen`, or null where
   * the reader does not lump (a small address, rows not yet indexed); the tracer then reads
   * that address with `ledgerIncoming`. A hub's thousands of rows below the floor are then
   * counted, not presented.
   */
  ledgerIncomingLumped?(
    network: string,
    tokenId: string,
    queries: ReadonlyArray<LumpQuery>,
    screen: AddressScreen,
  ): Promise<ReadonlyArray<LumpedRows | null>>;
  /**
   * Optional, for readers that join where the rows are (a database): per address, in order, the
   * other rows its senders sent at the times they sent to it. For `address` that is every row
   * `s` of `tokenId` on `network` such that some row `r` into `address` has `r.from === s.from`,
   * `r.from !== address` and `r.occurredAt === s.occurredAt`, and `s.to !== address` (the rows
   * into `address` are not repeated); every time of the ledger, each row once, in no order. A
   * sender that sent nothing else at that time gives no row.
   *
   * A hub cache (`engine/sources/hub-cached-ledger.ts`) needs them to lump a hub's reads
   * exactly (a row whose child another row of its sender shares is presented, hub-cache.ts)
   * and asks for them in one call per hub's first lumped read; without this member it reads
   * them with `ledgerOutgoing`, one query per sender and time.
   */
  ledgerSenderSiblings?(
    network: string,
    tokenId: string,
    addresses: ReadonlyArray<string>,
  ): Promise<ReadonlyArray<ReadonlyArray<LedgerTransfer>>>;
}
