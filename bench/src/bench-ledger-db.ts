/**
 * The benchmark ledgers: generated ledgers written once into a SQLite file under bench/.data and
 * reused by later runs; each benchmark copies one. Two shapes: "real" (the default: degrees,
 * amounts and labels fitted to real transfer graphs, hubs of tens of thousands of transfers)
 * and "classic" (the generator's first shape, kept as a second, named row to compare with).
 */
import {
  closeSync,
  copyFileSync,
  existsSync,
  fsyncSync,
  mkdirSync,
  openSync,
  renameSync,
  rmSync,
} from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import type { LedgerTransfer, Store } from "@openkyt/core";
import { createSqliteStore } from "@openkyt/store-sqlite";
import {
  type LedgerShapeName,
  type LedgerShapeOptions,
  ledgerReferenceData,
  ledgerRows,
} from "@openkyt/testkit";

/** Where generated data is kept between runs (gitignored). */
export const DATA_DIR = join(dirname(fileURLToPath(import.meta.url)), "..", ".data");

/** The ledger shape benchmarks use unless they name one. */
export const DEFAULT_BENCH_SHAPE: LedgerShapeName = "real";

/** The shape every benchmark uses for a ledger of `transfers` rows. */
export function benchShape(
  transfers: number,
  shape: LedgerShapeName = DEFAULT_BENCH_SHAPE,
): LedgerShapeOptions {
  // The real shape spans the days its fit gives (its per-address time gaps), the classic a year.
  return { transfers, tokens: ["native"], seed: 11, shape, ...(shape === "classic" ? { days: 365 } : {}) };
}

/** How a figure names a ledger: "1M-transfer real-shaped ledger". */
export function ledgerLabel(transfers: number, shape: LedgerShapeName = DEFAULT_BENCH_SHAPE): string {
  const size = transfers >= 1e6 ? `${transfers / 1e6}M` : `${transfers / 1e3}k`;
  return `${size}-transfer ${shape === "real" ? "real-shaped" : "classic"} ledger`;
}

/** Writes the generated ledger and its reference data into a store, in chunks. */
export async function loadGenerated(store: Store, shape: LedgerShapeOptions): Promise<void> {
  const ref = ledgerReferenceData(shape);
  await store.putAttributions(ref.attributions);
  await store.putSanctions(ref.sanctions);
  // The store's bulk load when it has one (the store is this build's alone), else plain puts.
  const bulk = store.bulkLedgerWriter ? await store.bulkLedgerWriter({ exclusive: true }) : null;
  let chunk: LedgerTransfer[] = [];
  const flush = async () => {
    if (bulk) await bulk.write(chunk);
    else await store.putLedgerTransfers(chunk);
    chunk = [];
  };
  for (const row of ledgerRows(shape)) {
    chunk.push(row);
    if (chunk.length === 20_000) await flush();
  }
  if (chunk.length > 0) await flush();
  await bulk?.finish();
}

/** Path of a SQLite file holding the ledger of `transfers` rows; built on first use (minutes for 1M). */
export async function ledgerDatabase(
  transfers: number,
  shape: LedgerShapeName = DEFAULT_BENCH_SHAPE,
): Promise<string> {
  mkdirSync(DATA_DIR, { recursive: true });
  // The classic ledger keeps its earlier file name, so a cached one is reused.
  const file = join(
    DATA_DIR,
    shape === "classic" ? `ledger-${transfers}-v2.db` : `ledger-${transfers}-${shape}-v1.db`,
  );
  if (existsSync(file)) return file;
  const building = `${file}.building`;
  rmSync(building, { force: true });
  const store = await createSqliteStore({ filename: building });
  await loadGenerated(store, benchShape(transfers, shape));
  await store.close();
  for (const suffix of ["-wal", "-shm"]) rmSync(`${building}${suffix}`, { force: true });
  renameSync(building, file);
  return file;
}

/** A private copy of the ledger database for one run. */
export async function ledgerCopy(
  transfers: number,
  name: string,
  shape: LedgerShapeName = DEFAULT_BENCH_SHAPE,
): Promise<string> {
  const source = await ledgerDatabase(transfers, shape);
  const target = join(DATA_DIR, `run-${name}-${shape}-${process.pid}.db`);
  copyFileSync(source, target);
  // Flush the copy now: left dirty in the page cache, its hundreds of MB would be written by
  // the first WAL checkpoint's fsync, in the middle of a measurement.
  const fd = openSync(target, "r+");
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  return target;
}

/** Removes a run's copy. */
export function removeCopy(file: string): void {
  for (const suffix of ["", "-wal", "-shm"]) rmSync(`${file}${suffix}`, { force: true });
}
