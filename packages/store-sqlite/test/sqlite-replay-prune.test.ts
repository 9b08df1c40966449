/**
 * The kysely store's replay guard deletes expired rows as it goes (a bounded delete every
 * PRUNE_EVERY admissions), so `request_signatures` holds about what is live, never every
 * request ever admitted; a live row is never deleted.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import BetterSqlite3 from "better-sqlite3";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createSqliteStore } from "../src/index.js";

const T = 1_800_000_000_000;

/** Rows of `request_signatures` in the database file at `path`, read by another connection. */
function rows(path: string): number {
  const sqlite = new BetterSqlite3(path, { readonly: true });
  try {
    return (sqlite.prepare("select count(*) as n from request_signatures").get() as { n: number }).n;
  } finally {
    sqlite.close();
  }
}

describe("SQLite replay guard table", () => {
  let directory = "";
  beforeEach(async () => {
    directory = await mkdtemp(join(tmpdir(), "openkyt-replay-"));
  });
  afterEach(async () => {
    await rm(directory, { recursive: true, force: true });
  });

  it("prunes expired rows while admitting, and keeps the live ones", async () => {
    const path = join(directory, "kyt.db");
    const store = await createSqliteStore({ filename: path });
    try {
      // 2,000 admissions, each expiring 1 s after it was admitted, 10 ms apart: about 100 live at a time.
      for (let i = 0; i < 2_000; i++) {
        const now = T + i * 10;
        expect(await store.admitRequestSignature("key", `digest-${i}`, now + 1_000, now)).toEqual({
          outcome: "fresh",
        });
      }
      const kept = rows(path);
      expect(kept).toBeGreaterThanOrEqual(100);
      expect(kept).toBeLessThan(100 + 64 + 1);
      // Every entry still live is a replay.
      const now = T + 1_999 * 10;
      for (let i = 1_900; i < 2_000; i++) {
        expect(await store.admitRequestSignature("key", `digest-${i}`, now + 1_000, now)).toEqual({
          outcome: "replay",
        });
      }
    } finally {
      await store.close();
    }
  });
});
