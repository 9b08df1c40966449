/**
 * The long crash run: many transfers, several worker processes, many SIGKILLs, on Postgres (a
 * fresh schema, dropped after) or a SQLite file (one worker at a time). Prints what it did and
 * what the checks found; exits 1 when anything was lost, duplicated or wrong.
 *
 *   node --conditions=source --import tsx bench/src/crash/crash-run.ts \
 *     [--store postgres|sqlite] [--db postgres://127.0.0.1:5432/test] \
 *     [--transfers 10000] [--workers 3] [--kills 10] [--lease-ms 3000] [--concurrency 8]
 *     [--kill-min-ms 1000] [--kill-max-ms 4000] [--timeout-ms 1800000] [--seed 1]
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { dropSchema, openPostgresDatabase } from "@openkyt/store-postgres";
import { type CrashReport, runCrash } from "./crash-driver.js";

/** The value after `flag` on the command line. */
function arg(flag: string): string | undefined {
  const at = process.argv.indexOf(flag);
  return at >= 0 ? process.argv[at + 1] : undefined;
}
const numberArg = (flag: string, fallback: number) => Number(arg(flag) ?? fallback);

/** The report as aligned lines. */
function printReport(kind: string, report: CrashReport): void {
  const rows: Array<[string, string | number]> = [
    ["store", kind],
    ["worker processes", report.workers],
    ["kills survived (SIGKILL, restarted)", report.kills],
    ["transfers registered", report.registered],
    ["transfers processed (settled)", report.bound + report.notFound + report.errored],
    ["  bound, every check checked", report.bound],
    ["  not_found", report.notFound],
    ["  error", report.errored],
    ["lost (not settled, no job left)", report.lost],
    ["still pending when the run stopped", report.pending],
    ["wrong outcome", report.wrong],
    ["duplicated transfers", report.duplicatedTransfers],
    ["duplicated alerts", report.duplicatedAlerts],
    ["duplicated risks", report.duplicatedRisks],
    ["jobs left", report.jobsLeft],
    ["graceful stop exit codes", report.stopCodes.join(", ")],
    ["elapsed", `${(report.elapsedMs / 1000).toFixed(1)} s`],
    ["throughput", `${((report.registered / report.elapsedMs) * 1000).toFixed(0)} transfers/s`],
  ];
  const width = Math.max(...rows.map(([label]) => label.length));
  for (const [label, value] of rows) console.log(`${label.padEnd(width)}  ${value}`);
}

const store = arg("--store") ?? "postgres";
const common = {
  transfers: numberArg("--transfers", 10_000),
  kills: numberArg("--kills", 10),
  killDelayMs: { min: numberArg("--kill-min-ms", 1_000), max: numberArg("--kill-max-ms", 4_000) },
  worker: { leaseMs: numberArg("--lease-ms", 3_000), concurrency: numberArg("--concurrency", 8) },
  seed: numberArg("--seed", 1),
  timeoutMs: numberArg("--timeout-ms", 30 * 60_000),
  log: (line: string) => console.error(`[crash] ${new Date().toISOString().slice(11, 23)} ${line}`),
};

let report: CrashReport;
if (store === "sqlite") {
  const directory = await mkdtemp(join(tmpdir(), "openkyt-crash-"));
  try {
    report = await runCrash({ ...common, db: join(directory, "crash.db"), workers: 1 });
  } finally {
    await rm(directory, { recursive: true, force: true });
  }
} else {
  const url = arg("--db") ?? process.env.OPENKYT_TEST_PG_URL ?? "postgres://127.0.0.1:5432/test";
  const schema = `kyt_crash_${process.pid}`;
  try {
    report = await runCrash({ ...common, db: url, schema, workers: numberArg("--workers", 3) });
  } finally {
    const admin = openPostgresDatabase({ connectionString: url, schema });
    await dropSchema(admin, schema);
    await admin.destroy();
  }
}
printReport(store, report);
if (report.stderrTail.length > 0) console.error(report.stderrTail.slice(-10).join("\n"));
const clean =
  report.settled &&
  report.lost + report.pending + report.wrong + report.errored + report.jobsLeft === 0 &&
  report.duplicatedTransfers + report.duplicatedAlerts + report.duplicatedRisks === 0;
process.exit(clean ? 0 : 1);
