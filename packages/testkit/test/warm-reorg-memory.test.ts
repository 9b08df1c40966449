/**
 * The warm-copy reorg scenario over the memory store (follower and engine share the one store),
 * with the traces inline and on a screening thread.
 */
import { createMemoryStore } from "@openkyt/core";
import { runWarmReorgScenario } from "../src/index.js";

async function oneStore() {
  const store = createMemoryStore();
  return { follower: store, warm: store, close: () => store.close() };
}

runWarmReorgScenario("memory", oneStore);
runWarmReorgScenario("memory", oneStore, { screeningThreads: 1 });
