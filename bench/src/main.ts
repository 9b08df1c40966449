/**
 * `pnpm bench`: builds the benchmark data, runs every benchmark (each in a fresh process),
 * prints one table and writes it as JSON to bench/results/latest.json.
 *
 *   npm run bench            the full run (1M-transfer ledgers, real-shaped and classic; built once, a minute each)
 *   npm run bench -- --quick the CI run (small sizes; fails only if a benchmark breaks, never on speed)
 *   npm run bench -- --only tracing,rules
 *   npm run bench -- --only screening-threads   the README API with traces on 0 vs N threads
 *   npm run bench -- --only postgres-threads    two warm Postgres workers with 0, 1, 2 screening threads each
 *   npm run bench -- --only recall   tracing recall on the MFTracer cases (needs ../shared/data)
 *   npm run bench -- --quick --only cli   the CLI's start-up (needs the built CLI: npm run build)
 *   npm run bench -- --only follow-bitcoin   follow rate on a bcoin regtest node (blocks/s, rows/s)
 *   npm run bench -- --only follow-evm       follow rate on anvil, CPU per 1,000 rows, final block -> checked
 *   npm run bench -- --only bitcoin-import   Bitcoin import tx/s per format (its own generated ledger)
 *   npm run bench -- --only bitcoin-trace    warm BTC vs ETH traces at 20 hops (p50, p99, CPU ratio), memory per tx
 *   npm run bench -- --only cold-trace      worker CPU per screened transfer tracing from SQLite and Postgres (no --warm)
 *   npm run bench -- --only bitcoin-write    the SQLite store's UTXO writes, before/after (tx/s, CPU per 1,000 tx)
 *   npm run bench -- --only bitcoin-warm     1M BTC txs: bulk import, warm load, warm traces, BTC screening rate
 *   npm run bench -- --only clickhouse       the ClickHouse ledger: ingest rows/s, bytes per row, 20-hop traces
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { cpus, loadavg, totalmem } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { ledgerDatabase } from "./bench-ledger-db.js";
import type { Figure } from "./bench-stats.js";

const here = dirname(fileURLToPath(import.meta.url));
const quick = process.argv.includes("--quick");
const onlyAt = process.argv.indexOf("--only");
const only = onlyAt >= 0 ? (process.argv[onlyAt + 1] ?? "").split(",") : null;
const ledgerSize = quick ? 20_000 : 1_000_000;

/**
 * A benchmark run in its own process: the bench-one names, or a script with its own output.
 * `node` holds V8 flags of that process: screening keeps a large heap (the warm ledger) and
 * allocates fast, so a larger young generation spares it most promotions to the old one
 * (about a fifth of its CPU on the 1M ledger); docs/deployment.md gives the same advice.
 */
const RUNS: ReadonlyArray<{ name: string; args: string[]; node?: string[]; ownData?: boolean }> = [
  { name: "rules", args: [join(here, "bench-one.ts"), "rules", String(ledgerSize)] },
  { name: "tracing", args: [join(here, "bench-one.ts"), "tracing", String(ledgerSize)] },
  {
    name: "bitcoin-trace",
    args: [join(here, "bench-one.ts"), "bitcoin-trace", String(ledgerSize)],
    // 1M UTXO transactions take about 2.2 GB of heap, over half of Node's default limit.
    node: ["--expose-gc", "--max-old-space-size=8192"],
  },
  {
    name: "bitcoin-warm",
    args: [join(here, "bench-one.ts"), "bitcoin-warm", String(ledgerSize)],
    node: ["--expose-gc", "--max-old-space-size=8192"],
    ownData: true,
  },
  { name: "recall", args: [join(here, "bench-one.ts"), "recall", String(ledgerSize)] },
  {
    name: "screening",
    args: [join(here, "bench-one.ts"), "screening", String(ledgerSize)],
    node: ["--max-semi-space-size=64"],
  },
  {
    name: "screening-threads",
    args: [join(here, "bench-one.ts"), "screening-threads", String(ledgerSize)],
    node: ["--max-semi-space-size=64"],
  },
  {
    name: "latency",
    args: [join(here, "bench-one.ts"), "latency", String(ledgerSize)],
    node: ["--max-semi-space-size=64", "--expose-gc"],
  },
  {
    name: "memory",
    args: [join(here, "bench-one.ts"), "memory", String(ledgerSize)],
    node: ["--expose-gc"],
  },
  { name: "postgres", args: [join(here, "bench-one.ts"), "postgres", String(ledgerSize)] },
  { name: "postgres-threads", args: [join(here, "bench-one.ts"), "postgres-threads", String(ledgerSize)] },
  { name: "cold-trace", args: [join(here, "bench-one.ts"), "cold-trace", String(ledgerSize)] },
  // Starts its own ClickHouse server and generates its own ledger into it (no figures without one).
  { name: "clickhouse", args: [join(here, "bench-clickhouse.ts")], ownData: true },
  {
    name: "backtest",
    args: [join(here, "bench-one.ts"), "backtest", String(ledgerSize)],
    node: ["--max-semi-space-size=64"],
  },
  { name: "http", args: [join(here, "http", "http-bench.ts")] },
  { name: "cli", args: [join(here, "cli", "cli-bench.ts")] },
  { name: "follow-bitcoin", args: [join(here, "follow", "follow-bitcoin-bench.ts")], ownData: true },
  { name: "follow-evm", args: [join(here, "follow", "follow-evm-bench.ts")], ownData: true },
  // Generates its own Bitcoin ledger: no need of the transfer ledger.
  { name: "bitcoin-import", args: [join(here, "import", "bitcoin-import-bench.ts")], ownData: true },
  { name: "bitcoin-write", args: [join(here, "import", "bitcoin-write-bench.ts")], ownData: true },
];

