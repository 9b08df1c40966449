/**
 * Store-backed defaults of the reference-data ports and of the chain source: what the engine
 * uses when a product injects nothing else.
 */

import { NATIVE_TOKEN, networkInfo } from "../../domain/networks.js";
import type { TokenInfo } from "../../domain/records.js";
import { isUtxoNetwork, utxoLookupTransfers } from "../../domain/utxo-binding.js";
import type { ChainLookup, ChainSource } from "../../ports/chain-source.js";
import type {
  AttributionSource,
  PriceSource,
  SanctionsSource,
  TokenCatalog,
} from "../../ports/reference-sources.js";
import type { StoreOps } from "../../ports/store.js";
import type { UtxoLedgerReader } from "../../ports/utxo-ledger.js";
import { joinedHashLookups } from "./joined-hash-lookups.js";

/**
 * A UTXO network's transaction from the UTXO ledger, as a found lookup (the whole transaction
 * and one transfer per output paying an address); null when the network is not a UTXO one or
 * the ledger does not hold the transaction.
 */
export async function utxoLedgerLookup(
  ledger: UtxoLedgerReader,
  network: string,
  txHash: string,
): Promise<ChainLookup | null> {
  if (!isUtxoNetwork(network)) return null;
  const [utxo] = await ledger.utxoTransactions(network, [txHash]);
  return utxo ? { kind: "found", transfers: utxoLookupTransfers(utxo), utxo } : null;
}

/**
 * Resolves hashes from the ledgers in the store: a UTXO network's transaction from the UTXO
 * ledger, else the ledger's transfers; known -> found, unknown -> not_found. Lookups of one turn
 * share one read when the store has `ledgerByTxHashes` (`joined-hash-lookups.ts`).
 */
export function storeChainSource(store: StoreOps): ChainSource {
  // A store that reads several hashes at once answers the lookups of one turn with one read.
  const many = store.ledgerByTxHashes?.bind(store);
  const byHash = many ? joinedHashLookups(many) : store.ledgerByTxHash.bind(store);
  return {
    async lookup(network, txHash) {
      const utxo = await utxoLedgerLookup(store, network, txHash);
      if (utxo) return utxo;
      const transfers = await byHash(network, txHash);
      return transfers.length > 0 ? { kind: "found", transfers } : { kind: "not_found" };
    },
  };
}

/** Attributions from the store. */
export function storeAttributionSource(store: StoreOps): AttributionSource {
  return { attributions: (network, addresses) => store.getAttributions(network, addresses) };
}

/** Sanctions listings from the store. */
export function storeSanctionsSource(store: StoreOps): SanctionsSource {
  return { listings: (addresses) => store.getSanctions(addresses) };
}

/** UTC day of an epoch-ms time, `YYYY-MM-DD`. */
export function utcDay(at: number): string {
  return new Date(at).toISOString().slice(0, 10);
}

/** Daily prices from the store: the price of the transfer's day, else the latest before it. */
export function storePriceSource(store: StoreOps): PriceSource {
  return { usdPrice: (network, tokenId, at) => store.getPrice(network, tokenId, utcDay(at)) };
}

/** The native token of a known network, described from the network table. */
export function nativeToken(network: string): TokenInfo | null {
  const info = networkInfo(network);
  if (!info) return null;
  return Object.freeze({
    network,
    tokenId: NATIVE_TOKEN,
    symbol: info.nativeSymbol,
    decimals: info.nativeDecimals,
    name: info.name,
  });
}

/** Tokens from the store; native tokens come from the network table unless the store has them. */
export function storeTokenCatalog(store: StoreOps): TokenCatalog {
  return {
    async token(network, tokenId) {
      const stored = await store.getToken(network, tokenId);
      if (stored) return stored;
      return tokenId === NATIVE_TOKEN ? nativeToken(network) : null;
    },
    async bySymbol(network, symbol) {
      const native = nativeToken(network);
      if (native && native.symbol.toUpperCase() === symbol.toUpperCase()) return native;
      const page = await store.listTokens({ network, symbol }, { page: 1, pageSize: 2 });
      return page.items.length === 1 ? (page.items[0] ?? null) : null;
    },
  };
}

/**
 * One chain source per network: a lookup on a network in `routes` asks that network's source
 * (a live node), any other network asks `fallback` (by default the ledger in the store).
 */
export function routedChainSource(
  routes: Readonly<Record<string, ChainSource>>,
  fallback: ChainSource,
): ChainSource {
  const table = new Map(Object.entries(routes));
  return {
    lookup(network, txHash) {
      return (table.get(network) ?? fallback).lookup(network, txHash);
    },
  };
}
