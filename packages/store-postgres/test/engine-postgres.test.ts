import { runEngineScenarios } from "@openkyt/testkit";
import { withTestPostgres } from "./pg-test-suite.js";

// The engine's lifecycles end to end on Postgres, a schema per test.
await withTestPostgres("engine scenarios on Postgres", ({ stores }) => {
  runEngineScenarios({
    name: "postgres",
    createStore: () => stores.createStore(),
    destroyStore: (store) => stores.destroyStore(store),
  });
});
