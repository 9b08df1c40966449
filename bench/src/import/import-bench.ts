/**
 * The ledger import benchmark: generates a ledger CSV (5,000,000 rows unless `--rows N`) in a temp
 * folder and imports it into a fresh SQLite file along each path, each in a child process of its
 * own (so its peak RSS is its own), then prints rows/s, CPU and peak RSS per path:
 *
 * - `parse`:  read and validate only (a writer that drops the rows): the importer's own ceiling;
 * - `import`: the command `openkyt import ledger FILE --db DB.sqlite --json` itself, as a user
 *             runs it (a fresh database, so the store's bulk load: `Store.bulkLedgerWriter`);
 *             its wall time is the whole command's, start-up and migrations included, its CPU
 *             time and peak RSS the process's, read at its exit;
 * - `raw`:    a raw better-sqlite3 prepared-insert loop over the same file into the same schema
 *             (./import-raw-loop.ts), on the first `--raw-rows` rows (default: all of them);
 *             the issue's figure is `import` rows/s over `raw` rows/s;
 * - `port`:   `Store.putLedgerTransfers`, a transaction per 5,000 rows (the path before the bulk
 *             load), on the first `--port-rows` rows (default 200,000).
 *
 *   node --conditions=source --import tsx src/import/import-bench.ts [--rows N] [--raw-rows N] [--port-rows N] [--paths parse,import,raw,port]
 *
 * `--file PATH` imports a ledger CSV generated before (by an earlier run's generator; `--rows`
 * must then say how many rows it has) instead of generating one.
 *
 * `--code dist` (the default) runs the importer and the stores as built (`npm run build`): the
 * command is the built CLI, and the other children resolve the workspace packages to `dist/`,
 * so the parse thread starts from JavaScript, not through the TypeScript loader (which costs
 * the thread about 25 MiB more). `--code source` runs the TypeScript sources instead.
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { cpus, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { type ImportSummary, importFile, type LedgerWriter, storeLedgerWriter } from "@openkyt/datasets";
import { createSqliteStore } from "@openkyt/store-sqlite";
import { rawInsertLoop } from "./import-raw-loop.js";

const PATHS = ["parse", "import", "raw", "port"] as const;
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
  /** Peak RSS before the import started (runtime, TypeScript loader, store; the command: the runtime). */
  readonly baseRssMiB: number;
  /** Import path: seconds until the last row was read and staged, and in the final commit. */
  readonly phases?: { staging: number; finish: number };
}

/** The built CLI's entry point: `bin/openkyt.js` runs `dist/` when it is built, else the sources. */
const CLI_BIN = fileURLToPath(new URL("../../../packages/cli/bin/openkyt.js", import.meta.url));

/**
 * Loaded before the command (`node --import`): at the process's exit it writes the process's
 * CPU time and peak RSS, and its peak RSS when this module loaded, to the file named by
 * OPENKYT_BENCH_USAGE.
 */
const USAGE_HOOK = `data:text/javascript,${encodeURIComponent(`
import { writeFileSync } from "node:fs";
const baseRssMiB = process.resourceUsage().maxRSS / 1024;
process.on("exit", () => {
  const u = process.resourceUsage();
  const usage = { cpuSeconds: (u.userCPUTime + u.systemCPUTime) / 1e6, peakRssMiB: u.maxRSS / 1024, baseRssMiB };
  writeFileSync(process.env.OPENKYT_BENCH_USAGE, JSON.stringify(usage));
});`)}`;

/** Runs `openkyt import ledger` on `file` into a fresh SQLite file; answers its figures. */
function runCommand(file: string, dbFile: string, code: "dist" | "source"): PathResult {
  const usageFile = `${dbFile}.usage.json`;
  const env: NodeJS.ProcessEnv = { ...process.env, OPENKYT_BENCH_USAGE: usageFile };
  if (code === "source") env.OPENKYT_FROM_SOURCE = "1";
  else delete env.OPENKYT_FROM_SOURCE;
  const started = performance.now();
  const command = spawnSync(
    process.execPath,
    ["--import", USAGE_HOOK, CLI_BIN, "import", "ledger", file, "--db", dbFile, "--json"],
    { encoding: "utf8", env, stdio: ["ignore", "pipe", "pipe"], maxBuffer: 1 << 24 },
  );
  const seconds = (performance.now() - started) / 1000;
  const line = command.stdout.trim().split("\n").pop() ?? "";
  if (command.status !== 0 || !line.startsWith("{") || !existsSync(usageFile))
    throw new Error(`openkyt import ledger failed (status ${command.status}):\n${command.stderr}`);
  const summary = JSON.parse(line) as ImportSummary;
  if (typeof summary.readingMs !== "number")
    throw new Error(
      "openkyt import gave no readingMs: its build is older than this benchmark (npm run build)",
    );
  const usage = JSON.parse(readFileSync(usageFile, "utf8")) as Pick<
    PathResult,
    "cpuSeconds" | "peakRssMiB" | "baseRssMiB"
  >;
  rmSync(usageFile, { force: true });
  return {
    path: "import",
    rows: summary.rowsRead,
    added: summary.added,
    rejected: summary.rejected,
    seconds,
    ...usage,
    phases: {
      staging: summary.readingMs / 1000,
      finish: (summary.durationMs - summary.readingMs) / 1000,
    },
  };
}

