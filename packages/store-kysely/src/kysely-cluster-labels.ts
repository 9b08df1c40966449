/**
 * The kept labelled members of the address clusters (`utxo_cluster_labels`, migration 0090): a
 * clustered address with an attribution on its network or a sanctions listing, by cluster, so
 * that `clusterLabelledMembers` reads the answer's rows instead of walking the whole cluster.
 * Every write that can make a clustered address labelled calls one of these in its own
 * transaction: a label landing (`putAttributions`, `putSanctions`) and an address joining a
 * cluster (`mergeAddressClusters`, the SQLite bulk load); a merge that relabels a cluster moves
 * its labelled rows with it. Labels are never removed, so no write takes a row away.
 */

import type { Kysely } from "kysely";
import { sql } from "kysely";
import type { Database } from "./kysely-schema.js";
import { chunksOf, IN_LIST_CHUNK } from "./kysely-values.js";

/**
 * Records the clustered ones of `addresses`, which were just labelled, as labelled members of
 * their clusters: on `network` (an attribution's), or on every network when `network` is null
 * (a sanctions listing names an address on any chain). Rows already kept are left alone.
 */
export async function keepLabelledAddresses(
  db: Kysely<Database>,
  network: string | null,
  addresses: ReadonlyArray<string>,
): Promise<void> {
  for (const chunk of chunksOf([...new Set(addresses)], IN_LIST_CHUNK)) {
    let members = db
      .selectFrom("utxo_clusters as c")
      .select(["c.network", "c.cluster_id", "c.address"])
      .where("c.address", "in", chunk);
    if (network !== null) members = members.where("c.network", "=", network);
    await db
      .insertInto("utxo_cluster_labels")
      .columns(["network", "cluster_id", "address"])
      .expression(members)
      .onConflict((oc) => oc.doNothing())
      .execute();
  }
}

/**
 * Records the labelled ones of `addresses`, which just joined clusters of `network`, as labelled
 * members of their clusters (an attribution on `network` or a sanctions listing makes one).
 */
export async function keepLabelledNewcomers(
  db: Kysely<Database>,
  network: string,
  addresses: ReadonlyArray<string>,
): Promise<void> {
  for (const chunk of chunksOf([...new Set(addresses)], IN_LIST_CHUNK)) {
    await db
      .insertInto("utxo_cluster_labels")
      .columns(["network", "cluster_id", "address"])
      .expression(
        db
          .selectFrom("utxo_clusters as c")
          .select(["c.network", "c.cluster_id", "c.address"])
          .where("c.network", "=", network)
          .where("c.address", "in", chunk)
          .where((eb) =>
            eb.or([
              eb.exists(
                eb
                  .selectFrom("attributions as a")
                  .select(sql`1`.as("one"))
                  .whereRef("a.address", "=", "c.address")
                  .whereRef("a.network", "=", "c.network"),
              ),
              eb.exists(
                eb
                  .selectFrom("sanctions_listings as l")
                  .select(sql`1`.as("one"))
                  .whereRef("l.address", "=", "c.address"),
              ),
            ]),
          ),
      )
      .onConflict((oc) => oc.doNothing())
      .execute();
  }
}

/** Moves the kept labelled members of cluster `from` to cluster `to` (a merge swallowed `from`). */
export async function moveLabelledMembers(
  db: Kysely<Database>,
  network: string,
  from: string,
  to: string,
): Promise<void> {
  await db
    .updateTable("utxo_cluster_labels")
    .set({ cluster_id: to })
    .where("network", "=", network)
    .where("cluster_id", "=", from)
    .execute();
}
