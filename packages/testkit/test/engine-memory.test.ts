import { createMemoryStore } from "@openkyt/core";
import { runEngineScenarios } from "@openkyt/testkit";

runEngineScenarios({ name: "memory", createStore: async () => createMemoryStore() });
