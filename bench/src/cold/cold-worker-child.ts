/**
 * A screening worker of the cold-trace benchmark, as `openkyt worker` runs without `--warm`:
 * the engine over the store with the CLI's cold sources (`createColdSources`: every hop read
 * from the database, labels and sanctions held whole, tokens and prices cached);
 * OPENKYT_BENCH_COLD_PLAIN=1 gives it the engine's own defaults instead (every lookup asked of
 * the store). OPENKYT_HUB_CACHE_MB=N (N > 0) puts the hub cache of N MB in front of the store's
 * ledger, as `--hub-cache-mb N` does. Prints `ready` once the runner started, then
 * `checked N CPU_MS` (transfers checked so far, CPU this process used since it was ready) every
 * 50 ms until SIGTERM; then, on stopping, `hubs HUBS ROWS LOADED EVICTED` when the cache is on
 * and `heap BYTES` (heap used after a full collection, when started with --expose-gc).
 * OPENKYT_BENCH_COUNT_READS=1 also counts the ledger reads (`counting-ledger.ts`) the tracer
 * makes and those the store answers, printed as `reads traced ...` and `reads store ...`.
 * OPENKYT_BENCH_COUNT_SQL=1 (Postgres) counts the statements the worker sent, by their first
 * 70 characters, printed as `sql COUNT TEXT` lines on stopping, most frequent first.
 *
 *   node --conditions=source --import tsx cold-worker-child.ts sqlite <file>
 *   node --conditions=source --import tsx cold-worker-child.ts postgres <url> <schema>
 */
import {
  createColdSources,
  createEngine,
  createHubCachedLedger,
  type HubCachedLedger,
  type LedgerReader,
  type Store,
} from "@openkyt/core";
import { createPostgresStore } from "@openkyt/store-postgres";
import { createSqliteStore } from "@openkyt/store-sqlite";
import { countingLedger, formatTallies, type LedgerTallies } from "./counting-ledger.js";

const [kind = "", target = "", schema = ""] = process.argv.slice(2);
const statements = new Map<string, number>();
const countSql = process.env.OPENKYT_BENCH_COUNT_SQL === "1";
const store: Store =
  kind === "postgres"
    ? await createPostgresStore({
        connectionString: target,
        schema,
        ...(countSql
          ? {
              onQuery: (e: { readonly sql: string }) => {
                const key = e.sql.replace(/\s+/g, " ").trim().slice(0, 70);
                statements.set(key, (statements.get(key) ?? 0) + 1);
              },
            }
          : {}),
      })
    : await createSqliteStore({ filename: target, migrate: false });
const hubCacheMb = Number(process.env.OPENKYT_HUB_CACHE_MB ?? 0);
const hubCache = hubCacheMb > 0 ? { maxBytes: hubCacheMb * 2 ** 20 } : false;
const counted = process.env.OPENKYT_BENCH_COUNT_READS === "1";
const traced: LedgerTallies = {};
const stored: LedgerTallies = {};
/** The cold sources; when counting, the hub cache put together here as createColdSources does. */
async function coldSources(): Promise<{ ledger?: LedgerReader; hubs?: HubCachedLedger | null }> {
  if (process.env.OPENKYT_BENCH_COLD_PLAIN === "1") return {};
  if (!counted) return createColdSources(store, { hubCache });
  const cold = await createColdSources(store, { hubCache: false });
  const hubs = hubCache ? await createHubCachedLedger(countingLedger(store, stored), store, hubCache) : null;
  return { ...cold, ledger: countingLedger(hubs ?? countingLedger(store, stored), traced), hubs };
}
const sources = await coldSources();
const engine = createEngine({
  store,
  ...sources,
  // OPENKYT_BENCH_POLL_MS: the runner's poll interval (default 20 ms, as the cold figures so far;
  // `openkyt worker`'s is the engine's 250 ms, with Postgres's job watch waking it).
  jobs: {
    pollIntervalMs: Number(process.env.OPENKYT_BENCH_POLL_MS ?? 20),
    workerId: `cold-worker-${process.pid}`,
  },
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
  const cpu = cpuMs();
  const held = sources as { ledger?: Partial<HubCachedLedger>; hubs?: HubCachedLedger | null };
  const hubs = (held.hubs ?? held.ledger)?.stats?.();
  if (hubs) process.stdout.write(`hubs ${hubs.hubs} ${hubs.rows} ${hubs.loaded} ${hubs.evicted}\n`);
  if (counted)
    process.stdout.write(`reads traced ${formatTallies(traced)}\nreads store ${formatTallies(stored)}\n`);
  for (const [sql, n] of [...statements].sort((a, b) => b[1] - a[1]))
    process.stdout.write(`sql ${n} ${sql}\n`);
  const gc = (globalThis as { gc?: () => void }).gc;
  if (gc) {
    gc();
    process.stdout.write(`heap ${process.memoryUsage().heapUsed}\n`);
  }
  await store.close();
  process.stdout.write(`checked ${checked} ${cpu}\nstopped\n`);
  process.exit(0);
});
cpu0 = process.cpuUsage();
engine.start();
process.stdout.write("ready\n");
