/**
 * Bitcoin import speed: a generated ledger (see bitcoin-ledger-files.ts; 100,000 transactions,
 * 5,000 with --quick) imported into a fresh SQLite file in each format `openkyt import ledger`
 * reads (`importFile`, as the command calls it), three runs each; transactions per second of
 * the whole import (reading, checking, writing) and CPU milliseconds per 1,000 transactions (the
 * process's user + system time, SQLite's sorter threads included). Prints its figures as JSON
 * on the last line. `--format F` imports that format only (`--runs N`: N runs each);
 * `--parse-thread both` imports each format read inline and on the parse thread, one after the
 * other (`on`/`off`: one of them; default: as `openkyt import` chooses, by the file's size).
 * `--data DIR` keeps the generated files in DIR (`DIR/bitcoin-N`) and reuses them on the next
 * run of the same size (generating 200,000 transactions takes minutes on a loaded machine).
 *
 *   node --conditions=source --import tsx bench/src/import/bitcoin-import-bench.ts [--quick] [--txs N]
 *     [--format F] [--runs N] [--parse-thread on|off|both] [--data DIR]
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { importFile } from "@openkyt/datasets";
import { createSqliteStore } from "@openkyt/store-sqlite";
import { type Figure, figure } from "../bench-stats.js";
import { type BitcoinLedgerFiles, writeBitcoinLedger } from "./bitcoin-ledger-files.js";

const quick = process.argv.includes("--quick");
const txsAt = process.argv.indexOf("--txs");
const wanted = txsAt >= 0 ? Number(process.argv[txsAt + 1]) : quick ? 5_000 : 100_000;
const runsAt = process.argv.indexOf("--runs");
const runs = runsAt >= 0 ? Number(process.argv[runsAt + 1]) : quick ? 1 : 3;
const formatAt = process.argv.indexOf("--format");
const only = formatAt >= 0 ? process.argv[formatAt + 1] : undefined;
const threadAt = process.argv.indexOf("--parse-thread");
const threadArg = threadAt >= 0 ? process.argv[threadAt + 1] : undefined;
const threadModes: ReadonlyArray<boolean | undefined> =
  threadArg === "both"
    ? [false, true]
    : threadArg === "on"
      ? [true]
      : threadArg === "off"
        ? [false]
        : [undefined];
const modeName = (mode: boolean | undefined) =>
  mode === undefined ? "" : mode ? ", parse thread" : ", inline";

const dataAt = process.argv.indexOf("--data");
const dataDir = dataAt >= 0 ? process.argv[dataAt + 1] : undefined;

/** The generated ledger's files: those kept in `--data` for this size, else written now. */
function ledgerFiles(dir: string): BitcoinLedgerFiles {
  const kept = dataDir === undefined ? undefined : join(dataDir, `bitcoin-${wanted}`);
  const manifest = kept === undefined ? undefined : join(kept, "files.json");
  if (manifest !== undefined && existsSync(manifest))
    return JSON.parse(readFileSync(manifest, "utf8")) as BitcoinLedgerFiles;
  const started = performance.now();
  const into = kept ?? dir;
  mkdirSync(into, { recursive: true });
  const files = writeBitcoinLedger(into, wanted);
  console.error(
    `generated ${files.transactions.toLocaleString("en-US")} transactions in ${files.blocks} blocks in ${Math.round(performance.now() - started)} ms`,
  );
  if (manifest !== undefined) writeFileSync(manifest, JSON.stringify(files));
  return files;
}

const dir = mkdtempSync(join(tmpdir(), "openkyt-bitcoin-bench-"));
try {
  const files = ledgerFiles(dir);
  const figures: Figure[] = [];
  for (const [format, file] of [
    ["bitcoin-core", files.core],
    ["esplora", files.esplora],
    ["bitcoin-blocks", files.blk],
  ] as const) {
    for (const parseThread of threadModes) {
      if (only !== undefined && format !== only) continue;
      const rates: number[] = [];
      const cpuPer1k: number[] = [];
      for (let run = 0; run < runs; run++) {
        const store = await createSqliteStore({
          filename: join(dir, `${format}-${run}-${String(parseThread)}.db`),
        });
        try {
          const cpu = process.cpuUsage();
          const summary = await importFile(store, {
            kind: "ledger",
            file,
            format,
            exclusiveStore: true,
            ...(parseThread === undefined ? {} : { parseThread }),
          });
          if (summary.added !== files.transactions || summary.rejected !== 0)
            throw new Error(
              `${format}: ${summary.added} added, ${summary.rejected} rejected of ${files.transactions}`,
            );
          rates.push(summary.added / (summary.durationMs / 1000));
          const used = process.cpuUsage(cpu);
          cpuPer1k.push((used.user + used.system) / 1000 / (summary.added / 1000));
        } finally {
          await store.close();
        }
      }
      console.error(
        `${format}${modeName(parseThread)}: ${rates.map((r) => Math.round(r)).join(", ")} tx/s; ${cpuPer1k.map((c) => c.toFixed(1)).join(", ")} ms CPU per 1k tx`,
      );
      const size = `${files.transactions.toLocaleString("en-US")} txs into SQLite${modeName(parseThread)}`;
      figures.push(figure(`bitcoin import ${format} (${size})`, "tx/s", rates, ">= 100,000 tx/s"));
      figures.push(figure(`bitcoin import ${format} CPU per 1,000 tx (${size})`, "ms", cpuPer1k));
    }
  }
  console.log(JSON.stringify(figures));
} finally {
  rmSync(dir, { recursive: true, force: true });
}
