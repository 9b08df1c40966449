/**
 * A screening worker of the cold-trace benchmark, as `openkyt worker` runs without `--warm`:
 * the engine over the store with the CLI's cold sources (`createColdSources`: every hop read
 * from the database, labels and sanctions held whole, tokens and prices cached);
 * OPENKYT_BENCH_COLD_PLAIN=1 gives it the engine's own defaults instead (every lookup asked of
 * the store). Prints `ready` once the runner started, then `checked N CPU_MS` (transfers checked
 * so far, CPU this process used since it was ready) every 50 ms until SIGTERM.
 *
 *   node --conditions=source --import tsx cold-worker-child.ts sqlite <file>
 *   node --conditions=source --import tsx cold-worker-child.ts postgres <url> <schema>
 */
import { createColdSources, createEngine, type Store } from "@openkyt/core";
import { createPostgresStore } from "@openkyt/store-postgres";
import { createSqliteStore } from "@openkyt/store-sqlite";

const [kind = "", target = "", schema = ""] = process.argv.slice(2);
const store: Store =
  kind === "postgres"
    ? await createPostgresStore({ connectionString: target, schema })
    : await createSqliteStore({ filename: target, migrate: false });
const sources = process.env.OPENKYT_BENCH_COLD_PLAIN === "1" ? {} : await createColdSources(store);
const engine = createEngine({
  store,
  ...sources,
  jobs: { pollIntervalMs: 20, workerId: `cold-worker-${process.pid}` },
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
  await store.close();
  process.stdout.write(`checked ${checked} ${cpuMs()}\nstopped\n`);
  process.exit(0);
});
cpu0 = process.cpuUsage();
engine.start();
process.stdout.write("ready\n");
