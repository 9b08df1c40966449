import {
  createEngine,
  createWarmLedger,
  createWarmSources,
  type Engine,
  type LedgerTransfer,
  manualClock,
  type Store,
  sequentialIds,
} from "@openkyt/core";
import { HOUR, loadWorld, T0, WORLD_LEDGER } from "@openkyt/testkit";
import { describe, expect, it } from "vitest";
import { withTestPostgres } from "./pg-test-suite.js";

/** Registers every world transfer (both directions) and an address check; what the API answers, checked. */
async function screenWorld(engine: Engine) {
  const api = engine.forAccount("acme");
  for (const row of WORLD_LEDGER) {
    for (const direction of ["incoming", "outgoing"] as const) {
      await api.registerTransfer({
        direction,
        network: row.network,
        tx_hash: row.txHash,
        token_id: row.tokenId,
        output_address: row.to,
      });
    }
  }
  await api.checkAddress({ network: "ETH", address: WORLD_LEDGER[0]?.from ?? "" });
  await engine.drain();
  return {
    transfers: await api.listTransfers({ page_size: "100" }),
    checks: await api.listManualChecks({ page_size: "100" }),
  };
}

const engineOver = (store: Store, extra: object = {}) =>
  createEngine({ store, clock: manualClock(T0 + 240 * HOUR), ids: sequentialIds(), ...extra });

// A warm ledger on Postgres: loaded once and followed by the ledger's sequence (migration 0010).
await withTestPostgres("warm ledger on Postgres", ({ stores }) => {
  describe("warm sources over Postgres", () => {
    it("screen exactly as the store-backed sources do", async () => {
      const coldStore = await stores.createStore();
      const warmStore = await stores.createStore();
      try {
        await loadWorld(engineOver(coldStore));
        await loadWorld(engineOver(warmStore));
        const expected = await screenWorld(engineOver(coldStore));
        expect(expected.transfers.items.some((t) => t.risk_level === "severe")).toBe(true);
        const warm = engineOver(warmStore, await createWarmSources(warmStore));
        expect(await screenWorld(warm)).toEqual(expected);
      } finally {
        await stores.destroyStore(coldStore);
        await stores.destroyStore(warmStore);
      }
    });

    it("follow rows another process stores, in commit order", async () => {
      const store = await stores.createStore();
      const other = await stores.openAgain(store);
      try {
        await store.putLedgerTransfers(WORLD_LEDGER.slice(0, 4));
        const warm = await createWarmLedger(store, { maxLagMs: 0 });
        expect(warm.size).toBe(4);
        const late = (i: number): LedgerTransfer => ({
          ...(WORLD_LEDGER[0] as LedgerTransfer),
          txHash: `0xlate${i}`,
          occurredAt: T0 + i,
        });
        // Writers in another process, some of them concurrent, while the copy is read.
        await Promise.all(
          Array.from({ length: 20 }, async (_, i) => {
            await other.putLedgerTransfers([late(i)]);
            await warm.catchUp();
          }),
        );
        await warm.catchUp();
        expect(warm.size).toBe(24);
        const query = [{ address: late(0).to, before: T0 + 100 }] as const;
        const seen = await warm.ledgerIncoming("ETH", "native", query, 100);
        for (let i = 0; i < 20; i++) expect(seen).toContainEqual(late(i));
      } finally {
        await other.close();
        await stores.destroyStore(store);
      }
    });
  });
});
