// The testkit is imported by path: a dependency of core on testkit would be a cycle.
import { runStoreConformance } from "../../../testkit/src/index.js";
import { createMemoryStore } from "../../src/store/index.js";

runStoreConformance({ name: "memory", createStore: async () => createMemoryStore() });
