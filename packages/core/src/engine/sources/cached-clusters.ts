/**
 * A cache in front of the store's address clusters, for a warm process. A BTC deposit's checks
 * resolve every hop's frontier through the clusters (`exposure/cluster-resolver.ts`), and an
 * exchange's cluster grows with the ledger: asking the store each time walked every member of
 * it (`clusterLabelledMembers`) and built a statement per call, the part of a BTC screening's
 * CPU that grew with the ledger (docs/benchmarks.md). Answers are kept for `ttlMs` (default the
 * warm ledger's lag, 1 s), so a merge or a label written by any process is seen at most that
 * much later, as a row of the warm ledger is; the oldest answers go first past `maxEntries`.
 */
import type { AddressCluster, LabelledMember, UtxoClusterStore } from "../../ports/utxo-clusters.js";
import { cacheSettings, type SourceCacheOptions, TtlCache } from "./cached-sources.js";

/** What the cluster resolver reads. */
export type UtxoClusterReader = Pick<UtxoClusterStore, "addressClusters" | "clusterLabelledMembers">;

/** Options of {@link cachingClusterReader}: the source caches' (lifetime, size, clock). */
export type ClusterCacheOptions = SourceCacheOptions;

/** Default lifetime (the warm ledger's lag) and size. */
export const CLUSTER_CACHE_DEFAULTS = Object.freeze({ ttlMs: 1_000, maxEntries: 200_000 });

/** `store`'s clusters behind a cache of their answers, misses included (an address in no cluster). */
export function cachingClusterReader(
  store: UtxoClusterReader,
  options: ClusterCacheOptions = {},
): UtxoClusterReader {
  const settings = cacheSettings(options, CLUSTER_CACHE_DEFAULTS, "cluster cache");
  const { clock } = settings;
  const addresses = new TtlCache<AddressCluster | null>(settings);
  const labelled = new TtlCache<ReadonlyArray<LabelledMember>>(settings);
  const key = (network: string, id: string) => `${network}\u0000${id}`;
  return Object.freeze({
    async addressClusters(network: string, asked: ReadonlyArray<string>) {
      const now = clock.now();
      const out: AddressCluster[] = [];
      const missing: string[] = [];
      for (const address of new Set(asked)) {
        const hit = addresses.get(key(network, address), now);
        if (hit === undefined) missing.push(address);
        else if (hit.value !== null) out.push(hit.value);
      }
      if (missing.length > 0) {
        const found = new Map((await store.addressClusters(network, missing)).map((c) => [c.address, c]));
        for (const address of missing) {
          const cluster = found.get(address) ?? null;
          addresses.set(key(network, address), cluster, now);
          if (cluster !== null) out.push(cluster);
        }
      }
      return out;
    },
    async clusterLabelledMembers(network: string, clusterIds: ReadonlyArray<string>, limit: number) {
      const now = clock.now();
      const ids = [...new Set(clusterIds)].sort();
      const members = new Map<string, ReadonlyArray<LabelledMember>>();
      const missing: string[] = [];
      for (const id of ids) {
        const hit = labelled.get(key(network, `${limit}\u0000${id}`), now);
        if (hit === undefined) missing.push(id);
        else members.set(id, hit.value);
      }
      if (missing.length > 0) {
        const read = new Map<string, LabelledMember[]>(missing.map((id) => [id, []]));
        for (const m of await store.clusterLabelledMembers(network, missing, limit))
          read.get(m.clusterId)?.push(m);
        for (const [id, list] of read) {
          labelled.set(key(network, `${limit}\u0000${id}`), list, now);
          members.set(id, list);
        }
      }
      // In the store's order: by cluster id, then as the store listed each cluster's members.
      return ids.flatMap((id) => members.get(id) ?? []);
    },
  });
}
