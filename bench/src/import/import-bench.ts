/**
 * The ledger import benchmark: generates a ledger CSV (5,000,000 rows unless `--rows N`) in a temp
 * folder, imports it with `@openkyt/datasets` into a fresh SQLite file, and prints rows/s and peak
 * RSS for each path, each run in a child process of its own so its peak RSS is its own:
 *
 * - `parse`: read and validate only (a writer that drops the rows): the importer's own ceiling;
 * - `bulk`:  the prototype bulk writer (./import-sqlite-bulk-writer.ts), the proposed fast path;
 * - `port`:  `Store.putLedgerTransfers`, a transaction per 5,000 rows, on the first
 *            `--port-rows` rows (default 200,000: the whole file would take far too long).
 *
 *   node --conditions=source --import tsx src/import/import-bench.ts [--rows N] [--port-rows N] [--paths parse,bulk,port]
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { cpus, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { importFile, type LedgerWriter } from "@openkyt/datasets";
import { createSqliteStore } from "@openkyt/store-sqlite";
import { writeLedgerCsv } from "./import-ledger-file.js";
import { sqliteBulkLedgerWriter } from "./import-sqlite-bulk-writer.js";

const PATHS = ["parse", "bulk", "port"] as const;
type BenchPath = (typeof PATHS)[number];

/** What one child reports. */
interface PathResult {
  readonly path: BenchPath;
  readonly rows: number;
  readonly added: number;
  readonly rejected: number;
  readonly seconds: number;
  readonly cpuSeconds: number;
  readonly peakRssMiB: number;
  /** Peak RSS before the import started (runtime, TypeScript loader, store). */
  readonly baseRssMiB: number;
  /** Bulk path: seconds spent staging, merging and rebuilding indexes. */
  readonly phases?: { staging: number; merge: number; indexes: number };
}

/** The value of `--name`, or the fallback. */
function option(name: string, fallback: string): string {
  const at = process.argv.indexOf(`--${name}`);
  return at >= 0 ? (process.argv[at + 1] ?? fallback) : fallback;
}

/** A writer that counts and drops rows. */
function discardingWriter(): LedgerWriter {
  let rows = 0;
  return {
    write: async (batch) => {
      rows += batch.length;
    },
    finish: async () => rows,
    abort: async () => {},
  };
}

/** Child: imports `file` along `path` into a fresh SQLite file and prints its result as JSON. */
async function runChild(path: BenchPath, file: string, dbFile: string): Promise<void> {
  const store = await createSqliteStore({ filename: dbFile });
  const baseRssMiB = process.resourceUsage().maxRSS / 1024;
  let phases: PathResult["phases"];
  const cpuBefore = process.cpuUsage();
  const started = performance.now();
  const ledgerWriter =
    path === "parse"
      ? discardingWriter()
      : path === "bulk"
        ? sqliteBulkLedgerWriter(dbFile, { onPhases: (p) => (phases = p) })
        : undefined;
  const summary = await importFile(store, { kind: "ledger", file, format: "csv", ledgerWriter });
  const seconds = (performance.now() - started) / 1000;
  await store.close();
  const cpu = process.cpuUsage(cpuBefore);
  const result: PathResult = {
    path,
    rows: summary.rowsRead,
    added: summary.added,
    rejected: summary.rejected,
    seconds,
    cpuSeconds: (cpu.user + cpu.system) / 1e6,
    peakRssMiB: process.resourceUsage().maxRSS / 1024,
    baseRssMiB,
    phases,
  };
  process.stdout.write(`${JSON.stringify(result)}\n`);
}

/** Prints one line per path, then the bulk path's phases and the machine's load. */
function printTable(results: ReadonlyArray<PathResult>): void {
  const n = (value: number, width: number, digits = 0) =>
    value
      .toLocaleString("en", { maximumFractionDigits: digits, minimumFractionDigits: digits })
      .padStart(width);
  console.log("path         rows   rows/s  rows/cpu-s  wall s  cpu s  peak RSS MiB  RSS before MiB");
  for (const r of results) {
    console.log(
      `${r.path.padEnd(6)}${n(r.rows, 11)}${n(r.rows / r.seconds, 9)}${n(r.rows / r.cpuSeconds, 12)}${n(r.seconds, 8, 1)}${n(r.cpuSeconds, 7, 1)}${n(r.peakRssMiB, 14)}${n(r.baseRssMiB, 16)}`,
    );
    if (r.added + r.rejected !== r.rows) console.log(`  ${r.path}: ${r.added} added, ${r.rejected} rejected`);
    if (r.phases)
      console.log(
        `  bulk phases: staging ${r.phases.staging.toFixed(1)} s, merge ${r.phases.merge.toFixed(1)} s, indexes ${r.phases.indexes.toFixed(1)} s`,
      );
  }
  console.log(
    `target: >= 200,000 rows/s into SQLite, peak RSS < 300 MiB (load average ${loadavg()[0]?.toFixed(1)}, ${cpus().length} CPUs)`,
  );
}

/** Parent: generates the files, runs each path in a child and prints the table. */
async function runParent(): Promise<void> {
  const rows = Number(option("rows", "5000000"));
  const portRows = Math.min(rows, Number(option("port-rows", "200000")));
  const paths = option("paths", PATHS.join(",")).split(",") as BenchPath[];
  const dir = mkdtempSync(join(tmpdir(), "openkyt-import-bench-"));
  try {
    const generated = performance.now();
    const file = join(dir, "ledger.csv");
    const bytes = await writeLedgerCsv(file, rows);
    const portFile = portRows === rows ? file : join(dir, "ledger-port.csv");
    if (portFile !== file) await writeLedgerCsv(portFile, portRows);
    console.log(
      `generated ${rows.toLocaleString("en")} rows (${(bytes / 2 ** 20).toFixed(0)} MiB) in ${((performance.now() - generated) / 1000).toFixed(1)} s`,
    );
    const results: PathResult[] = [];
    for (const path of paths) {
      const child = spawnSync(
        process.execPath,
        [
          ...process.execArgv,
          fileURLToPath(import.meta.url),
          "--child",
          path,
          path === "port" ? portFile : file,
          join(dir, `${path}.db`),
        ],
        { encoding: "utf8", stdio: ["ignore", "pipe", "inherit"], maxBuffer: 1 << 20 },
      );
      const line = child.stdout.trim().split("\n").pop() ?? "";
      if (child.status !== 0 || !line.startsWith("{"))
        throw new Error(`path ${path} failed (status ${child.status})`);
      results.push(JSON.parse(line) as PathResult);
      rmSync(join(dir, `${path}.db`), { force: true });
    }
    printTable(results);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const childAt = process.argv.indexOf("--child");
if (childAt >= 0) {
  const [path, file, dbFile] = process.argv.slice(childAt + 1);
  await runChild(path as BenchPath, file as string, dbFile as string);
} else {
  await runParent();
}
