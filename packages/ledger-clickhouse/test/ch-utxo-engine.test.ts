/**
 * The engine's Bitcoin scenarios with the UTXO ledger in ClickHouse: deposits bind to the
 * outputs paying their address and are traced through the coins spent, reading the ledger from
 * a real server while the screening state (transfers, checks, clusters) stays in the store.
 * The memory, SQLite and Postgres stores run the same scenarios.
 */
import { runBitcoinScenarios } from "@openkyt/testkit";
import { afterAll, beforeAll, describe, vi } from "vitest";
import { type LocalClickHouse, startLocalClickHouse } from "../src/index.js";
import { CLICKHOUSE_MISSING, storeWithClickHouseLedger } from "./ch-test-server.js";

// Each scenario makes a fresh database (17 DDL statements) and loads the world over HTTP: on a
// loaded two-core machine that alone can pass the default 30 s.
vi.setConfig({ testTimeout: 180_000 });

describe.skipIf(CLICKHOUSE_MISSING !== null)("ClickHouse UTXO ledger under the engine", () => {
  let server: LocalClickHouse;
  beforeAll(async () => {
    server = await startLocalClickHouse();
  }, 120_000);
  afterAll(async () => {
    await server?.stop();
  });
  runBitcoinScenarios({ name: "ClickHouse ledger", createStore: () => storeWithClickHouseLedger(server) });
});
