/**
 * One warm screening run in this process, for `node --cpu-prof`: the README's embedding API
 * (`registerTransfer`, the runner started, warm sources) on a generated ledger, `INFLIGHT`
 * registrations at a time. Prints transfers/s, CPU per transfer and SQL statements per transfer.
 *
 *   node --conditions=source --import tsx --max-semi-space-size=64 [--cpu-prof] \
 *     bench/src/screening-profile.ts [ledgerSize=100000] [transfers=4000] [runs=1] [shape=real|classic]
 *
 * The README's API runs every trace on the main thread; `OPENKYT_BENCH_THREADS=N` runs them on
 * a screening pool of N threads instead (`createPooledWarmSources`), so that the profile, which
 * is the main thread's, shows the main thread's own work (`OPENKYT_BENCH_CPU_PROF=file` writes
 * the last run's).
 */
import { writeFileSync } from "node:fs";
import { Session } from "node:inspector/promises";
import type { LedgerShapeName } from "@openkyt/testkit";
import { ledgerDatabase } from "./bench-ledger-db.js";
import { screeningThroughput } from "./bench-screening.js";
import { countSqlStatements } from "./bench-sql-count.js";

const [size = "100000", count = "4000", runs = "1", shapeArg = "real"] = process.argv.slice(2);
if (shapeArg !== "real" && shapeArg !== "classic")
  throw new Error(`shape must be real or classic, not ${shapeArg}`);
const shape: LedgerShapeName = shapeArg;
await ledgerDatabase(Number(size), shape);
const profileFile = process.env.OPENKYT_BENCH_CPU_PROF;
for (let i = 0; i < Number(runs); i++) {
  const session = profileFile && i === Number(runs) - 1 ? new Session() : null;
  const r = await screeningThroughput(
    Number(size),
    true,
    Number(count),
    {
      async before() {
        if (!session) return;
        session.connect();
        await session.post("Profiler.enable");
        await session.post("Profiler.start");
      },
      async after() {
        if (!session) return;
        const { profile } = await session.post("Profiler.stop");
        writeFileSync(profileFile as string, JSON.stringify(profile));
        session.disconnect();
      },
    },
    shape,
  );
  console.log(
    `${shape} ledger ${size}, ${count} transfers: ${r.rate.toFixed(0)}/s, ${r.cpuMs.toFixed(3)} ms CPU/transfer (main thread ${r.mainCpuMs.toFixed(3)}), ` +
      `${r.statements.toFixed(1)} SQL statements/transfer, ${r.alerts} alerts`,
  );
  const sql = countSqlStatements();
  for (const [text, ms] of sql.slowest(30)) {
    const n = sql.top(1_000).find(([t]) => t === text)?.[1] ?? 0;
    console.log(
      `  ${(ms / Number(count)).toFixed(4)} ms/transfer  ${(n / Number(count)).toFixed(2)}/transfer  ${text}`,
    );
  }
}
