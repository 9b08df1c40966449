/** Shared by the importer tests: the stores every test runs on, and fixture paths. */
import { fileURLToPath } from "node:url";
import { createMemoryStore, type Store } from "@openkyt/core";
import { createSqliteStore } from "@openkyt/store-sqlite";
import type { ImportSummary } from "../src/index.js";

/** The stores the importers are tested against: a real SQLite database and the memory store. */
export const STORES: ReadonlyArray<readonly [string, () => Promise<Store>]> = [
  ["sqlite", () => createSqliteStore({ filename: ":memory:" })],
  ["memory", async () => createMemoryStore()],
];

/** The path of a fixture file. */
export function fixture(name: string): string {
  return fileURLToPath(new URL(`./fixtures/${name}`, import.meta.url));
}

/** The counters of a summary, for compact assertions. */
export function counts(summary: ImportSummary) {
  const { rowsRead, added, updated, unchanged, duplicates, skipped, rejected, delisted } = summary;
  return { rowsRead, added, updated, unchanged, duplicates, skipped, rejected, delisted };
}

/** Every counted row has one outcome. */
export function balanced(summary: ImportSummary): boolean {
  const { rowsRead, added, updated, unchanged, duplicates, skipped, rejected } = summary;
  return rowsRead === added + updated + unchanged + duplicates + skipped + rejected;
}
