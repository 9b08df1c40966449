/**
 * A cache in front of the store's address clusters, for a warm process. A BTC deposit's checks
 * resolve every hop's frontier through the clusters (`exposure/cluster-resolver.ts`), and an
 * exchange's cluster grows with the ledger: asking the store each time walked every member of
 * it (`clusterLabelledMembers`) and built a statement per call, the part of a BTC screening's
 * CPU that grew with the ledger (docs/benchmarks.md). Answers are kept for `ttlMs` (default the
 * warm ledger's lag, 1 s), so a merge or a label written by any process is seen at most that
 * much later, as a row of the warm ledger is; the oldest answers go first past `maxEntries`.
 */
import { KytError } from "../../errors.js";
import { type Clock, systemClock } from "../../ports/runtime.js";
import type { AddressCluster, LabelledMember, UtxoClusterStore } from "../../ports/utxo-clusters.js";

/** What the cluster resolver reads. */
export type UtxoClusterReader = Pick<UtxoClusterStore, "addressClusters" | "clusterLabelledMembers">;

/** Options of {@link cachingClusterReader}. */
export interface ClusterCacheOptions {
  /** How long an answer is kept, in ms (default 1,000). */
  readonly ttlMs?: number;
  /** Most addresses (and, apart, clusters) kept (default 200,000). */
  readonly maxEntries?: number;
  readonly clock?: Clock;
}

/** Default lifetime and size. */
export const CLUSTER_CACHE_DEFAULTS = Object.freeze({ ttlMs: 1_000, maxEntries: 200_000 });

/** A map whose entries live `ttlMs`, the oldest dropped first when full. */
function ttlMap<V>(ttlMs: number, maxEntries: number) {
  const entries = new Map<string, { readonly value: V; readonly at: number }>();
  return {
    get(key: string, now: number): { readonly value: V } | undefined {
      const e = entries.get(key);
      return e && now - e.at <= ttlMs ? e : undefined;
    },
    set(key: string, value: V, at: number): void {
      entries.delete(key);
      entries.set(key, { value, at });
      while (entries.size > maxEntries) entries.delete(entries.keys().next().value as string);
    },
  };
}

/** `store`'s clusters behind a cache of their answers, misses included (an address in no cluster). */
export function cachingClusterReader(
  store: UtxoClusterReader,
  options: ClusterCacheOptions = {},
): UtxoClusterReader {
  const ttlMs = options.ttlMs ?? CLUSTER_CACHE_DEFAULTS.ttlMs;
  const maxEntries = options.maxEntries ?? CLUSTER_CACHE_DEFAULTS.maxEntries;
  if (!(ttlMs >= 0) || !Number.isInteger(maxEntries) || maxEntries < 1) {
    throw new KytError(
      "VALIDATION_ERROR",
      "cluster cache: ttlMs must be >= 0 and maxEntries a positive integer",
    );
  }
  const clock = options.clock ?? systemClock;
  const addresses = ttlMap<AddressCluster | null>(ttlMs, maxEntries);
  const labelled = ttlMap<ReadonlyArray<LabelledMember>>(ttlMs, maxEntries);
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
