/**
 * Address clusters of the kysely store (tables of migration 0031). A merge first joins its
 * groups in memory (a union-find over the batch), so each resulting component costs one read of
 * its addresses' clusters, one insert of the new addresses and one relabelling UPDATE per
 * smaller cluster it swallows, all in one transaction. The clusters' labelled members are kept
 * alongside (`kysely-cluster-labels.ts`), moved with a swallowed cluster and added with the
 * newcomers that are labelled.
 */
import type { UtxoClusterStore } from "@openkyt/core";
import { sql } from "kysely";
import { keepLabelledNewcomers, moveLabelledMembers } from "./kysely-cluster-labels.js";
import { type KyselyContext, orderText } from "./kysely-context.js";
import { chunksOf, IN_LIST_CHUNK, INSERT_CHUNK, num } from "./kysely-values.js";

/**
 * Clusters whose labelled members one statement reads, a compound branch each: SQLite allows
 * 500 branches in a compound SELECT.
 */
const CLUSTERS_PER_STATEMENT = 100;

/** The components of `groups` joined transitively, each in first-seen order. */
function components(groups: ReadonlyArray<ReadonlyArray<string>>): string[][] {
  const parent = new Map<string, string>();
  const find = (a: string): string => {
    let root = a;
    while (parent.get(root) !== root) root = parent.get(root)!;
    for (let x = a; x !== root; ) {
      const next = parent.get(x)!;
      parent.set(x, root);
      x = next;
    }
    return root;
  };
  for (const group of groups) {
    for (const a of group) if (!parent.has(a)) parent.set(a, a);
    for (let i = 1; i < group.length; i++) {
      const ra = find(group[0]!);
      const rb = find(group[i]!);
      if (ra !== rb) parent.set(rb, ra);
    }
  }
  const out = new Map<string, string[]>();
  for (const a of parent.keys()) {
    const root = find(a);
    let list = out.get(root);
    if (!list) {
      list = [];
      out.set(root, list);
    }
    list.push(a);
  }
  return [...out.values()].filter((c) => c.length > 1);
}