function format(n: number): string {
  if (!Number.isFinite(n)) return "-";
  if (Math.abs(n) >= 100) return Math.round(n).toLocaleString("en-US");
  return n.toPrecision(3);
}

const started = Date.now();
if (RUNS.some((run) => (!only || only.includes(run.name)) && !run.ownData)) {
  console.error(
    `building the ${ledgerSize.toLocaleString("en-US")}-transfer ledgers (cached under bench/.data)...`,
  );
  await ledgerDatabase(ledgerSize, "real");
  if (!only || only.includes("screening")) await ledgerDatabase(ledgerSize, "classic");
}
const figures: Figure[] = [];
const failures: string[] = [];
for (const run of RUNS) {
  if (only && !only.includes(run.name)) continue;
  console.error(`running ${run.name}...`);
  const result = spawnSync(
    process.execPath,
    [
      ...(run.node ?? []),
      "--conditions=source",
      "--import",
      "tsx",
      ...run.args,
      ...(quick ? ["--quick"] : []),
    ],
    { encoding: "utf8", stdio: ["ignore", "pipe", "inherit"], maxBuffer: 64 * 1024 * 1024 },
  );
  const last = result.stdout.trim().split("\n").pop() ?? "";
  try {
    if (result.status !== 0) throw new Error(`exit ${result.status}`);
    figures.push(...(JSON.parse(last) as Figure[]));
  } catch (error) {
    failures.push(`${run.name}: ${String(error)}`);
  }
}

const rows = figures.map((f) => [
  f.name,
  `${format(f.median)} ${f.unit}`,
  f.runs > 1 ? `${format(f.min)} .. ${format(f.max)}` : "",
  f.target ?? "",
]);
const header = ["figure", "median", "spread (min .. max)", "target"];
const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? "").length)));
const line = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i] ?? 0)).join(" | ")} |`;
console.log(line(header));
console.log(`|${widths.map((w) => "-".repeat(w + 2)).join("|")}|`);
for (const row of rows) console.log(line(row));
const machine = {
  cpus: cpus().length,
  cpu: cpus()[0]?.model ?? "?",
  memGiB: Math.round(totalmem() / 2 ** 30),
  load: loadavg().map((l) => l.toFixed(2)),
};
console.log(
  `\n${quick ? "quick run" : "full run"}, ledger ${ledgerSize.toLocaleString("en-US")} transfers, ${machine.cpus} x ${machine.cpu}, load ${machine.load.join(" ")}, ${Math.round((Date.now() - started) / 1000)} s`,
);
const out = join(here, "..", "results");
mkdirSync(out, { recursive: true });
writeFileSync(
  join(out, quick ? "quick.json" : "latest.json"),
  `${JSON.stringify({ quick, ledgerSize, machine, figures, failures, at: new Date().toISOString() }, null, 2)}\n`,
);
if (failures.length > 0) {
  console.error(`benchmarks that broke:\n  ${failures.join("\n  ")}`);
  process.exit(1);
}
