/**
 * The soak run: a server process on Postgres (a fresh schema, dropped after) and mixed traffic
 * against it for a configurable time, then a wait until every job is done. Prints requests
 * served, answers by kind, latency percentiles, the server's RSS at start and end, and the
 * transfers it acknowledged that were lost (must be 0). Exits 1 on a lost transfer or an
 * unexpected answer.
 *
 *   node --conditions=source --import tsx bench/src/soak/soak.ts \
 *     [--seconds 60] [--workers 16] [--db postgres://127.0.0.1:5432/test] [--seed 1]
 */
import { type ChildProcess, spawn } from "node:child_process";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { createPostgresStore, dropSchema, openPostgresDatabase } from "@openkyt/store-postgres";
import { generateLedger, seededRandom } from "@openkyt/testkit";
import { argValue, type ServerLine, SOAK_LEDGER } from "./soak-settings.js";
import { checkSettled, type SettleReport } from "./soak-settle.js";
import { newTally, runTraffic, type TrafficTally } from "./soak-traffic.js";

const seconds = Number(argValue("--seconds", "60"));
const workers = Number(argValue("--workers", "16"));
const db = argValue("--db", "postgres://127.0.0.1:5432/test");
const seed = Number(argValue("--seed", "1"));
const schema = `openkyt_soak_${process.pid}_${Date.now().toString(36)}`;

/** Starts the server process; resolves with it, its port and every memory line it prints. */
async function startServer(): Promise<{ child: ChildProcess; port: number; memory: ServerLine[] }> {
  const script = fileURLToPath(new URL("./soak-server.ts", import.meta.url));
  const child = spawn(
    process.execPath,
    ["--conditions=source", "--import", "tsx", script, "--db", db, "--schema", schema],
    { stdio: ["ignore", "pipe", "inherit"] },
  );
  const memory: ServerLine[] = [];
  const port = await new Promise<number>((resolve, reject) => {
    createInterface({ input: child.stdout as NodeJS.ReadableStream }).on("line", (line) => {
      const parsed = JSON.parse(line) as ServerLine;
      memory.push(parsed);
      if (parsed.port !== undefined) resolve(parsed.port);
    });
    child.once("exit", (code) => reject(new Error(`the soak server exited ${code}`)));
  });
  return { child, port, memory };
}

const mb = (bytes: number | undefined) => (bytes === undefined ? "n/a" : `${(bytes / 1e6).toFixed(0)} MB`);

function percentile(sorted: number[], q: number): string {
  return `${(sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0).toFixed(1)} ms`;
}

function printReport(tally: TrafficTally, memory: ServerLine[], settled: SettleReport, ms: number): void {
  const sorted = [...tally.latencies].sort((a, b) => a - b);
  const rows: Array<[string, string | number]> = [
    ["store", `Postgres ${db} (schema ${schema}, dropped after)`],
    ["traffic", `${seconds} s, ${workers} concurrent workers`],
    ["requests served", tally.served],
    ["requests per second", (tally.served / seconds).toFixed(0)],
    [
      "latency p50 / p99 / max",
      `${percentile(sorted, 0.5)} / ${percentile(sorted, 0.99)} / ${percentile(sorted, 1)}`,
    ],
    ["unexpected answers", tally.unexpected],
    ["server RSS at start (after loading)", mb(memory[0]?.rss)],
    ["server RSS, highest seen", mb(Math.max(...memory.map((m) => m.rss)))],
    ["server RSS at end (after the traffic)", mb(memory.at(-2)?.rss)],
    ["transfers acknowledged", settled.acknowledged],
    ["  settled (bound, not_found or error; checks done)", settled.settled],
    ["  still pending after the wait", settled.pending],
    ["transfers lost", settled.lost],
    ["jobs left", settled.jobsLeft],
    ["settling took", `${(ms / 1000).toFixed(1)} s`],
  ];
  const width = Math.max(...rows.map(([k]) => k.length));
  console.log("\nsoak run");
  for (const [k, v] of rows) console.log(`  ${k.padEnd(width)}  ${v}`);
  console.log("\nanswers by kind");
  for (const [kind, n] of [...tally.kinds].sort((a, b) => b[1] - a[1]))
    console.log(`  ${String(n).padStart(8)}  ${kind}`);
}

const server = await startServer();
const tally = newTally();
const ledger = generateLedger(SOAK_LEDGER).transfers;
console.log(`soak: ${seconds} s of mixed traffic, ${workers} workers, server on 127.0.0.1:${server.port}`);
await runTraffic({
  baseUrl: `http://127.0.0.1:${server.port}`,
  ledger,
  workers,
  deadline: Date.now() + seconds * 1000,
  random: seededRandom(seed),
  tally,
});
const store = await createPostgresStore({ connectionString: db, schema });
const settleStarted = performance.now();
let settled: SettleReport;
try {
  settled = await checkSettled(store, tally.registered, 120_000);
} finally {
  await store.close();
}
const settleMs = performance.now() - settleStarted;
server.child.kill("SIGTERM");
await new Promise((resolve) => server.child.once("exit", resolve));
const admin = openPostgresDatabase({ connectionString: db, schema });
await dropSchema(admin, schema);
await admin.destroy();
printReport(tally, server.memory, settled, settleMs);
process.exit(settled.lost === 0 && tally.unexpected === 0 ? 0 : 1);
