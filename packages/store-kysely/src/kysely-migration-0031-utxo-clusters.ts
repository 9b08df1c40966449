/**
 * Migration 0031: address clusters of the UTXO chains (common-input ownership), a union-find
 * with eager relabelling: `utxo_clusters` maps an address to its cluster's id (the address that
 * founded it), with `(network, cluster_id)` for a cluster's members; `utxo_cluster_sizes` keeps
 * each cluster's size, so a union keeps the larger id and relabels the smaller cluster only.
 */
import type { Kysely, Migration } from "kysely";

/** Creates the tables and the members index. */
async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("utxo_clusters")
    .addColumn("address", "text", (c) => c.notNull())
    .addColumn("network", "text", (c) => c.notNull())
    .addColumn("cluster_id", "text", (c) => c.notNull())
    .addPrimaryKeyConstraint("utxo_clusters_pk", ["address", "network"])
    .execute();
  await db.schema
    .createIndex("utxo_clusters_members")
    .on("utxo_clusters")
    .columns(["network", "cluster_id"])
    .execute();
  await db.schema
    .createTable("utxo_cluster_sizes")
    .addColumn("cluster_id", "text", (c) => c.notNull())
    .addColumn("network", "text", (c) => c.notNull())
    .addColumn("size", "bigint", (c) => c.notNull())
    .addPrimaryKeyConstraint("utxo_cluster_sizes_pk", ["cluster_id", "network"])
    .execute();
}

/** Drops them. */
async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("utxo_cluster_sizes").execute();
  await db.schema.dropTable("utxo_clusters").execute();
}

/** The address clusters migration. */
export const utxoClustersMigration: Migration = { up, down };
