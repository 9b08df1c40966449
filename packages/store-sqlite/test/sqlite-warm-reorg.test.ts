/**
 * The warm-copy reorg scenario over one SQLite file: the follower writes through one store, the
 * warm engine reads through another opened on the same file (two processes' view); then again
 * with the engine's traces on a screening thread, whose shared image must be rebuilt without the
 * undone blocks.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runWarmReorgScenario } from "@openkyt/testkit";
import { createSqliteStore } from "../src/index.js";

/** Two stores on a fresh SQLite file. */
async function twoHandles() {
  const dir = mkdtempSync(join(tmpdir(), "openkyt-warm-reorg-"));
  const filename = join(dir, "ledger.sqlite");
  const follower = await createSqliteStore({ filename });
  const warm = await createSqliteStore({ filename });
  return {
    follower,
    warm,
    async close() {
      await warm.close();
      await follower.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

runWarmReorgScenario("SQLite, two handles on one file", twoHandles);
runWarmReorgScenario("SQLite, two handles on one file", twoHandles, { screeningThreads: 1 });
