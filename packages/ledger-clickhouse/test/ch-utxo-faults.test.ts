/**
 * Faults under a BTC check: the ClickHouse server holding the UTXO ledger is stopped while a
 * deposit is bound and traced. The check waits (the client retries with backoff), does not end
 * while the server is gone, and completes with the same answer once it returns; a ledger whose
 * retry budget runs out fails the call with a STORE_ERROR naming the server, never an empty answer.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createMemoryStore } from "@openkyt/core";
import {
  BITCOIN_ADDRESSES as B,
  BITCOIN_LEDGER,
  BITCOIN_TXIDS as BTX,
  createHarness,
} from "@openkyt/testkit";
import { describe, expect, it } from "vitest";
import {
  migrateClickHouseLedger,
  openClickHouseLedger,
  parseClickHouseUrl,
  startLocalClickHouse,
  stopProcess,
  withExternalLedger,
} from "../src/index.js";
import { CLICKHOUSE_MISSING } from "./ch-test-server.js";

describe.skipIf(CLICKHOUSE_MISSING !== null)("ClickHouse UTXO ledger faults", () => {
  it("a BTC deposit's check waits for a stopped server and completes when it is back", async () => {
    const dir = await mkdtemp(join(tmpdir(), "openkyt-clickhouse-utxo-fault-"));
    const first = await startLocalClickHouse({ dir });
    let second: Awaited<ReturnType<typeof startLocalClickHouse>> | null = null;
    try {
      const target = parseClickHouseUrl(first.ledgerUrl("utxo_fault"));
      await migrateClickHouseLedger(target);
      const ledger = openClickHouseLedger(target, {
        retry: { totalMillis: 280_000, maxDelayMillis: 500, requestTimeoutMillis: 10_000 },
      });
      const store = withExternalLedger(createMemoryStore(), ledger);
      const h = await createHarness({ name: "ClickHouse fault", createStore: async () => store });
      try {
        const { reference } = h.engine;
        expect((await reference.loadUtxoTransactions(BITCOIN_LEDGER)).added).toBe(BITCOIN_LEDGER.length);
        await reference.loadSanctions([
          {
            network: "BTC",
            address: B.sanctioned,
            listName: "OFAC SDN",
            program: "CYBER2",
            entity: "Bad Actor",
            listedAt: null,
            delistedAt: null,
          },
        ]);

        await stopProcess(first.process);
        // Also a ledger that gives up soon: its call fails loudly, naming the server.
        const impatient = openClickHouseLedger(target, { retry: { totalMillis: 1_000 } });
        await expect(impatient.utxoTransactions("BTC", [BTX.deposit])).rejects.toMatchObject({
          code: "STORE_ERROR",
          message: expect.stringMatching(/did not answer/),
        });
        await impatient.close();

        let settled = false;
        const check = (async () => {
          const { transfer } = await h.acme.registerTransfer({
            direction: "incoming",
            network: "BTC",
            tx_hash: BTX.deposit,
            output_address: B.client,
          });
          await h.engine.drain();
          return h.acme.getTransfer(transfer.id);
        })().finally(() => {
          settled = true;
        });
        await new Promise((r) => setTimeout(r, 4_000));
        // The server is gone: the check is waiting, not finished with a wrong answer.
        expect(settled).toBe(false);
        second = await startLocalClickHouse({ dir, httpPort: first.httpPort, tcpPort: first.tcpPort });
        const done = await check;
        expect(done).toMatchObject({ tx_status: "bound", amount: 8, output_address: B.client });
        const exposure = await h.acme.getTransferExposure(done.id);
        expect(exposure.input_addresses).toEqual([B.a, B.b]);
        const sanctions = exposure.indirect_interaction?.find((s) => s.entity_category === "sanctions");
        expect(sanctions?.value_share).toBeCloseTo(0.4, 12);
      } finally {
        await h.close();
      }
    } finally {
      if (second) await stopProcess(second.process);
      await stopProcess(first.process);
      await rm(dir, { recursive: true, force: true });
    }
  }, 400_000);
});
