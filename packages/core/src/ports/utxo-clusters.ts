/**
 * Address clusters of a UTXO chain (common-input ownership): a union-find kept by the store,
 * merged incrementally as transactions are imported (`clusterUtxoTransactions`). See
 * docs/risk-model.md, "Bitcoin", for the heuristic and the CoinJoins it leaves out.
 */

/** The cluster of an address: its id (the address that founded it) and how many addresses it holds. */
export interface AddressCluster {
  readonly address: string;
  readonly clusterId: string;
  readonly size: number;
}

/** A member of a cluster that carries a label (an attribution on the network, or a sanctions listing). */
export interface LabelledMember {
  readonly clusterId: string;
  readonly address: string;
}

/** What a merge did. */
export interface ClusterMergeOutcome {
  /** Unions that joined two different clusters (an address seen for the first time counts as one). */
  readonly unions: number;
  /** The ids of the clusters the merged groups ended in, distinct. */
  readonly clusterIds: ReadonlyArray<string>;
}

/** The union-find a store keeps. Implementations must not mutate their arguments. */
export interface UtxoClusterStore {
  /**
   * Joins every group's addresses into one cluster (addresses never seen start as clusters of
   * one), all groups or none. The larger cluster's id survives a union (the first's on a tie);
   * merging is idempotent.
   */
  mergeAddressClusters(
    network: string,
    groups: ReadonlyArray<ReadonlyArray<string>>,
  ): Promise<ClusterMergeOutcome>;
  /** The clusters of those addresses that belong to one (any order; addresses in none are left out). */
  addressClusters(network: string, addresses: ReadonlyArray<string>): Promise<ReadonlyArray<AddressCluster>>;
  /**
   * The members of these clusters that carry a label: an attribution on `network` or a
   * sanctions listing (any network), by cluster then address, at most `limitPerCluster` each.
   */
  clusterLabelledMembers(
    network: string,
    clusterIds: ReadonlyArray<string>,
    limitPerCluster: number,
  ): Promise<ReadonlyArray<LabelledMember>>;
}
