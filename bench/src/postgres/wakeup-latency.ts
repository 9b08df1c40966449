/**
 * How long a job enqueued by another process waits before a started, idle engine claims it, on
 * Postgres, with the store's job watch (LISTEN/NOTIFY, `jobs.watch`, the default) and without
 * it (polling every `jobs.pollIntervalMs`, 250 ms): issue 33's first cause of latency besides
 * the CPU. A/B in one process, rounds alternating: in each round a started engine on one store
 * (pool) runs manual address checks that an engine on a second store instance (its own pool,
 * as another process would) enqueues one at a time, evenly spaced; per job, enqueue -> claim
 * (the `jobs.claimed` event's time less the job's `createdAt`, one clock) and enqueue -> settled.
 * Both figures exclude registration's own time; the checks are tiny (the test world), so what
 * is left is the wait and the claim.
 *
 *   node --conditions=source --import tsx bench/src/postgres/wakeup-latency.ts [jobs per round=100] [gap ms=40] [rounds per mode=2]
 *   (OPENKYT_BENCH_PG: server URL; schema wakeup_latency_<pid>, dropped at the end)
 */
import { createEngine, type Engine } from "@openkyt/core";
import { createPostgresStore, dropSchema, openPostgresDatabase } from "@openkyt/store-postgres";
import { loadWorld, W } from "@openkyt/testkit";
import { percentile } from "../bench-stats.js";

const [perRoundArg = "100", gapArg = "40", roundsArg = "2"] = process.argv.slice(2);
const perRound = Number(perRoundArg);
const gapMs = Number(gapArg);
const rounds = Number(roundsArg);
const url = process.env.OPENKYT_BENCH_PG ?? "postgres://127.0.0.1:5432/test";
const schema = `wakeup_latency_${process.pid}`;

/** One round: a started engine (watch on or off) runs `perRound` checks enqueued through `other`. */
async function round(watch: boolean, enqueuer: Engine): Promise<{ claim: number[]; settled: number[] }> {
  const store = await createPostgresStore({ connectionString: url, schema });
  const engine = createEngine({ store, jobs: { watch } });
  const claimed = new Map<string, number>();
  const settled = new Map<string, number>();
  const created = new Map<string, number>();
  engine.events.on("jobs.claimed", ({ jobs }) => {
    const now = Date.now();
    for (const job of jobs) {
      claimed.set(job.id, now);
      created.set(job.id, job.createdAt);
    }
  });
  engine.events.on("job.settled", ({ job }) => settled.set(job.id, Date.now()));
  engine.start();
  // Let the runner go idle (its first claim finds nothing) and the watch listen.
  await new Promise((resolve) => setTimeout(resolve, 500));
  const api = enqueuer.forAccount("acme");
  const started = performance.now();
  for (let i = 0; i < perRound; i++) {
    const wait = started + i * gapMs - performance.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    await api.checkAddress({ network: "ETH", address: W.sanctioned });
  }
  while (settled.size < perRound) await new Promise((resolve) => setTimeout(resolve, 20));
  await engine.stop();
  await store.close();
  const ids = [...created.keys()];
  return {
    claim: ids.map((id) => (claimed.get(id) ?? 0) - (created.get(id) ?? 0)),
    settled: ids.map((id) => (settled.get(id) ?? 0) - (created.get(id) ?? 0)),
  };
}

const admin = openPostgresDatabase({ connectionString: url, schema, pool: { max: 1 } });
const seed = await createPostgresStore({ connectionString: url, schema, migrate: true });
try {
  await loadWorld(createEngine({ store: seed }));
  const enqueuer = createEngine({ store: seed, jobs: { runsElsewhere: true } });
  const results = new Map<boolean, { claim: number[]; settled: number[] }>([
    [true, { claim: [], settled: [] }],
    [false, { claim: [], settled: [] }],
  ]);
  for (let r = 0; r < rounds; r++) {
    for (const watch of r % 2 === 0 ? [true, false] : [false, true]) {
      const got = await round(watch, enqueuer);
      results.get(watch)?.claim.push(...got.claim);
      results.get(watch)?.settled.push(...got.settled);
    }
  }
  for (const [watch, { claim, settled }] of results) {
    const c = [...claim].sort((a, b) => a - b);
    const s = [...settled].sort((a, b) => a - b);
    console.log(
      `${watch ? "watch (LISTEN/NOTIFY)" : "polling only     "}: enqueue -> claim p50 ${percentile(c, 50).toFixed(0)} ms, p99 ${percentile(c, 99).toFixed(0)} ms; enqueue -> settled p50 ${percentile(s, 50).toFixed(0)} ms, p99 ${percentile(s, 99).toFixed(0)} ms (${c.length} jobs)`,
    );
  }
} finally {
  await seed.close();
  await dropSchema(admin, schema);
  await admin.destroy();
}
