import { appliedMigrations, migrateDown, migrateToLatest, STORE_MIGRATIONS } from "@openkyt/store-kysely";
import { sql } from "kysely";
import { describe, expect, it } from "vitest";
import { createSqliteStore, openSqliteDatabase } from "../src/index.js";

const ALL = Object.keys(STORE_MIGRATIONS);

describe("sqlite migrations", () => {
  it("go up to latest, down to zero and up again", async () => {
    const db = openSqliteDatabase(":memory:");
    try {
      const tables = async () =>
        (
          await sql<{
            name: string;
          }>`select name from sqlite_master where type = 'table' and name not like 'kysely_%' and name not like 'sqlite_%' order by name`.execute(
            db,
          )
        ).rows.map((r) => r.name);
      // Every table and index of the store, with its SQL: what a migration changes.
      const schema = async () =>
        (
          await sql<{
            entry: string;
          }>`select type || ' ' || name || ': ' || coalesce(sql, '') as entry from sqlite_master where name not like 'kysely_%' and name not like 'sqlite_%' order by type, name`.execute(
            db,
          )
        ).rows.map((r) => r.entry);
      const up = await migrateToLatest(db);
      expect(up.applied.map((m) => m.name)).toEqual(ALL);
      expect(await appliedMigrations(db)).toEqual(ALL);
      expect(await tables()).toContain("transfers");
      expect((await migrateToLatest(db)).applied).toEqual([]);
      const latest = await schema();

      // One step down reverts the last migration only, and up again restores the same schema.
      const oneDown = await migrateDown(db);
      expect(oneDown.applied).toEqual([{ name: ALL[ALL.length - 1], direction: "Down" }]);
      expect(await appliedMigrations(db)).toEqual(ALL.slice(0, -1));
      expect(await schema()).not.toEqual(latest);
      await migrateToLatest(db);
      expect(await schema()).toEqual(latest);

      await migrateDown(db, "zero");
      expect(await appliedMigrations(db)).toEqual([]);
      expect(await tables()).toEqual([]);

      await migrateToLatest(db);
      expect(await appliedMigrations(db)).toEqual(ALL);
      expect(await schema()).toEqual(latest);
    } finally {
      await db.destroy();
    }
  });

  it("leave the schema alone when asked not to migrate", async () => {
    const store = await createSqliteStore({ filename: ":memory:", migrate: false });
    await expect(store.getTransfer("t")).rejects.toThrow(/no such table/);
    await store.close();
    await store.close();
  });
});