/** Creates the cluster members over `ctx`. */
export function kyselyClusterOps(ctx: KyselyContext): UtxoClusterStore {
  const { db } = ctx;
  return {
    async mergeAddressClusters(network, groups) {
      const parts = components(groups);
      if (parts.length === 0) return { unions: 0, clusterIds: [] };
      return ctx.atomic(async (trx) => {
        const all = parts.flat();
        const clusterOf = new Map<string, string>();
        for (const chunk of chunksOf(all, IN_LIST_CHUNK)) {
          const rows = await trx
            .selectFrom("utxo_clusters")
            .select(["address", "cluster_id"])
            .where("network", "=", network)
            .where("address", "in", chunk)
            .execute();
          for (const r of rows) clusterOf.set(r.address, r.cluster_id);
        }
        const ids = [...new Set(clusterOf.values())];
        const sizes = new Map<string, number>();
        for (const chunk of chunksOf(ids, IN_LIST_CHUNK)) {
          const rows = await trx
            .selectFrom("utxo_cluster_sizes")
            .select(["cluster_id", "size"])
            .where("network", "=", network)
            .where("cluster_id", "in", chunk)
            .execute();
          for (const r of rows) sizes.set(r.cluster_id, num(r.size));
        }
        let unions = 0;
        const survivors: string[] = [];
        const fresh: Array<{ address: string; network: string; cluster_id: string }> = [];
        const sizeRows: Array<{ cluster_id: string; network: string; size: number }> = [];
        const dropped: string[] = [];
        for (const part of parts) {
          // The clusters of the component, in first-seen order; each new address is a cluster of one.
          const clusters: string[] = [];
          const newcomers: string[] = [];
          for (const a of part) {
            const id = clusterOf.get(a);
            if (id === undefined) newcomers.push(a);
            else if (!clusters.includes(id)) clusters.push(id);
          }
          let keep = clusters[0] ?? newcomers[0]!;
          for (const id of clusters) if ((sizes.get(id) ?? 1) > (sizes.get(keep) ?? 1)) keep = id;
          let size = clusters.length === 0 ? 0 : (sizes.get(keep) ?? 1);
          for (const id of clusters) {
            if (id === keep) continue;
            const ofId = sizes.get(id) ?? 1;
            await trx
              .updateTable("utxo_clusters")
              .set({ cluster_id: keep })
              .where("network", "=", network)
              .where("cluster_id", "=", id)
              .execute();
            await moveLabelledMembers(trx, network, id, keep);
            dropped.push(id);
            size += ofId;
            unions++;
          }
          for (const a of newcomers) fresh.push({ address: a, network, cluster_id: keep });
          unions += clusters.length === 0 ? newcomers.length - 1 : newcomers.length;
          size += newcomers.length;
          sizeRows.push({ cluster_id: keep, network, size });
          survivors.push(keep);
        }
        for (const chunk of chunksOf(fresh, INSERT_CHUNK)) {
          await trx.insertInto("utxo_clusters").values(chunk).execute();
        }
        await keepLabelledNewcomers(
          trx,
          network,
          fresh.map((r) => r.address),
        );
        for (const chunk of chunksOf(dropped, IN_LIST_CHUNK)) {
          await trx
            .deleteFrom("utxo_cluster_sizes")
            .where("network", "=", network)
            .where("cluster_id", "in", chunk)
            .execute();
        }
        for (const chunk of chunksOf(sizeRows, INSERT_CHUNK)) {
          await trx
            .insertInto("utxo_cluster_sizes")
            .values(chunk)
            .onConflict((oc) =>
              oc.columns(["cluster_id", "network"]).doUpdateSet({ size: sql`excluded.size` }),
            )
            .execute();
        }
        return { unions, clusterIds: [...new Set(survivors)].sort() };
      });
    },
    async addressClusters(network, addresses) {
      const out = [];
      for (const chunk of chunksOf([...new Set(addresses)], IN_LIST_CHUNK)) {
        const rows = await db
          .selectFrom("utxo_clusters as c")
          .leftJoin("utxo_cluster_sizes as s", (j) =>
            j.onRef("s.cluster_id", "=", "c.cluster_id").onRef("s.network", "=", "c.network"),
          )
          .select(["c.address", "c.cluster_id", "s.size"])
          .where("c.network", "=", network)
          .where("c.address", "in", chunk)
          .execute();
        for (const r of rows)
          out.push({ address: r.address, clusterId: r.cluster_id, size: r.size === null ? 1 : num(r.size) });
      }
      return out;
    },
    async clusterLabelledMembers(network, clusterIds, limit) {
      if (limit <= 0) return [];
      const out: Array<{ clusterId: string; address: string }> = [];
      // The clusters' kept labelled members (migration 0090), not their whole membership. A
      // statement per chunk of clusters, not per cluster: after a bulk import the clusters of a
      // whole file are asked about at once (tens of thousands), and a statement each was most
      // of the import's time outside the load. Within it, a branch per cluster takes its first
      // `limit` members in address order, so a cluster with many labelled members costs
      // `limit` rows of its key range (SQLite; Postgres sorts the range, whose collation is
      // not the "C" order asked for).
      for (const chunk of chunksOf([...new Set(clusterIds)].sort(), CLUSTERS_PER_STATEMENT)) {
        const branch = (id: string) =>
          db
            .selectFrom(
              db
                .selectFrom("utxo_cluster_labels as c")
                .select(["c.cluster_id", "c.address"])
                .where("c.network", "=", network)
                .where("c.cluster_id", "=", id)
                .orderBy(orderText(ctx, "c.address"))
                .limit(limit)
                .as("b"),
            )
            .select(["b.cluster_id", "b.address"]);
        let branches = branch(chunk[0]!);
        for (const id of chunk.slice(1)) branches = branches.unionAll(branch(id));
        const rows = await db
          .selectFrom(branches.as("u"))
          .select(["u.cluster_id", "u.address"])
          .orderBy(orderText(ctx, "u.cluster_id"))
          .orderBy(orderText(ctx, "u.address"))
          .execute();
        for (const r of rows) out.push({ clusterId: r.cluster_id, address: r.address });
      }
      return out;
    },
  };
}
