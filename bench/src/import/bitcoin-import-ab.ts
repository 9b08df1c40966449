/**
 * A/B of two checkouts' whole-file Bitcoin import in one process (docs/benchmarks.md, "Bitcoin
 * import end to end"): `importFile` and the SQLite store of this checkout and of another
 * (`--other`, a worktree at the commit to compare with, its dependencies installed) import the
 * same generated files (`bitcoin-import-bench.ts --data DIR` writes and keeps them) into fresh
 * SQLite files, format by format, the two variants alternating, `--rounds` times each. Reported
 * per import: wall rate and CPU per 1,000 transactions (the process's user + system time, the
 * sorter threads included); both imports must add every transaction and reject none, with the
 * same clustering summary.
 *
 *   node --conditions=source --import tsx src/import/bitcoin-import-ab.ts --data DIR [--txs 200000]
 *     [--rounds 2] --other /work/wt/NAME-base [--formats bitcoin-core,esplora,bitcoin-blocks]
 */
import { rmSync } from "node:fs";
import { loadavg } from "node:os";
import { join } from "node:path";
import { bitcoinAbOptions } from "./bitcoin-ab-options.js";

const {
  data: DATA,
  rounds: ROUNDS,
  other: OTHER,
  here: HERE,
  formats: FORMATS,
  files,
  fileOf,
} = bitcoinAbOptions(2);

type Datasets = typeof import("@openkyt/datasets");
type StoreModule = typeof import("@openkyt/store-sqlite");
const load = async (root: string) => ({
  datasets: (await import(join(root, "packages/datasets/src/index.ts"))) as Datasets,
  sqlite: (await import(join(root, "packages/store-sqlite/src/index.ts"))) as StoreModule,
});
const variants = [
  { name: "other", ...(await load(OTHER)) },
  { name: "this", ...(await load(HERE)) },
];

for (const format of FORMATS) {
  for (let round = 0; round < ROUNDS; round++) {
    const prints: string[] = [];
    for (const variant of variants) {
      const db = join(DATA, `ab-${variant.name}.db`);
      rmSync(db, { force: true });
      const store = await variant.sqlite.createSqliteStore({ filename: db });
      try {
        const cpu = process.cpuUsage();
        const started = performance.now();
        const summary = await variant.datasets.importFile(store, {
          kind: "ledger",
          file: fileOf(format),
          format,
          exclusiveStore: true,
        });
        const wall = performance.now() - started;
        const used = process.cpuUsage(cpu);
        if (summary.added !== files.transactions || summary.rejected !== 0)
          throw new Error(`${variant.name} ${format}: ${summary.added} added, ${summary.rejected} rejected`);
        prints.push(JSON.stringify(summary.utxo?.clustering ?? null));
        const cpuPer1k = (used.user + used.system) / 1000 / (files.transactions / 1000);
        console.log(
          `${format} round ${round + 1} ${variant.name}: ${Math.round(files.transactions / (wall / 1000))} tx/s, ${cpuPer1k.toFixed(1)} ms CPU per 1,000 tx (load ${loadavg()[0]?.toFixed(1)})`,
        );
      } finally {
        await store.close();
        rmSync(db, { force: true });
        rmSync(`${db}-wal`, { force: true });
        rmSync(`${db}-shm`, { force: true });
      }
    }
    if (prints[0] !== prints[1]) throw new Error(`${format}: the clustering summaries differ`);
  }
}
