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

  it("rebuilds the ledger's indexes exactly as the migrations made them, and leaves no WAL behind", async () => {
    const before = ledgerIndexes(filename);
    expect(before).toHaveLength(4); // the key, two lookups, and (network, block) of migration 0020
    const load = await store.bulkLedgerWriter?.();
    if (!load) throw new Error("the SQLite store has a bulk ledger load");
    await load.write(Array.from({ length: 2000 }, (_, i) => makeLedgerTransfer({ occurredAt: i })));
    expect(await load.finish()).toBe(2000);
    expect(ledgerIndexes(filename)).toEqual(before);
    expect(statSync(`${filename}-wal`, { throwIfNoEntry: false })?.size ?? 0).toBe(0);
  });

  it("goes back to the WAL and the store's synchronous setting after a rebuild", async () => {
    const load = await store.bulkLedgerWriter?.();
    if (!load) throw new Error("the SQLite store has a bulk ledger load");
    await load.write([makeLedgerTransfer()]);
    expect(await load.finish()).toBe(1);
    const db = new BetterSqlite3(filename);
    try {
      expect(db.pragma("journal_mode", { simple: true })).toBe("wal");
    } finally {
      db.close();
    }
    // The store's own connection: still NORMAL (1), and writes go on.
    expect(await store.putLedgerTransfers([makeLedgerTransfer()])).toBe(1);
  });

  it("rebuilds through the WAL when another connection has the database open", async () => {
    const other = new BetterSqlite3(filename);
    try {
      const load = await store.bulkLedgerWriter?.();
      if (!load) throw new Error("the SQLite store has a bulk ledger load");
      const rows = Array.from({ length: 500 }, (_, i) => makeLedgerTransfer({ occurredAt: i }));
      await load.write([...rows, rows[3] as (typeof rows)[number]]);
      expect(await load.finish()).toBe(500);
      expect(other.pragma("journal_mode", { simple: true })).toBe("wal");
      expect(other.prepare("SELECT count(*) AS n FROM ledger_transfers").get()).toEqual({ n: 500 });
    } finally {
      other.close();
    }
  });

  it("rebuilds over a stored ledger, keeping the stored row of a repeated key and the first written one", async () => {
    const stored = Array.from({ length: 40 }, (_, i) => makeLedgerTransfer({ occurredAt: i, amount: 1 }));
    expect(await store.putLedgerTransfers(stored)).toBe(40);
    const load = await store.bulkLedgerWriter?.();
    if (!load) throw new Error("the SQLite store has a bulk ledger load");
    const fresh = Array.from({ length: 60 }, (_, i) =>
      makeLedgerTransfer({ occurredAt: 100 + i, amount: 2 }),
    );
    const again = (row: (typeof stored)[number]) => ({ ...row, amount: 3 });
    await load.write([...fresh.slice(0, 30), again(stored[0] as (typeof stored)[number])]);
    await load.write([...fresh.slice(30), again(fresh[5] as (typeof fresh)[number]), ...stored.map(again)]);
    expect(await load.finish()).toBe(60);
    expect(await store.ledgerByTxHash("ETH", stored[0]?.txHash ?? "")).toEqual([stored[0]]);
    expect(await store.ledgerByTxHash("ETH", fresh[5]?.txHash ?? "")).toEqual([fresh[5]]);
    expect(ledgerIndexes(filename)).toHaveLength(4);
    const scan = await store.scanLedger?.(0, 1000);
    expect(scan?.rows).toEqual([...stored, ...fresh]);
  });

  it("refuses a batch with a row the ledger cannot hold, staging none of it, and goes on", async () => {
    const before = ledgerIndexes(filename);
    const load = await store.bulkLedgerWriter?.();
    if (!load) throw new Error("the SQLite store has a bulk ledger load");
    const good = makeLedgerTransfer();
    // A NOT NULL column without a value: the staging table is declared as the ledger is.
    const bad = { ...makeLedgerTransfer(), from: null as unknown as string };
    await expect(load.write([good, bad])).rejects.toMatchObject({
      name: "KytError",
      code: "STORE_ERROR",
      message: expect.stringContaining("from_address"),
    });
    const other = makeLedgerTransfer();
    await load.write([other]);
    expect(await load.finish()).toBe(1);
    expect(await store.ledgerByTxHash("ETH", good.txHash)).toEqual([]);
    expect(await store.ledgerByTxHash("ETH", other.txHash)).toEqual([other]);
    expect(ledgerIndexes(filename)).toEqual(before);
    expect(await store.putLedgerTransfers([good])).toBe(1);
  });

  describe("exclusive loads", () => {
    /** Whether `promise` settles within `ms` (a free store answers a read in far less). */
    const settlesWithin = async (promise: Promise<unknown>, ms: number) =>
      Promise.race([promise.then(() => true), new Promise((r) => setTimeout(() => r(false), ms))]);

    it("hold the store from the first write of a load into an empty ledger until it ends", async () => {
      const load = await store.bulkLedgerWriter?.({ exclusive: true });
      if (!load) throw new Error("the SQLite store has a bulk ledger load");
      const row = makeLedgerTransfer();
      await load.write([row]);
      const read = store.ledgerByTxHash("ETH", row.txHash);
      expect(await settlesWithin(read, 200)).toBe(false);
      expect(await load.finish()).toBe(1);
      expect(await read).toEqual([row]);
      expect(ledgerIndexes(filename)).toHaveLength(4);
    });

    it("are staged, leaving the store usable, when the ledger is not empty", async () => {
      const stored = makeLedgerTransfer();
      await store.putLedgerTransfers([stored]);
      const load = await store.bulkLedgerWriter?.({ exclusive: true });
      if (!load) throw new Error("the SQLite store has a bulk ledger load");
      const row = makeLedgerTransfer();
      await load.write([row]);
      expect(await settlesWithin(store.ledgerByTxHash("ETH", stored.txHash), 2000)).toBe(true);
      expect(await load.finish()).toBe(1);
    });

    it("refuse a batch with a row the ledger cannot hold, keeping none of it, and go on", async () => {
      const before = ledgerIndexes(filename);
      const load = await store.bulkLedgerWriter?.({ exclusive: true });
      if (!load) throw new Error("the SQLite store has a bulk ledger load");
      const good = makeLedgerTransfer();
      const bad = { ...makeLedgerTransfer(), to: null as unknown as string };
      await load.write([makeLedgerTransfer()]);
      await expect(load.write([good, bad])).rejects.toMatchObject({
        code: "STORE_ERROR",
        message: expect.stringContaining("to_address"),
      });
      expect(await load.finish()).toBe(1);
      expect(await store.ledgerByTxHash("ETH", good.txHash)).toEqual([]);
      expect(ledgerIndexes(filename)).toEqual(before);
      const db = new BetterSqlite3(filename);
      try {
        expect(db.pragma("journal_mode", { simple: true })).toBe("wal");
      } finally {
        db.close();
      }
    });
  });
});
