import { statSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Store } from "@openkyt/core";
import { makeLedgerTransfer } from "@openkyt/testkit";
import BetterSqlite3 from "better-sqlite3";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createSqliteStore } from "../src/index.js";

/** The ledger's indexes as SQLite keeps them. */
function ledgerIndexes(filename: string): unknown[] {
  const db = new BetterSqlite3(filename, { readonly: true });
  try {
    return db
      .prepare(
        "SELECT name, sql FROM sqlite_master WHERE tbl_name = 'ledger_transfers' AND type = 'index' ORDER BY name",
      )
      .all();
  } finally {
    db.close();
  }
}

describe("SQLite bulk ledger load", () => {
  let directory: string;
  let filename: string;
  let store: Store;
  beforeEach(async () => {
    directory = await mkdtemp(join(tmpdir(), "openkyt-bulk-"));
    filename = join(directory, "store.db");
    store = await createSqliteStore({ filename });
  });
  afterEach(async () => {
    await store.close();
    await rm(directory, { recursive: true, force: true });
  });

  it("rebuilds the tracing indexes exactly as the migrations made them, and leaves no WAL behind", async () => {
    const before = ledgerIndexes(filename);
    expect(before).toHaveLength(3);
    const load = await store.bulkLedgerWriter?.();
    if (!load) throw new Error("the SQLite store has a bulk ledger load");
    await load.write(Array.from({ length: 2000 }, (_, i) => makeLedgerTransfer({ occurredAt: i })));
    expect(await load.finish()).toBe(2000);
    expect(ledgerIndexes(filename)).toEqual(before);
    expect(statSync(`${filename}-wal`).size).toBe(0);
  });

  it("fails as a whole: a row the ledger refuses leaves nothing and keeps the indexes", async () => {
    const before = ledgerIndexes(filename);
    const load = await store.bulkLedgerWriter?.();
    if (!load) throw new Error("the SQLite store has a bulk ledger load");
    const good = makeLedgerTransfer();
    // A NOT NULL column without a value: the database refuses it inside finish's transaction.
    const bad = { ...makeLedgerTransfer(), from: null as unknown as string };
    await load.write([good, bad]);
    await expect(load.finish()).rejects.toMatchObject({ name: "KytError", code: "STORE_ERROR" });
    expect(await store.ledgerByTxHash("ETH", good.txHash)).toEqual([]);
    expect(ledgerIndexes(filename)).toEqual(before);
    expect(await store.putLedgerTransfers([good])).toBe(1);
  });
});
