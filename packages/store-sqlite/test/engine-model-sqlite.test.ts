import { runAlertLifecycleModel } from "@openkyt/testkit";
import { createSqliteStore } from "../src/index.js";

// The alert lifecycle against an independent model, through the engine on SQLite.
runAlertLifecycleModel({ name: "sqlite", createStore: () => createSqliteStore({ filename: ":memory:" }) });
