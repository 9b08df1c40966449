import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runStoreConformance } from "@openkyt/testkit";
import { createSqliteStore } from "../src/index.js";

runStoreConformance({
  name: "sqlite :memory:",
  createStore: () => createSqliteStore({ filename: ":memory:" }),
});

/** Each store gets its own directory, removed after the test. */
const directories = new WeakMap<object, string>();

runStoreConformance({
  name: "sqlite file (WAL)",
  createStore: async () => {
    const directory = await mkdtemp(join(tmpdir(), "openkyt-sqlite-"));
    const store = await createSqliteStore({ filename: join(directory, "store.db") });
    directories.set(store, directory);
    return store;
  },
  destroyStore: async (store) => {
    await store.close();
    const directory = directories.get(store);
    if (directory) await rm(directory, { recursive: true, force: true });
  },
});
