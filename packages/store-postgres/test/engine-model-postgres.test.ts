import { runAlertLifecycleModel, runTransferLifecycleModel } from "@openkyt/testkit";
import { withTestPostgres } from "./pg-test-suite.js";

// The alert and transfer lifecycles against independent models, through the engine on Postgres
// (a schema per run).
await withTestPostgres("lifecycle models on Postgres", ({ stores }) => {
  const postgres = {
    name: "postgres",
    createStore: () => stores.createStore(),
    destroyStore: (s: Parameters<typeof stores.destroyStore>[0]) => stores.destroyStore(s),
  };
  runAlertLifecycleModel(postgres, { numRuns: 10 });
  runTransferLifecycleModel(postgres, { numRuns: 10 });
});
