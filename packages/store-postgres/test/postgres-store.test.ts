import { runStoreConformance } from "@openkyt/testkit";
import { withTestPostgres } from "./pg-test-suite.js";

// The Store port's conformance suite; every test gets its own schema, dropped after it.
await withTestPostgres("Postgres store conformance", ({ stores }) => {
  runStoreConformance({
    name: "postgres (a schema per test)",
    createStore: () => stores.createStore(),
    destroyStore: (store) => stores.destroyStore(store),
  });
});
