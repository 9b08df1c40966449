import { existsSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { isKytError } from "@openkyt/core";
import BetterSqlite3 from "better-sqlite3";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createSqliteStore, DEFAULT_PAGE_SIZE } from "../src/index.js";

/** The page size and journal mode stored in the database file at `path`. */
function stored(path: string): { pageSize: number; journal: string } {
  const sqlite = new BetterSqlite3(path, { readonly: true });
  try {
    return {
      pageSize: sqlite.pragma("page_size", { simple: true }) as number,
      journal: sqlite.pragma("journal_mode", { simple: true }) as string,
    };
  } finally {
    sqlite.close();
  }
}

describe("SQLite page size", () => {
  let directory = "";
  beforeEach(async () => {
    directory = await mkdtemp(join(tmpdir(), "openkyt-page-size-"));
  });
  afterEach(async () => {
    await rm(directory, { recursive: true, force: true });
  });

  it("creates a database with 16 KiB pages unless told otherwise, in WAL mode", async () => {
    expect(DEFAULT_PAGE_SIZE).toBe(16384);
    const path = join(directory, "default.db");
    await (await createSqliteStore({ filename: path })).close();
    expect(stored(path)).toEqual({ pageSize: 16384, journal: "wal" });
  });

  it("creates a database with the page size asked for", async () => {
    const path = join(directory, "small.db");
    await (await createSqliteStore({ filename: path, pageSize: 4096 })).close();
    expect(stored(path)).toEqual({ pageSize: 4096, journal: "wal" });
  });

  it("leaves an existing database its own page size, and its data", async () => {
    const path = join(directory, "existing.db");
    const first = await createSqliteStore({ filename: path, pageSize: 4096 });
    await first.putAttributions([
      {
        network: "ETH",
        address: `0x${"ab".repeat(20)}`,
        entityName: "Kept",
        entityCategory: "exchange",
        source: null,
      },
    ]);
    await first.close();
    const again = await createSqliteStore({ filename: path });
    try {
      expect(await again.getAttributions("ETH", [`0x${"ab".repeat(20)}`])).toMatchObject([
        { entityName: "Kept" },
      ]);
    } finally {
      await again.close();
    }
    expect(stored(path).pageSize).toBe(4096);
  });

  it.each([0, 1000, 256, 131072, 16384.5, Number.NaN])(
    "refuses page size %s, naming it, and creates no file",
    async (pageSize) => {
      const path = join(directory, "refused.db");
      const error = await createSqliteStore({ filename: path, pageSize }).catch((e: unknown) => e);
      expect(isKytError(error, "VALIDATION_ERROR")).toBe(true);
      expect((error as Error).message).toMatch(/^pageSize: must be a power of two from 512 to 65536/);
      expect(existsSync(path)).toBe(false);
    },
  );
});
