import { runAlertLifecycleModel, runTransferLifecycleModel } from "@openkyt/testkit";
import { createSqliteStore } from "../src/index.js";

// The alert and transfer lifecycles against independent models, through the engine on SQLite.
const sqlite = { name: "sqlite", createStore: () => createSqliteStore({ filename: ":memory:" }) };
runAlertLifecycleModel(sqlite);
runTransferLifecycleModel(sqlite);
