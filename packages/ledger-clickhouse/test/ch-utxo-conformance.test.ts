/**
 * The UTXO ledger part of the Store conformance suite on ClickHouse: a memory store keeps the
 * screening state, its UTXO members go to a fresh ClickHouse database per test (the composition
 * `openkyt serve --ledger clickhouse://...` runs). SQLite and Postgres pass the same tests
 * (with rollback checks, which an external ledger leaves out), so the answers are the same on
 * the same transactions.
 */
import { runUtxoLedgerConformance } from "@openkyt/testkit";
import { afterAll, beforeAll, describe } from "vitest";
import { type LocalClickHouse, startLocalClickHouse } from "../src/index.js";
import { CLICKHOUSE_MISSING, storeWithClickHouseLedger } from "./ch-test-server.js";

describe.skipIf(CLICKHOUSE_MISSING !== null)("ClickHouse UTXO ledger conformance", () => {
  let server: LocalClickHouse;
  beforeAll(async () => {
    server = await startLocalClickHouse();
  }, 120_000);
  afterAll(async () => {
    await server?.stop();
  });
  runUtxoLedgerConformance({ name: "ClickHouse", createStore: () => storeWithClickHouseLedger(server) });
});
