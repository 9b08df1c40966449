/**
 * WAL checkpoints on a thread of their own (sqlite-wal-checkpointer.ts): committed pages reach
 * the database file without a commit of the store checkpointing them, the store's own automatic
 * checkpoint is only the fallback, and bad settings are refused by name.
 */
import { existsSync, statSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { isKytError, type Store } from "@openkyt/core";
import { makeTransfer } from "@openkyt/testkit";
import BetterSqlite3 from "better-sqlite3";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createSqliteStore, type WalCheckpointOptions } from "../src/index.js";

/** About 2 MB of transfer rows, in one transaction: far more pages than a fresh file holds. */
async function writeMany(store: Store): Promise<void> {
  const padding = "x".repeat(2_000);
  await store.insertTransfers(
    Array.from({ length: 1_000 }, (_, i) =>
      makeTransfer({ id: `t-${i}`, txHash: `0x${i.toString(16)}`, lastError: padding }),
    ),
  );
}

const sizeOf = (path: string) => statSync(path).size;

/** Resolves once `check` holds, polling; fails after `ms`. */
async function eventually(check: () => boolean, ms: number): Promise<void> {
  const until = Date.now() + ms;
  while (!check()) {
    if (Date.now() > until) throw new Error(`not within ${ms} ms`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describe("SQLite WAL checkpoints", () => {
  let directory = "";
  beforeEach(async () => {
    directory = await mkdtemp(join(tmpdir(), "openkyt-wal-"));
  });
  afterEach(async () => {
    await rm(directory, { recursive: true, force: true });
  });

  it("a thread copies committed pages into the database file; the store's commits do not", async () => {
    const path = join(directory, "background.db");
    // A fallback far above what the test writes: only the thread can checkpoint.
    const store = await createSqliteStore({
      filename: path,
      walCheckpoints: { intervalMs: 20, fallbackPages: 1_000_000 },
    });
    try {
      const before = sizeOf(path);
      await writeMany(store);
      await eventually(() => sizeOf(path) > before + 1_000_000, 5_000);
      expect(await store.getTransfer("t-999")).not.toBeNull();
    } finally {
      await store.close();
    }
    const sqlite = new BetterSqlite3(path, { readonly: true });
    try {
      expect(sqlite.prepare("select count(*) as n from transfers").get()).toEqual({ n: 1_000 });
    } finally {
      sqlite.close();
    }
  });

  it("inline: the pages stay in the WAL until SQLite's own checkpoint (1,000 pages)", async () => {
    const path = join(directory, "inline.db");
    const store = await createSqliteStore({ filename: path, walCheckpoints: { mode: "inline" } });
    try {
      const before = sizeOf(path);
      await writeMany(store);
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(sizeOf(path)).toBe(before);
      expect(sizeOf(`${path}-wal`)).toBeGreaterThan(1_000_000);
    } finally {
      await store.close();
    }
  });

  it("close() ends the thread: its connection is gone, so the last close removes the WAL", async () => {
    const path = join(directory, "threads.db");
    const store = await createSqliteStore({ filename: path, walCheckpoints: { intervalMs: 5 } });
    await writeMany(store);
    await store.close();
    await store.close();
    // SQLite deletes the WAL and shared-memory files when the last connection to the file closes.
    expect(existsSync(`${path}-wal`)).toBe(false);
    expect(existsSync(`${path}-shm`)).toBe(false);
    const memory = await createSqliteStore({ filename: ":memory:" });
    await memory.close();
  });

  it.each<[WalCheckpointOptions, string]>([
    [{ mode: "sometimes" as "inline" }, "walCheckpoints.mode"],
    [{ intervalMs: 0 }, "walCheckpoints.intervalMs"],
    [{ fallbackPages: 1.5 }, "walCheckpoints.fallbackPages"],
  ])("refuses %j, naming %s, before creating the file", async (walCheckpoints, field) => {
    const path = join(directory, "bad.db");
    const error = await createSqliteStore({ filename: path, walCheckpoints }).catch((e: unknown) => e);
    expect(isKytError(error) && error.code).toBe("VALIDATION_ERROR");
    expect(String((error as Error).message)).toContain(field);
    expect(existsSync(path)).toBe(false);
  });
});
