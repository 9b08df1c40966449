/** The address clusters of the in-memory store: a union-find with eager relabelling, undone on rollback. */
import type { UtxoClusterStore } from "../ports/utxo-clusters.js";
import { deleteEntry, type Journal, setEntry } from "./memory-journal.js";
import { compareStrings, keyOf, type MemoryTables } from "./memory-state.js";

/** Creates the cluster members over `tables`, writing through `journal`. */
export function memoryClusterOps(tables: MemoryTables, journal: Journal): UtxoClusterStore {
  const { clusterOf, clusterMembers, attributions, sanctions } = tables;
  return {
    async mergeAddressClusters(network, groups) {
      let unions = 0;
      const touched = new Set<string>();
      for (const group of groups) {
        let root: string | null = null;
        for (const address of group) {
          const key = keyOf(network, address);
          let id = clusterOf.get(key);
          if (id === undefined) {
            id = address;
            setEntry(journal, clusterOf, key, id);
            setEntry(journal, clusterMembers, keyOf(network, id), [address]);
          }
          if (root === null || root === id) {
            root = id;
            continue;
          }
          // Union by size: the smaller cluster's members take the larger's id.
          const a: ReadonlyArray<string> = clusterMembers.get(keyOf(network, root)) ?? [];
          const b: ReadonlyArray<string> = clusterMembers.get(keyOf(network, id)) ?? [];
          const [keep, drop, dropped]: [string, string, ReadonlyArray<string>] =
            a.length >= b.length ? [root, id, b] : [id, root, a];
          for (const member of dropped) setEntry(journal, clusterOf, keyOf(network, member), keep);
          setEntry(journal, clusterMembers, keyOf(network, keep), [
            ...(clusterMembers.get(keyOf(network, keep)) ?? []),
            ...dropped,
          ]);
          deleteEntry(journal, clusterMembers, keyOf(network, drop));
          unions++;
          root = keep;
        }
        if (root !== null) touched.add(root);
      }
      // A later group may have merged an earlier group's cluster away: report the survivors.
      const ids = new Set([...touched].map((id) => clusterOf.get(keyOf(network, id)) ?? id));
      return { unions, clusterIds: [...ids].sort(compareStrings) };
    },
    async addressClusters(network, addresses) {
      const out = [];
      for (const address of new Set(addresses)) {
        const clusterId = clusterOf.get(keyOf(network, address));
        if (clusterId === undefined) continue;
        out.push({ address, clusterId, size: clusterMembers.get(keyOf(network, clusterId))?.length ?? 1 });
      }
      return out;
    },
    async clusterLabelledMembers(network, clusterIds, limit) {
      const out = [];
      for (const clusterId of [...new Set(clusterIds)].sort(compareStrings)) {
        const members = [...(clusterMembers.get(keyOf(network, clusterId)) ?? [])].sort(compareStrings);
        let taken = 0;
        for (const address of members) {
          if (taken >= limit) break;
          if (!attributions.has(keyOf(network, address)) && !sanctions.has(address)) continue;
          out.push({ clusterId, address });
          taken++;
        }
      }
      return out;
    },
  };
}
