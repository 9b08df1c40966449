/**
 * One cluster's labelled members, read two ways in one process (issue 31, item 8): the kept
 * labelled members (`clusterLabelledMembers`, migration 0090) against the walk of the whole
 * membership that read replaced (every member of the cluster in address order, each probed for
 * an attribution or a sanctions listing, the first `limit` labelled ones kept). The store is a
 * SQLite file with one cluster of `size` addresses, one in 200 attributed, as in the generated
 * ledger's giant cluster; both reads return the same rows, which is checked.
 *
 *   cd bench && node --conditions=source --import tsx src/bench-cluster-labels.ts [size]
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createSqliteStore } from "@openkyt/store-sqlite";
import Database from "better-sqlite3";

const LIMIT = 100;
const RUNS = 20;

/** The read before migration 0090: the cluster's members walked in address order. */
const WHOLE_WALK = `SELECT c.cluster_id, c.address FROM utxo_clusters c
  WHERE c.network = ? AND c.cluster_id IN (?)
    AND (EXISTS (SELECT a.address FROM attributions a WHERE a.address = c.address AND a.network = ?)
      OR EXISTS (SELECT l.address FROM sanctions_listings l WHERE l.address = c.address))
  ORDER BY c.cluster_id, c.address`;

/** Mean CPU ms of `RUNS` calls of `read`, after one warm-up call. */
async function cpuPerRead(read: () => Promise<unknown> | unknown): Promise<number> {
  await read();
  const start = process.cpuUsage();
  for (let i = 0; i < RUNS; i++) await read();
  const used = process.cpuUsage(start);
  return (used.user + used.system) / 1000 / RUNS;
}

async function main(): Promise<void> {
  const size = Number(process.argv[2] ?? 41_453);
  if (!Number.isInteger(size) || size < 2)
    throw new Error(`size must be an integer >= 2, got ${process.argv[2]}`);
  const dir = mkdtempSync(join(tmpdir(), "openkyt-cluster-labels-"));
  const filename = join(dir, "btc.sqlite");
  const store = await createSqliteStore({ filename });
  try {
    const members = Array.from({ length: size }, (_, i) => `bc1q${String(i).padStart(10, "0")}`);
    await store.mergeAddressClusters("BTC", [members]);
    const labels = members
      .filter((_, i) => i % 200 === 0)
      .map((address) => ({
        network: "BTC",
        address,
        entityName: "E",
        entityCategory: "exchange",
        source: null,
      }));
    await store.putAttributions(labels);
    const [cluster] = await store.addressClusters("BTC", [members[0]!]);
    const id = cluster!.clusterId;
    const kept = await store.clusterLabelledMembers("BTC", [id], LIMIT);

    const raw = new Database(filename, { readonly: true });
    const walk = raw.prepare(WHOLE_WALK);
    const walked = () =>
      (walk.all("BTC", id, "BTC") as Array<{ cluster_id: string; address: string }>)
        .slice(0, LIMIT)
        .map((r) => ({ clusterId: r.cluster_id, address: r.address }));
    if (JSON.stringify(walked()) !== JSON.stringify(kept)) throw new Error("the two reads disagree");

    const keptMs = await cpuPerRead(() => store.clusterLabelledMembers("BTC", [id], LIMIT));
    const walkMs = await cpuPerRead(walked);
    raw.close();
    console.log(
      `cluster of ${size} addresses, ${labels.length} labelled, ${kept.length} read: kept labelled members ${keptMs.toFixed(3)} ms CPU, whole-membership walk ${walkMs.toFixed(2)} ms CPU (x${(walkMs / keptMs).toFixed(0)})`,
    );
  } finally {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
