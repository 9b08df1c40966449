/**
 * The labelled members of the in-memory store's clusters, kept as the SQL stores keep
 * `utxo_cluster_labels` (migration 0090): per (network, cluster id), its members that carry an
 * attribution on that network or a sanctions listing, in binary order. A cluster's labelled
 * members are then read in what the answer costs, not in the cluster's size: an exchange's
 * cluster holds hundreds of thousands of addresses and a handful of labels.
 *
 * Kept up to date where it can change: a new clustered address (`labelNewMember`), a union
 * (`mergeLabelled`), a new attribution or listing of a clustered address (`labelClustered`).
 * Labels are never removed (the store has no such member), so neither is a labelled member.
 * Every write goes through the journal: a rolled-back transaction leaves the lists as they were.
 */
import { deleteEntry, type Journal, setEntry } from "./memory-journal.js";
import { compareStrings, keyOf, type MemoryTables } from "./memory-state.js";

/** True when `address` carries a label on `network`: an attribution there, or any listing. */
export function isLabelled(tables: MemoryTables, network: string, address: string): boolean {
  return tables.attributions.has(keyOf(network, address)) || tables.sanctions.has(address);
}

/** Records `address`, just made its own cluster `clusterId` on `network`, if it is labelled. */
export function labelNewMember(
  tables: MemoryTables,
  journal: Journal,
  network: string,
  address: string,
  clusterId: string,
): void {
  tables.clusterNetworks.add(network);
  if (isLabelled(tables, network, address))
    setEntry(journal, tables.clusterLabelled, keyOf(network, clusterId), [address]);
}

/** The sorted union of two sorted lists without repeats. */
function mergeSorted(a: ReadonlyArray<string>, b: ReadonlyArray<string>): string[] {
  const out: string[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    const x = a[i];
    const y = b[j];
    if (y === undefined || (x !== undefined && x < y)) {
      out.push(x as string);
      i++;
    } else if (x === undefined || y < x) {
      out.push(y);
      j++;
    } else {
      out.push(x);
      i++;
      j++;
    }
  }
  return out;
}

/** Moves the labelled members of cluster `drop` into cluster `keep` (a union on `network`). */
export function mergeLabelled(
  tables: MemoryTables,
  journal: Journal,
  network: string,
  keep: string,
  drop: string,
): void {
  const dropKey = keyOf(network, drop);
  const dropped = tables.clusterLabelled.get(dropKey);
  if (dropped === undefined) return;
  const keepKey = keyOf(network, keep);
  setEntry(
    journal,
    tables.clusterLabelled,
    keepKey,
    mergeSorted(tables.clusterLabelled.get(keepKey) ?? [], dropped),
  );
  deleteEntry(journal, tables.clusterLabelled, dropKey);
}

/**
 * Records a label just written on `address` (on `network`, or on every network for a listing,
 * `network` null): each cluster holding the address lists it among its labelled members.
 * Call it before the label is stored, so that an address labelled before is left alone.
 */
export function labelClustered(
  tables: MemoryTables,
  journal: Journal,
  network: string | null,
  address: string,
): void {
  const networks = network === null ? tables.clusterNetworks : [network];
  for (const n of networks) {
    if (isLabelled(tables, n, address)) continue;
    const clusterId = tables.clusterOf.get(keyOf(n, address));
    if (clusterId === undefined) continue;
    const key = keyOf(n, clusterId);
    const list = tables.clusterLabelled.get(key) ?? [];
    setEntry(journal, tables.clusterLabelled, key, mergeSorted(list, [address]));
  }
}

/** At most `limit` labelled members of each cluster, by cluster then address (binary order). */
export function labelledMembers(
  tables: MemoryTables,
  network: string,
  clusterIds: ReadonlyArray<string>,
  limit: number,
): Array<{ clusterId: string; address: string }> {
  const out: Array<{ clusterId: string; address: string }> = [];
  if (limit <= 0) return out;
  for (const clusterId of [...new Set(clusterIds)].sort(compareStrings)) {
    const list = tables.clusterLabelled.get(keyOf(network, clusterId)) ?? [];
    for (let i = 0; i < list.length && i < limit; i++) out.push({ clusterId, address: list[i] as string });
  }
  return out;
}
