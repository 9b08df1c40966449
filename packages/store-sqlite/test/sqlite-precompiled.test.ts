import { migrateToLatest } from "@openkyt/store-kysely";
import { afterEach, describe, expect, it } from "vitest";
import { runPrecompiled } from "../../store-kysely/src/kysely-precompiled.js";
import { openSqliteDatabase } from "../src/index.js";

const db = openSqliteDatabase(":memory:");
afterEach(async () => {
  await db.deleteFrom("settings").execute();
});

describe("statements compiled once (kysely store)", () => {
  it("compiles a statement the first time and runs its text with each call's parameters", async () => {
    await migrateToLatest(db);
    let builds = 0;
    const put = (key: string, value: string) =>
      runPrecompiled(
        db,
        "test.settings.put",
        () => {
          builds += 1;
          return db.insertInto("settings").values({ key, value });
        },
        [key, value],
      );
    await put("a", "1");
    await put("b", "2");
    await db
      .transaction()
      .execute((trx) =>
        runPrecompiled(
          trx,
          "test.settings.put",
          () => trx.insertInto("settings").values({ key: "", value: "" }),
          ["c", "3"],
        ),
      );
    expect(builds).toBe(1);
    expect(await db.selectFrom("settings").selectAll().orderBy("key").execute()).toEqual([
      { key: "a", value: "1" },
      { key: "b", value: "2" },
      { key: "c", value: "3" },
    ]);
  });

  it("refuses parameters that do not match the compiled statement", async () => {
    await migrateToLatest(db);
    const read = (params: unknown[]) =>
      runPrecompiled(
        db,
        "test.settings.get",
        () => db.selectFrom("settings").selectAll().where("key", "=", "x"),
        params,
      );
    expect((await read(["nothing"])).rows).toEqual([]);
    await expect(read(["x", "y"])).rejects.toThrow("statement test.settings.get takes 1 parameters, got 2");
  });
});
