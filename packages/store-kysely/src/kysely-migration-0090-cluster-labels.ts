/**
 * Migration 0090: the labelled members of each address cluster, kept. A warm BTC screening asks
 * for up to `limit` labelled members of a cluster (`clusterLabelledMembers`); read from
 * `utxo_clusters` that walked every member of the cluster (a generated 1M-transaction ledger
 * has one of 241,882 addresses), so it grew with the ledger. `utxo_cluster_labels` holds one row
 * per clustered address that has an attribution on its network or a sanctions listing, keyed
 * `(network, cluster_id, address)`: the read is a range of the answer's rows. Label writes,
 * cluster merges and the SQLite bulk load keep it (`kysely-cluster-labels.ts`); this migration
 * fills it from the rows already stored.
 */
import { type Kysely, type Migration, sql } from "kysely";

/** Creates the table and fills it from the clusters and labels already stored. */
async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("utxo_cluster_labels")
    .addColumn("network", "text", (c) => c.notNull())
    .addColumn("cluster_id", "text", (c) => c.notNull())
    .addColumn("address", "text", (c) => c.notNull())
    .addPrimaryKeyConstraint("utxo_cluster_labels_pk", ["network", "cluster_id", "address"])
    .execute();
  await sql`insert into utxo_cluster_labels (network, cluster_id, address)
    select c.network, c.cluster_id, c.address from utxo_clusters c
    where exists (select 1 from attributions a where a.network = c.network and a.address = c.address)
       or exists (select 1 from sanctions_listings l where l.address = c.address)`.execute(db);
}

/** Drops it. */
async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("utxo_cluster_labels").execute();
}

/** The kept labelled cluster members migration. */
export const clusterLabelsMigration: Migration = { up, down };
