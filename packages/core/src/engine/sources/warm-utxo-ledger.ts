/**
 * A warm copy of the store's UTXO ledger (Bitcoin, Litecoin): every transaction in an in-memory
 * {@link UtxoIndex}, kept up to date by reading the transactions stored since the last read
 * (`Store.scanUtxoTransactions`), as `createWarmLedger` keeps the account ledger. A BTC trace
 * over it is a map lookup per txid instead of three SQL statements per hop.
 *
 * Freshness: a read that comes more than `maxLagMs` after the last catch-up first reads what was
 * stored since, so a transaction stored by any process is traced at most `maxLagMs` later. A
 * reorg's deletes (`deleteUtxoBlocksFrom`, by any process) leave the copy as late: the store
 * records them (`Store.scanRewinds`) and the catch-up drops the same transactions, with their
 * spends and their outputs' entries, so the coins they spent read as unspent again.
 */
import { UtxoIndex } from "../../exposure/utxo-index.js";
import type { ChainSource } from "../../ports/chain-source.js";
import type { Store } from "../../ports/store.js";
import type { UtxoLedgerReader } from "../../ports/utxo-ledger.js";
import { utxoLedgerLookup } from "./store-sources.js";
import { warmCatchUp } from "./warm-catch-up.js";
import type { WarmLedgerOptions } from "./warm-ledger.js";

/** The warm UTXO ledger: a `UtxoLedgerReader` and its upkeep. */
export interface WarmUtxoLedger extends UtxoLedgerReader {
  /** Reads the transactions stored since the last catch-up now; resolves to how many were new. */
  catchUp(): Promise<number>;
  /** Transactions held. */
  readonly size: number;
  /** When the last catch-up began (epoch ms of the clock). */
  readonly caughtUpAt: number;
}

/** Default staleness bound (ms) and page size (transactions per read). */
export const WARM_UTXO_DEFAULTS = Object.freeze({ maxLagMs: 1_000, pageSize: 5_000 });

/**
 * Loads the UTXO ledger of `store` into memory and returns the warm copy; null when the store
 * cannot list its UTXO ledger in stored order (traces then read the database).
 */
export async function createWarmUtxoLedger(
  store: Store,
  options: WarmLedgerOptions = {},
): Promise<WarmUtxoLedger | null> {
  if (!store.scanUtxoTransactions) return null;
  const scan = store.scanUtxoTransactions.bind(store);
  const index = new UtxoIndex();
  const upkeep = warmCatchUp(
    "warm UTXO ledger",
    options,
    WARM_UTXO_DEFAULTS,
    async (position, pageSize) => {
      const page = await scan(position, pageSize);
      return { read: page.txs.length, added: index.add(page.txs).length, last: page.last };
    },
    store.scanRewinds
      ? {
          scan: store.scanRewinds.bind(store),
          ledger: "utxo",
          drop: (network, fromHeight) => {
            const gone = index.blocksFrom(network, fromHeight);
            for (const tx of gone) index.remove(tx.network, tx.txid);
            return gone.length;
          },
        }
      : null,
  );
  const { catchUp, fresh } = upkeep;

  await catchUp();
  return {
    utxoTransactions: (network, txids) => fresh(() => index.transactions(network, txids)),
    utxoReceived: (network, queries, limit) => fresh(() => index.received(network, queries, limit)),
    utxoSpentFrom: (network, queries, limit) => fresh(() => index.spentFrom(network, queries, limit)),
    catchUp,
    get size() {
      return index.size;
    },
    get caughtUpAt() {
      return upkeep.caughtUpAt;
    },
  };
}

/**
 * A chain source that finds a UTXO transaction in the warm copy first (binding a BTC deposit
 * without a database read), else asks `inner`.
 */
export function warmUtxoChainSource(utxo: WarmUtxoLedger, inner: ChainSource): ChainSource {
  return {
    async lookup(network, txHash) {
      const found = await utxoLedgerLookup(utxo, network, txHash);
      return found ?? inner.lookup(network, txHash);
    },
  };
}
