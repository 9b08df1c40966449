/**
 * The ledger part of the Store conformance suite on ClickHouse: a memory store keeps the
 * screening state, its ledger members go to a fresh ClickHouse database per test (the same
 * composition `openkyt serve --ledger clickhouse://...` runs). SQLite and Postgres pass the same
 * tests, so the answers are the same on the same rows.
 */
import { runLedgerConformance } from "@openkyt/testkit";
import { afterAll, beforeAll, describe } from "vitest";
import { type LocalClickHouse, startLocalClickHouse } from "../src/index.js";
import { CLICKHOUSE_MISSING, storeWithClickHouseLedger } from "./ch-test-server.js";

describe.skipIf(CLICKHOUSE_MISSING !== null)("ClickHouse ledger conformance", () => {
  let server: LocalClickHouse;
  beforeAll(async () => {
    server = await startLocalClickHouse();
  }, 120_000);
  afterAll(async () => {
    await server?.stop();
  });
  runLedgerConformance({ name: "ClickHouse", createStore: () => storeWithClickHouseLedger(server) });
});
