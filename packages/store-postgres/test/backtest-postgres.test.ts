import { runBacktestScenarios } from "@openkyt/testkit";
import { withTestPostgres } from "./pg-test-suite.js";

// Backtests against the documentation's counts on Postgres, a schema per test.
await withTestPostgres("backtests on Postgres", ({ stores }) => {
  runBacktestScenarios({
    name: "postgres",
    createStore: () => stores.createStore(),
    destroyStore: (store) => stores.destroyStore(store),
  });
});
