/**
 * Clustering by common-input ownership: the input addresses of a transaction belong to one
 * wallet (whoever signed every input held every key), unless the transaction looks like a
 * CoinJoin (`domain/coinjoin.ts`). Run as transactions are imported; the store keeps the
 * union-find. Two differently labelled entities meeting in one cluster are reported as a
 * conflict, never merged silently under one name (docs/risk-model.md, "Bitcoin").
 */
import { type CoinJoinKind, coinJoinKind } from "../domain/coinjoin.js";
import type { UtxoTransaction } from "../domain/utxo.js";
import { inputAddressesOf } from "../domain/utxo-binding.js";
import type { UtxoClusterStore } from "../ports/utxo-clusters.js";
import type { EntityResolver } from "./entity-resolver.js";
import type { TimeSpan } from "./sanctions-as-of.js";

/** Labelled members read per cluster when looking for conflicts. */
export const CONFLICT_MEMBER_LIMIT = 100;

/** All of time: a cluster's labels count whenever they were valid. */
const ALL_TIME: TimeSpan = Object.freeze({ from: Number.MIN_SAFE_INTEGER, to: Number.MAX_SAFE_INTEGER });

/** Two or more entities found in one cluster. */
export interface ClusterConflict {
  readonly network: string;
  readonly clusterId: string;
  /** The entities, each with one labelled address of the cluster, by name. */
  readonly entities: ReadonlyArray<{
    readonly name: string;
    readonly category: string;
    readonly address: string;
  }>;
}

/** What clustering a batch of transactions did. */
export interface ClusteringSummary {
  readonly transactions: number;
  /** Transactions whose input addresses (two or more) were joined. */
  readonly joined: number;
  /** Transactions left out as CoinJoins, by kind. */
  readonly coinJoins: Readonly<Record<CoinJoinKind, number>>;
  readonly unions: number;
  readonly conflicts: ReadonlyArray<ClusterConflict>;
}

/** Per network, the groups of input addresses to join, and the CoinJoins left out. */
export function commonInputGroups(txs: ReadonlyArray<UtxoTransaction>): {
  readonly groups: ReadonlyMap<string, string[][]>;
  readonly coinJoins: Record<CoinJoinKind, number>;
  readonly joined: number;
} {
  const groups = new Map<string, string[][]>();
  const coinJoins: Record<CoinJoinKind, number> = { whirlpool: 0, wasabi: 0, joinmarket: 0 };
  let joined = 0;
  for (const tx of txs) {
    if (tx.coinbase) continue;
    const kind = coinJoinKind(tx);
    if (kind !== null) {
      coinJoins[kind]++;
      continue;
    }
    const addresses = inputAddressesOf(tx);
    if (addresses.length < 2) continue;
    let list = groups.get(tx.network);
    if (!list) {
      list = [];
      groups.set(tx.network, list);
    }
    list.push(addresses);
    joined++;
  }
  return { groups, coinJoins, joined };
}

/**
 * Joins the input addresses of `txs` in the store's clusters and looks for conflicts in the
 * clusters they touched (with `resolver`; none when left out).
 */
export async function clusterUtxoTransactions(
  store: UtxoClusterStore,
  txs: ReadonlyArray<UtxoTransaction>,
  resolver: EntityResolver | null,
): Promise<ClusteringSummary> {
  const { groups, coinJoins, joined } = commonInputGroups(txs);
  let unions = 0;
  const conflicts: ClusterConflict[] = [];
  for (const [network, list] of groups) {
    const outcome = await store.mergeAddressClusters(network, list);
    unions += outcome.unions;
    if (resolver) conflicts.push(...(await clusterConflicts(store, resolver, network, outcome.clusterIds)));
  }
  return { transactions: txs.length, joined, coinJoins, unions, conflicts };
}

/** The clusters among `clusterIds` whose labelled members resolve to two or more entities. */
export async function clusterConflicts(
  store: UtxoClusterStore,
  resolver: EntityResolver,
  network: string,
  clusterIds: ReadonlyArray<string>,
): Promise<ClusterConflict[]> {
  if (clusterIds.length === 0) return [];
  const members = await store.clusterLabelledMembers(network, clusterIds, CONFLICT_MEMBER_LIMIT);
  if (members.length === 0) return [];
  const entities = await resolver.resolve(
    network,
    members.map((m) => m.address),
    ALL_TIME,
  );
  const byCluster = new Map<string, Map<string, { name: string; category: string; address: string }>>();
  for (const m of members) {
    const entity = entities.get(m.address);
    if (!entity) continue;
    let names = byCluster.get(m.clusterId);
    if (!names) {
      names = new Map();
      byCluster.set(m.clusterId, names);
    }
    if (!names.has(entity.name))
      names.set(entity.name, { name: entity.name, category: entity.category, address: m.address });
  }
  const out: ClusterConflict[] = [];
  for (const [clusterId, names] of byCluster) {
    if (names.size < 2) continue;
    out.push({
      network,
      clusterId,
      entities: [...names.values()].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0)),
    });
  }
  return out;
}
