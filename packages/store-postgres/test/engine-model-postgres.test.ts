import { runAlertLifecycleModel } from "@openkyt/testkit";
import { withTestPostgres } from "./pg-test-suite.js";

// The alert lifecycle against an independent model, through the engine on Postgres (a schema per run).
await withTestPostgres("alert lifecycle model on Postgres", ({ stores }) => {
  runAlertLifecycleModel(
    {
      name: "postgres",
      createStore: () => stores.createStore(),
      destroyStore: (s) => stores.destroyStore(s),
    },
    { numRuns: 10 },
  );
});
