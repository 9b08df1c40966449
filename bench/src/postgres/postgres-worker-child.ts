/**
 * A screening worker of the Postgres throughput benchmark: runs the engine's job runner on one
 * schema with warm sources (the ledger loaded into memory and followed by its sequence, labels
 * and sanctions held whole), prints `warm ROWS MS RSS_MB` once loaded, then `checked N CPU_MS`
 * (transfers checked so far, CPU this process used since it was ready) every 50 ms until SIGTERM.
 *
 * With `threads` > 0 the traces run on a screening pool of that many threads over one shared
 * copy of the ledger (`createPooledWarmSources`, as `openkyt worker --warm --screening-threads N`).
 *
 *   node --conditions=source --import tsx postgres-worker-child.ts <postgres-url> <schema> [threads]
 */
import { createEngine, createWarmSources } from "@openkyt/core";
import { createPooledWarmSources } from "@openkyt/runtime-node";
import { createPostgresStore } from "@openkyt/store-postgres";

const [url = "", schema = "", threadsArg = "0"] = process.argv.slice(2);
const threads = Number(threadsArg);
const store = await createPostgresStore({ connectionString: url, schema, pool: { max: 8 } });
const loadStarted = performance.now();
const pooled = threads > 0 ? await createPooledWarmSources(store, { pool: { threads } }) : null;
const sources = pooled ?? (await createWarmSources(store));
const loadMs = performance.now() - loadStarted;
process.stdout.write(
  `warm ${sources.ledger.size} ${Math.round(loadMs)} ${Math.round(process.memoryUsage().rss / 2 ** 20)}\n`,
);
const engine = createEngine({
  store,
  ...sources,
  jobs: { concurrency: 128, pollIntervalMs: 20, workerId: `bench-worker-${process.pid}` },
});
let checked = 0;
engine.events.on("transfer.checked", () => {
  checked += 1;
});
engine.events.on("job.failed", (f) => process.stderr.write(`job ${f.kind} failed: ${f.reason}\n`));
let cpu0 = process.cpuUsage();
const cpuMs = () => {
  const used = process.cpuUsage(cpu0);
  return Math.round((used.user + used.system) / 1000);
};
const report = setInterval(() => process.stdout.write(`checked ${checked} ${cpuMs()}\n`), 50);
process.once("SIGTERM", async () => {
  clearInterval(report);
  await engine.stop();
  await pooled?.close();
  await store.close();
  process.stdout.write(`checked ${checked} ${cpuMs()}\nstopped\n`);
  process.exit(0);
});
engine.start();
cpu0 = process.cpuUsage();
process.stdout.write("ready\n");
