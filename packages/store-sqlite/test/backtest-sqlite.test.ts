import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Store } from "@openkyt/core";
import { runBacktestScenarios } from "@openkyt/testkit";
import { createSqliteStore } from "../src/index.js";

const directories = new WeakMap<Store, string>();

// Backtests against the documentation's counts on a SQLite file.
runBacktestScenarios({
  name: "sqlite file",
  createStore: async () => {
    const directory = await mkdtemp(join(tmpdir(), "openkyt-backtest-"));
    const store = await createSqliteStore({ filename: join(directory, "kyt.db") });
    directories.set(store, directory);
    return store;
  },
  destroyStore: async (store) => {
    await store.close();
    const directory = directories.get(store);
    if (directory) await rm(directory, { recursive: true, force: true });
  },
});
