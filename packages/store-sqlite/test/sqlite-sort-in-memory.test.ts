/**
 * The bulk UTXO load's index sorts in memory (`sortInMemoryWhenSmall`, `closeTempStore`):
 * SQLite refuses to change `temp_store` inside a transaction while the connection's temporary
 * database is open, so the load closes it before its transaction begins; a TEMP table is never
 * dropped for it, a load past the budget keeps its sorts on files, and the setting comes back.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterAll, describe, expect, it } from "vitest";
import {
  closeTempStore,
  SORT_BYTES_PER_ROW,
  sortInMemoryWhenSmall,
} from "../src/sqlite-ledger-load-steps.js";

const dir = mkdtempSync(join(tmpdir(), "openkyt-sort-in-memory-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let files = 0;

/** A database file whose connection has opened its temporary database (as the store's has). */
function openWithTempOpen(): Database.Database {
  const sqlite = new Database(join(dir, `db-${++files}.sqlite`));
  sqlite.exec("CREATE TABLE t (a); CREATE TEMP TABLE scratch (b); DROP TABLE temp.scratch");
  return sqlite;
}
const tempStore = (sqlite: Database.Database) => sqlite.pragma("temp_store", { simple: true });

describe("bulk UTXO load: index sorts in memory", () => {
  it("moves the sorts to memory inside the load's transaction once the temporary database is closed", () => {
    const sqlite = openWithTempOpen();
    try {
      sqlite.exec("BEGIN IMMEDIATE");
      // Open, the temporary database pins the setting inside a transaction.
      expect(sortInMemoryWhenSmall(sqlite, {}, 1_000)).toBe(false);
      expect(tempStore(sqlite)).toBe(0);
      sqlite.exec("ROLLBACK");

      const restore = closeTempStore(sqlite);
      sqlite.exec("BEGIN IMMEDIATE");
      sqlite.prepare("INSERT INTO t VALUES (?), (?)").run(1, 2);
      expect(sortInMemoryWhenSmall(sqlite, {}, 1_000)).toBe(true);
      expect(tempStore(sqlite)).toBe(2);
      sqlite.exec("CREATE INDEX t_a ON t (a)");
      sqlite.exec("COMMIT");
      restore();
      expect(tempStore(sqlite)).toBe(0);
    } finally {
      sqlite.close();
    }
  });

  it("keeps the sorts on files past the budget", () => {
    const sqlite = openWithTempOpen();
    try {
      closeTempStore(sqlite);
      sqlite.exec("BEGIN IMMEDIATE");
      const rowsOverOneMiB = Math.ceil((1024 * 1024) / SORT_BYTES_PER_ROW) + 1;
      expect(sortInMemoryWhenSmall(sqlite, { sortInMemoryMiB: 1 }, rowsOverOneMiB)).toBe(false);
      expect(sortInMemoryWhenSmall(sqlite, { sortInMemoryMiB: 0 }, 1)).toBe(false);
      expect(tempStore(sqlite)).toBe(0);
      expect(sortInMemoryWhenSmall(sqlite, { sortInMemoryMiB: 1 }, rowsOverOneMiB - 2)).toBe(true);
      sqlite.exec("ROLLBACK");
    } finally {
      sqlite.close();
    }
  });

  it("never drops a TEMP table to close the temporary database", () => {
    const sqlite = openWithTempOpen();
    try {
      sqlite.exec("CREATE TEMP TABLE kept (c); INSERT INTO temp.kept VALUES (7)");
      const restore = closeTempStore(sqlite);
      expect(sqlite.prepare("SELECT c FROM temp.kept").pluck().all()).toEqual([7]);
      restore();
      expect(sqlite.prepare("SELECT c FROM temp.kept").pluck().all()).toEqual([7]);
    } finally {
      sqlite.close();
    }
  });
});
