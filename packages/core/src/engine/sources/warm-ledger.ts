/**
 * A warm copy of the store's ledger: every ledger transfer in an in-memory {@link LedgerIndex},
 * kept up to date by reading the rows stored since the last read (`Store.scanLedger`). Tracing
 * over it is a binary search per address instead of a SQL statement per hop (on a 1M-transfer
 * ledger: a 5-hop trace in about 0.05 ms instead of 0.4 ms, for about 0.5 GB of memory; see
 * docs/deployment.md).
 *
 * Freshness: a read that comes more than `maxLagMs` after the last catch-up first reads what
 * was stored since (one indexed statement, usually returning nothing), so a row stored by any
 * process is traced at most `maxLagMs` later. Rows a chain follower removed after a
 * reorganisation (in any process) leave the copy as late, through the store's rewind log
 * (`Store.scanRewinds`, see `warm-catch-up.ts`). The chain source it offers finds hashes in the
 * copy and asks the store for the ones it has not seen yet.
 */
import type { LedgerTransfer } from "../../domain/records.js";
import { KytError } from "../../errors.js";
import { LedgerIndex } from "../../exposure/ledger-index.js";
import type { ChainSource } from "../../ports/chain-source.js";
import type { IncomingQuery, LedgerReader, LumpQuery, OutgoingQuery } from "../../ports/ledger-reader.js";
import type { AddressScreen } from "../../ports/reference-sources.js";
import type { Clock } from "../../ports/runtime.js";
import type { Store } from "../../ports/store.js";
import { utxoLedgerLookup } from "./store-sources.js";
import { warmCatchUp } from "./warm-catch-up.js";

/** Options of {@link createWarmLedger}. */
export interface WarmLedgerOptions {
  /** How old the copy may be when read, in ms (default 1,000; 0 reads the new rows before every read). */
  readonly maxLagMs?: number;
  /**
   * Rows per statement while loading and catching up (default 5,000: larger pages load no faster
   * and leave the heap holding their garbage; see docs/deployment.md).
   */
  readonly pageSize?: number;
  readonly clock?: Clock;
}

/** The warm ledger: a `LedgerReader`, a chain source over it, and its upkeep. */
export interface WarmLedger extends LedgerReader {
  /** Finds a hash in the copy, else in the store (a row stored since the last catch-up). */
  readonly chain: ChainSource;
  /** Reads the rows stored since the last catch-up now; resolves to how many were new. */
  catchUp(): Promise<number>;
  /** Transfers held. */
  readonly size: number;
  /** When the last catch-up began (epoch ms of the clock): the copy holds every row stored before. */
  readonly caughtUpAt: number;
}

/** Default staleness bound and page size. */
export const WARM_LEDGER_DEFAULTS = Object.freeze({ maxLagMs: 1_000, pageSize: 5_000 });

/**
 * Loads the ledger of `store` into memory and returns the warm copy. NOT_CONFIGURED when the
 * store cannot list its ledger in stored order (Postgres: trace from the database instead).
 */
export async function createWarmLedger(store: Store, options: WarmLedgerOptions = {}): Promise<WarmLedger> {
  if (!store.scanLedger) {
    throw new KytError(
      "NOT_CONFIGURED",
      `the ${store.capabilities.dialect} store cannot list its ledger in stored order, so it cannot be kept warm`,
    );
  }
  const scan = store.scanLedger.bind(store);
  const index = new LedgerIndex();
  const upkeep = warmCatchUp(
    "warm ledger",
    options,
    WARM_LEDGER_DEFAULTS,
    async (position, pageSize) => {
      const page = await scan(position, pageSize);
      return { read: page.rows.length, added: index.add(page.rows), last: page.last };
    },
    store.scanRewinds
      ? {
          scan: store.scanRewinds.bind(store),
          ledger: "account",
          drop: (network, fromHeight) => index.removeBlocksFrom(network, fromHeight),
        }
      : null,
  );
  const { catchUp, fresh } = upkeep;

  await catchUp();
  index.compact();
  return {
    ledgerIncoming(network: string, tokenId: string, queries: ReadonlyArray<IncomingQuery>, limit: number) {
      return fresh(() => index.incomingSync(network, tokenId, queries, limit));
    },
    ledgerOutgoing(network: string, tokenId: string, queries: ReadonlyArray<OutgoingQuery>, limit: number) {
      return fresh(() => index.outgoingSync(network, tokenId, queries, limit));
    },
    ledgerIncomingCounts(network: string, tokenId: string, queries: ReadonlyArray<IncomingQuery>) {
      return fresh(() => index.incomingCountsSync(network, tokenId, queries));
    },
    ledgerOutgoingCounts(network: string, tokenId: string, queries: ReadonlyArray<OutgoingQuery>) {
      return fresh(() => index.outgoingCountsSync(network, tokenId, queries));
    },
    ledgerIncomingLumped(
      network: string,
      tokenId: string,
      queries: ReadonlyArray<LumpQuery>,
      screen: AddressScreen,
    ) {
      return fresh(() => index.incomingLumpedSync(network, tokenId, queries, screen));
    },
    chain: {
      async lookup(network, txHash) {
        const utxo = await utxoLedgerLookup(store, network, txHash);
        if (utxo) return utxo;
        let transfers: ReadonlyArray<LedgerTransfer> = await fresh(() => index.byTxHash(network, txHash));
        if (transfers.length === 0) transfers = await store.ledgerByTxHash(network, txHash);
        return transfers.length > 0 ? { kind: "found", transfers } : { kind: "not_found" };
      },
    },
    catchUp,
    get size() {
      return index.size;
    },
    get caughtUpAt() {
      return upkeep.caughtUpAt;
    },
  };
}
