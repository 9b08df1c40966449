/**
 * A screening worker of the Postgres throughput benchmark: runs the engine's job runner on one
 * schema (labels and sanctions cached) and prints `checked N` (transfers checked so far) every
 * 50 ms until SIGTERM.
 *
 *   node --conditions=source --import tsx postgres-worker-child.ts <postgres-url> <schema>
 */
import {
  cachingAttributionSource,
  cachingSanctionsSource,
  createEngine,
  storeAttributionSource,
  storeSanctionsSource,
} from "@openkyt/core";
import { createPostgresStore } from "@openkyt/store-postgres";

const [url = "", schema = ""] = process.argv.slice(2);
const store = await createPostgresStore({ connectionString: url, schema, pool: { max: 8 } });
// The ledger is read from Postgres (it has no stored order to follow warm); labels and
// sanctions answers are cached as a warm SQLite process caches them.
const engine = createEngine({
  store,
  attributions: cachingAttributionSource(storeAttributionSource(store)),
  sanctions: cachingSanctionsSource(storeSanctionsSource(store)),
  jobs: { concurrency: 128, pollIntervalMs: 20, workerId: `bench-worker-${process.pid}` },
});
let checked = 0;
engine.events.on("transfer.checked", () => {
  checked += 1;
});
engine.events.on("job.failed", (f) => process.stderr.write(`job ${f.kind} failed: ${f.reason}\n`));
const report = setInterval(() => process.stdout.write(`checked ${checked}\n`), 50);
process.once("SIGTERM", async () => {
  clearInterval(report);
  await engine.stop();
  await store.close();
  process.stdout.write(`checked ${checked}\nstopped\n`);
  process.exit(0);
});
engine.start();
process.stdout.write("ready\n");
