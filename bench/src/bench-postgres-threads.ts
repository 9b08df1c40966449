/**
 * Two warm Postgres workers (`openkyt worker --warm`), with their traces on the main thread and
 * on screening threads: the same registrations (64 in flight, from this process) over the same
 * ledger in one schema, one account per configuration. Skips (no figures) without Postgres at
 * OPENKYT_BENCH_PG (default postgres://127.0.0.1:5432/test).
 *
 *   npm run bench -- --only postgres-threads
 */
import type { Store } from "@openkyt/core";
import { createPostgresStore } from "@openkyt/store-postgres";
import { benchShape, loadGenerated } from "./bench-ledger-db.js";
import { screeningRun } from "./bench-postgres.js";
import { type Figure, figure } from "./bench-stats.js";
import { sampleTransfers } from "./bench-tracing.js";
import { runPsql } from "./crash/postgres-psql.js";

const URL_DEFAULT = "postgres://127.0.0.1:5432/test";

/** Two workers with 0, 1 and 2 screening threads each. */
export async function benchPostgresThreads(ledgerSize: number, quick: boolean): Promise<Figure[]> {
  const url = process.env.OPENKYT_BENCH_PG ?? URL_DEFAULT;
  const schema = `bench_threads_${process.pid}`;
  let store: Store;
  try {
    store = await createPostgresStore({ connectionString: url, schema, migrate: true, pool: { max: 8 } });
  } catch (error) {
    console.error(`postgres-threads benchmark skipped: no Postgres at ${url} (${String(error)})`);
    return [];
  }
  try {
    const size = Math.min(ledgerSize, 1_000_000);
    const t0 = performance.now();
    await loadGenerated(store, benchShape(size));
    console.error(
      `postgres-threads: ${size} rows loaded in ${((performance.now() - t0) / 1000).toFixed(1)} s`,
    );
    const count = quick ? 300 : 3_000;
    const sample = await sampleTransfers(store, size, count);
    const figures: Figure[] = [];
    for (const threads of quick ? [0, 1] : [0, 1, 2]) {
      const run = await screeningRun(store, url, schema, sample, 2, `threads-${threads}`, threads);
      figures.push(
        figure(
          `Postgres, 2 warm workers, ${threads} screening thread${threads === 1 ? "" : "s"} each (${count} transfers, ledger ${size.toLocaleString("en-US")})`,
          "transfers/s",
          [run.rate],
          ">= 1,500",
        ),
        figure("  worker CPU per screened transfer (both workers, every thread)", "ms", [run.workerCpuMs]),
        figure("  Postgres server CPU per screened transfer", "ms", [run.postgresCpuMs]),
        ...(run.warm ? [figure("  worker RSS after loading", "MB", [run.warm.rssMb])] : []),
      );
    }
    return figures;
  } finally {
    await store.close();
    runPsql(url, "public", `drop schema if exists "${schema}" cascade;`);
  }
}
