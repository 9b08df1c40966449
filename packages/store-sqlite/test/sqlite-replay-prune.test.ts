/**
 * The kysely store's replay guard deletes expired rows as it goes (a bounded delete every
 * PRUNE_EVERY admissions), so `request_signatures` holds about what is live, never every
 * request ever admitted; a live row is never deleted.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PRUNE_EVERY, PRUNE_MARGIN_MS } from "@openkyt/store-kysely";
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
      // 2,000 admissions, one a second, each expiring 1 s after it was admitted: a row is kept
      // until PRUNE_MARGIN_MS after its expiry, so about margin / 1 s rows are held, not 2,000.
      const step = 1_000;
      for (let i = 0; i < 2_000; i++) {
        const now = T + i * step;
        expect(await store.admitRequestSignature("key", `digest-${i}`, now + step, now)).toEqual({
          outcome: "fresh",
        });
      }
      const held = PRUNE_MARGIN_MS / step;
      const kept = rows(path);
      expect(kept).toBeGreaterThanOrEqual(held);
      expect(kept).toBeLessThan(held + PRUNE_EVERY + 2);
      // Every entry still live is a replay.
      const now = T + 1_999 * step;
      for (let i = 1_998; i < 2_000; i++) {
        expect(await store.admitRequestSignature("key", `digest-${i}`, now + step, now)).toEqual({
          outcome: "replay",
        });
      }
    } finally {
      await store.close();
    }
  });

  it("keeps a row past its expiry for a node whose clock is behind (PRUNE_MARGIN_MS)", async () => {
    const store = await createSqliteStore({ filename: join(directory, "skew.db") });
    try {
      const expiresAt = T + 300_000;
      expect(await store.admitRequestSignature("key", "captured", expiresAt, T)).toEqual({
        outcome: "fresh",
      });
      // A node whose clock runs 10 minutes ahead prunes: by its clock the row expired long ago.
      const ahead = expiresAt + 10 * 60_000;
      for (let i = 0; i < PRUNE_EVERY; i++) {
        await store.admitRequestSignature("other", `d-${i}`, ahead + 300_000, ahead);
      }
      // A node 10 minutes behind still accepts the captured request's timestamp: it is a replay.
      expect(await store.admitRequestSignature("key", "captured", expiresAt, expiresAt - 1)).toEqual({
        outcome: "replay",
      });
    } finally {
      await store.close();
    }
  });
});