/** The value of `--name`, or the fallback. */
function option(name: string, fallback: string): string {
  const at = process.argv.indexOf(`--${name}`);
  return at >= 0 ? (process.argv[at + 1] ?? fallback) : fallback;
}

/** The built entry points the children and the command need with `--code dist`. */
const BUILT = [
  ...["datasets", "store-sqlite", "store-kysely", "core"].map((name) =>
    fileURLToPath(new URL(`../../../packages/${name}/dist/index.js`, import.meta.url)),
  ),
  // What bin/openkyt.js runs when it is there (else the sources, which --code dist must not time).
  fileURLToPath(new URL("../../../packages/cli/dist/main.js", import.meta.url)),
];

/** Node flags of a child: the parent's, less the `source` condition when it runs the built code. */
function childExecArgv(code: "dist" | "source"): string[] {
  if (code === "source") return process.execArgv;
  return process.execArgv.filter(
    (a, i, all) =>
      a !== "--conditions=source" &&
      a !== "-C=source" &&
      !((a === "--conditions" || a === "-C") && all[i + 1] === "source") &&
      !(a === "source" && (all[i - 1] === "--conditions" || all[i - 1] === "-C")),
  );
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

/**
 * Child of the `parse`, `raw` and `port` paths: imports `file` along `path` into a fresh SQLite
 * file and prints its result as JSON.
 */
async function runChild(path: BenchPath, file: string, dbFile: string, limit: number): Promise<void> {
  const store = await createSqliteStore({ filename: dbFile });
  const baseRssMiB = process.resourceUsage().maxRSS / 1024;
  const cpuBefore = process.cpuUsage();
  const started = performance.now();
  let counts: { rows: number; added: number; rejected: number };
  if (path === "raw") {
    await store.close();
    const raw = await rawInsertLoop(file, dbFile, limit);
    counts = { ...raw, rejected: 0 };
  } else {
    // Named, the port writer: left out, the import would take the store's bulk load.
    const ledgerWriter = path === "parse" ? discardingWriter() : storeLedgerWriter(store);
    const summary = await importFile(store, { kind: "ledger", file, format: "csv", ledgerWriter });
    counts = { rows: summary.rowsRead, added: summary.added, rejected: summary.rejected };
  }
  const seconds = (performance.now() - started) / 1000;
  await store.close();
  const cpu = process.cpuUsage(cpuBefore);
  const result: PathResult = {
    path,
    ...counts,
    seconds,
    cpuSeconds: (cpu.user + cpu.system) / 1e6,
    peakRssMiB: process.resourceUsage().maxRSS / 1024,
    baseRssMiB,
  };
  process.stdout.write(`${JSON.stringify(result)}\n`);
}

/** Prints one line per path, then the bulk path's phases and the machine's load. */
function printTable(results: ReadonlyArray<PathResult>): void {
  const n = (value: number, width: number, digits = 0) =>
    value
      .toLocaleString("en", { maximumFractionDigits: digits, minimumFractionDigits: digits })
      .padStart(width);
  console.log("path         rows   rows/s  rows/cpu-s  wall s  cpu s  peak RSS MiB (MB)  RSS before MiB");
  for (const r of results) {
    console.log(
      `${r.path.padEnd(6)}${n(r.rows, 11)}${n(r.rows / r.seconds, 9)}${n(r.rows / r.cpuSeconds, 12)}${n(r.seconds, 8, 1)}${n(r.cpuSeconds, 7, 1)}${n(r.peakRssMiB, 14)} (${n((r.peakRssMiB * 2 ** 20) / 1e6, 0)})${n(r.baseRssMiB, 16)}`,
    );
    if (r.added + r.rejected !== r.rows) console.log(`  ${r.path}: ${r.added} added, ${r.rejected} rejected`);
    if (r.phases)
      console.log(
        `  ${r.path} phases: read, validate and stage ${r.phases.staging.toFixed(1)} s, final commit ${r.phases.finish.toFixed(1)} s`,
      );
  }
  const imported = results.find((r) => r.path === "import");
  const raw = results.find((r) => r.path === "raw");
  // The import's CPU time spread over every core: no scheduling of this work on this machine
  // can beat it, so it says whether a missed target is a matter of overlap or of work per row.
  if (imported)
    console.log(
      `import with all ${cpus().length} CPUs busy throughout (its CPU time / CPUs): ${n(imported.rows / (imported.cpuSeconds / cpus().length), 0)} rows/s at most`,
    );
  if (imported && raw)
    console.log(
      `import / raw loop: ${(imported.rows / imported.seconds / (raw.rows / raw.seconds)).toFixed(2)} (rows/s), ${(imported.rows / imported.cpuSeconds / (raw.rows / raw.cpuSeconds)).toFixed(2)} (rows per CPU-s)`,
    );
  console.log(
    `target: >= 200,000 rows/s into SQLite and >= 0.5 of the raw loop's rows/s, peak RSS < 300 MB (load average ${loadavg()[0]?.toFixed(1)}, ${cpus().length} CPUs)`,
  );
}

/** Parent: generates the files, runs each path in a child and prints the table. */
async function runParent(): Promise<void> {
  const rows = Number(option("rows", "5000000"));
  const portRows = Math.min(rows, Number(option("port-rows", "200000")));
  const rawRows = Math.min(rows, Number(option("raw-rows", String(rows))));
  const paths = option("paths", PATHS.join(",")).split(",") as BenchPath[];
  const code = option("code", "dist");
  if (code !== "dist" && code !== "source") throw new Error(`--code must be dist or source, not "${code}"`);
  const unbuilt = code === "dist" ? BUILT.filter((file) => !existsSync(file)) : [];
  if (unbuilt.length > 0)
    throw new Error(
      `--code dist needs the built packages (run npm run build), missing: ${unbuilt.join(", ")}`,
    );
  const dir = mkdtempSync(join(tmpdir(), "openkyt-import-bench-"));
  try {
    const generated = performance.now();
    const given = option("file", "");
    const file = given === "" ? join(dir, "ledger.csv") : given;
    // Imported here only: the generator comes with testkit (and vitest), which would weigh on
    // the children's RSS.
    const { writeLedgerCsv } = await import("./import-ledger-file.js");
    const bytes = given === "" ? await writeLedgerCsv(file, rows) : statSync(file).size;
    const portFile = portRows === rows ? file : join(dir, "ledger-port.csv");
    if (portFile !== file) await writeLedgerCsv(portFile, portRows);
    console.log(
      `${given === "" ? "generated" : "using"} ${rows.toLocaleString("en")} rows (${(bytes / 2 ** 20).toFixed(0)} MiB) in ${((performance.now() - generated) / 1000).toFixed(1)} s`,
    );
    const results: PathResult[] = [];
    for (const path of paths) {
      if (path === "import") {
        results.push(runCommand(file, join(dir, "import.db"), code));
        rmSync(join(dir, "import.db"), { force: true });
        continue;
      }
      const child = spawnSync(
        process.execPath,
        [
          ...childExecArgv(code),
          fileURLToPath(import.meta.url),
          "--child",
          path,
          path === "port" ? portFile : file,
          join(dir, `${path}.db`),
          String(path === "raw" ? rawRows : rows),
        ],
        { encoding: "utf8", stdio: ["ignore", "pipe", "inherit"], maxBuffer: 1 << 20 },
      );
      const line = child.stdout.trim().split("\n").pop() ?? "";
      if (child.status !== 0 || !line.startsWith("{"))
        throw new Error(`path ${path} failed (status ${child.status})`);
      results.push(JSON.parse(line) as PathResult);
      rmSync(join(dir, `${path}.db`), { force: true });
    }
    console.log(`code: ${code === "dist" ? "built packages (dist/)" : "TypeScript sources (tsx)"}`);
    printTable(results);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const childAt = process.argv.indexOf("--child");
if (childAt >= 0) {
  const [path, file, dbFile, limit] = process.argv.slice(childAt + 1);
  await runChild(path as BenchPath, file as string, dbFile as string, Number(limit));
} else {
  await runParent();
}
