/**
 * The address clusters of the in-memory store: a union-find with eager relabelling, undone on
 * rollback. A union appends the smaller cluster's members to the larger's list (undone by
 * cutting the list back), so it costs the smaller cluster, and a cluster's labelled members are
 * kept apart (`memory-cluster-labels.ts`), so reading them costs what is read.
 */
import type { UtxoClusterStore } from "../ports/utxo-clusters.js";
import { labelledMembers, labelNewMember, mergeLabelled } from "./memory-cluster-labels.js";
import { deleteEntry, type Journal, setEntry } from "./memory-journal.js";
import { compareStrings, keyOf, type MemoryTables } from "./memory-state.js";

/** Appends `added` to `list`, recording how to cut it back. */
function appendAll(journal: Journal, list: string[], added: ReadonlyArray<string>): void {
  const before = list.length;
  for (const a of added) list.push(a);
  journal.record(() => {
    list.length = before;
  });
}

/** Creates the cluster members over `tables`, writing through `journal`. */
export function memoryClusterOps(tables: MemoryTables, journal: Journal): UtxoClusterStore {
  const { clusterOf, clusterMembers } = tables;
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
            labelNewMember(tables, journal, network, address, id);
          }
          if (root === null || root === id) {
            root = id;
            continue;
          }
          // Union by size: the smaller cluster's members take the larger's id.
          const a: string[] = clusterMembers.get(keyOf(network, root)) ?? [];
          const b: string[] = clusterMembers.get(keyOf(network, id)) ?? [];
          const [keep, drop, kept, dropped]: [string, string, string[], string[]] =
            a.length >= b.length ? [root, id, a, b] : [id, root, b, a];
          for (const member of dropped) setEntry(journal, clusterOf, keyOf(network, member), keep);
          appendAll(journal, kept, dropped);
          deleteEntry(journal, clusterMembers, keyOf(network, drop));
          mergeLabelled(tables, journal, network, keep, drop);
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
      return labelledMembers(tables, network, clusterIds, limit);
    },
  };
}
