/**
 * Clustering what was just written, inside the same store transaction: the importers and the
 * chain follower call it right after `putUtxoTransactions` on the transaction's own view, so a
 * batch and the merge of its clusters land together or not at all. Conflicts are looked up with
 * the labels the store holds (attributions and sanctions listings, at any time).
 */
import { COINJOIN_KINDS, type CoinJoinKind } from "../../domain/coinjoin.js";
import type { UtxoTransaction } from "../../domain/utxo.js";
import { createEntityResolver } from "../../exposure/entity-resolver.js";
import {
  type ClusterConflict,
  type ClusteringSummary,
  clusterConflicts,
  clusterUtxoTransactions,
} from "../../exposure/utxo-clustering.js";
import type { StoreOps } from "../../ports/store.js";
import { storeAttributionSource, storeSanctionsSource } from "./store-sources.js";

/** Merges the common-input clusters of `txs` in `store` (a transaction's view) and reports conflicts. */
export function clusterInStore(
  store: StoreOps,
  txs: ReadonlyArray<UtxoTransaction>,
): Promise<ClusteringSummary> {
  const resolver = createEntityResolver({
    attributions: storeAttributionSource(store),
    sanctions: storeSanctionsSource(store),
  });
  return clusterUtxoTransactions(store, txs, resolver);
}

/** The conflicts among `clusterIds` of `network`, looked up with the labels the store holds. */
export function clusterConflictsInStore(
  store: StoreOps,
  network: string,
  clusterIds: ReadonlyArray<string>,
): Promise<ClusterConflict[]> {
  const resolver = createEntityResolver({
    attributions: storeAttributionSource(store),
    sanctions: storeSanctionsSource(store),
  });
  return clusterConflicts(store, resolver, network, clusterIds);
}

/** Clustering that did nothing (the start of a sum). */
export function noClustering(): ClusteringSummary {
  return {
    transactions: 0,
    joined: 0,
    coinJoins: Object.fromEntries(COINJOIN_KINDS.map((k) => [k, 0])) as Record<CoinJoinKind, number>,
    unions: 0,
    conflicts: [],
  };
}

/** Adds `b` to `a`: counts summed, conflicts concatenated (the same cluster may appear twice). */
export function addClustering(a: ClusteringSummary, b: ClusteringSummary): ClusteringSummary {
  return {
    transactions: a.transactions + b.transactions,
    joined: a.joined + b.joined,
    coinJoins: Object.fromEntries(COINJOIN_KINDS.map((k) => [k, a.coinJoins[k] + b.coinJoins[k]])) as Record<
      CoinJoinKind,
      number
    >,
    unions: a.unions + b.unions,
    conflicts: [...a.conflicts, ...b.conflicts],
  };
}
