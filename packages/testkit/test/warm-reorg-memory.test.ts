/** The warm-copy reorg scenario over the memory store (follower and engine share the one store). */
import { createMemoryStore } from "@openkyt/core";
import { runWarmReorgScenario } from "../src/index.js";

runWarmReorgScenario("memory", async () => {
  const store = createMemoryStore();
  return { follower: store, warm: store, close: () => store.close() };
});
