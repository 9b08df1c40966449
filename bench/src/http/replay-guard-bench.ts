/**
 * The cost of one replay-guard admission, in process: the memory guard against the SQLite
 * store's table (a file in WAL mode, as `openkyt serve` opens it) and, when a server answers at
 * OPENKYT_BENCH_PG_URL, the Postgres store's table. Reports CPU ms and wall ms per admission,
 * sequential (one request at a time) and 32 at once. What `auto` chooses rests on this: see
 * docs/benchmarks.md ("The replay guard").
 *
 *   node --conditions=source --import tsx bench/src/http/replay-guard-bench.ts [--count N]
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createMemoryReplayGuard, type ReplayGuardPort } from "@openkyt/core";
import { createPostgresStore, dropSchema, openPostgresDatabase } from "@openkyt/store-postgres";
import { createSqliteStore } from "@openkyt/store-sqlite";

const at = process.argv.indexOf("--count");
const COUNT = at === -1 ? 20_000 : Number(process.argv[at + 1]);
const WINDOW = 300_000;

/** CPU and wall ms per admission of `count` fresh signatures, `parallel` at a time. */
async function measure(guard: ReplayGuardPort, parallel: number, tag: string) {
  const now = Date.now();
  const cpu = process.cpuUsage();
  const start = performance.now();
  for (let i = 0; i < COUNT; i += parallel) {
    const batch: Array<Promise<unknown>> = [];
    for (let j = i; j < Math.min(COUNT, i + parallel); j++) {
      batch.push(guard.admit(`key-${j % 10}`, `${tag}-${j}-${"x".repeat(32)}`, now + WINDOW, now));
    }
    await Promise.all(batch);
  }
  const wall = performance.now() - start;
  const used = process.cpuUsage(cpu);
  return {
    cpuMsPerAdmission: Number(((used.user + used.system) / 1000 / COUNT).toFixed(4)),
    wallMsPerAdmission: Number((wall / COUNT).toFixed(4)),
  };
}

const results: Record<string, unknown> = {};
const memory = createMemoryReplayGuard();
results.memory = { sequential: await measure(memory, 1, "s"), parallel32: await measure(memory, 32, "p") };

const dir = mkdtempSync(join(tmpdir(), "openkyt-replay-bench-"));
const sqlite = await createSqliteStore({ filename: join(dir, "kyt.db") });
const sqliteGuard: ReplayGuardPort = { admit: (...a) => sqlite.admitRequestSignature(...a) };
results.sqlite = {
  sequential: await measure(sqliteGuard, 1, "s"),
  parallel32: await measure(sqliteGuard, 32, "p"),
};
await sqlite.close();
rmSync(dir, { recursive: true, force: true });

const pgUrl = process.env.OPENKYT_BENCH_PG_URL;
if (pgUrl) {
  const schema = `kyt_replay_bench_${process.pid}`;
  const pg = await createPostgresStore({ connectionString: pgUrl, schema, migrate: true });
  const pgGuard: ReplayGuardPort = { admit: (...a) => pg.admitRequestSignature(...a) };
  results.postgres = {
    sequential: await measure(pgGuard, 1, "s"),
    parallel32: await measure(pgGuard, 32, "p"),
  };
  await pg.close();
  const admin = openPostgresDatabase({ connectionString: pgUrl, schema: "public", pool: { max: 1 } });
  await dropSchema(admin, schema);
  await admin.destroy();
}
console.log(JSON.stringify({ count: COUNT, ...results }, null, 1));
