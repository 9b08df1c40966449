import { createEngine, type Engine, isKytError, manualClock, type Store } from "@openkyt/core";
import { loadWorld, NOW, randomTxHash, TX, W } from "@openkyt/testkit";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { withTestPostgres } from "./pg-test-suite.js";

/** Rounds of each race, so that both orders of arrival get a chance. */
const ROUNDS = 6;

await withTestPostgres("engine concurrency on Postgres", ({ stores }) => {
  describe("two engines (two pools, as two processes) on one Postgres schema", () => {
    let storeA: Store;
    let storeB: Store;
    let a: Engine;
    let b: Engine;
    beforeEach(async () => {
      storeA = await stores.createStore();
      storeB = await stores.openAgain(storeA);
      a = createEngine({ store: storeA, clock: manualClock(NOW) });
      b = createEngine({ store: storeB, clock: manualClock(NOW) });
      await loadWorld(a);
    });
    afterEach(async () => {
      await storeB.close();
      await stores.destroyStore(storeA);
    });

    const attempt = (engine: Engine, n: number) =>
      engine.forAccount("acme").registerAttempt({
        attempt_id: `att-${n}`,
        direction: "incoming",
        network: "ETH",
        input_address: W.b,
        output_address: W.client,
        amount: 1,
      });

    it("binding one attempt from both at once: one wins, the other gets ILLEGAL_TRANSITION", async () => {
      for (let round = 0; round < ROUNDS; round++) {
        const { id } = await attempt(a, round);
        // One hash per round: two transfers may not share an identity.
        const hash = round === 0 ? TX.deposit : randomTxHash();
        const outcomes = await Promise.allSettled([
          a.forAccount("acme").bindTransaction(id, { tx_hash: hash }),
          b.forAccount("acme").bindTransaction(id, { tx_hash: hash }),
        ]);
        const won = outcomes.filter((o) => o.status === "fulfilled");
        const lost = outcomes.filter((o) => o.status === "rejected");
        expect(won).toHaveLength(1);
        expect(lost).toHaveLength(1);
        expect(isKytError(lost[0]?.reason, "ILLEGAL_TRANSITION")).toBe(true);
        expect(won[0]?.value).toMatchObject({ tx_status: "binding", tx_hash: hash });
        expect(await storeA.getTransfer(id)).toMatchObject({ txStatus: "binding", txHash: hash });
        const bindJobs = (await storeA.listJobs(id)).filter((j) => j.kind === "transfer.bind");
        expect(bindJobs).toHaveLength(1);
      }
      await a.drain();
      // The first round's hash is on the ledger: its transfer binds; the others wait for theirs.
      const page = await a.forAccount("acme").listTransfers({});
      expect(page.items.map((t) => t.tx_status).sort()).toEqual([
        ...Array(ROUNDS - 1).fill("binding"),
        "bound",
      ]);
    });

    it("binding one attempt twice at once on one engine: the same outcome", async () => {
      const { id } = await attempt(a, 99);
      const api = a.forAccount("acme");
      const outcomes = await Promise.allSettled([
        api.bindTransaction(id, { tx_hash: TX.deposit }),
        api.bindTransaction(id, { tx_hash: TX.deposit }),
      ]);
      expect(outcomes.map((o) => o.status).sort()).toEqual(["fulfilled", "rejected"]);
      const lost = outcomes.find((o) => o.status === "rejected");
      expect(isKytError(lost?.reason, "ILLEGAL_TRANSITION")).toBe(true);
      expect((await storeA.listJobs(id)).filter((j) => j.kind === "transfer.bind")).toHaveLength(1);
    });

    it("registering one transfer from both at once yields one transfer", async () => {
      const deposit = (hash: string) => ({
        direction: "incoming" as const,
        network: "ETH",
        tx_hash: hash,
        output_address: W.client,
      });
      const hashes = [TX.deposit, TX.mixerDeposit, TX.exchangeDeposit];
      for (const hash of hashes) {
        const results = await Promise.all([
          a.forAccount("acme").registerTransfer(deposit(hash)),
          b.forAccount("acme").registerTransfer(deposit(hash)),
          b.forAccount("acme").registerTransfer(deposit(hash)),
        ]);
        expect(new Set(results.map((r) => r.transfer.id)).size).toBe(1);
        expect(results.filter((r) => r.created)).toHaveLength(1);
        expect(await storeA.listJobs(results[0]?.transfer.id)).toHaveLength(1);
      }
      expect((await a.forAccount("acme").listTransfers({})).total_items).toBe(hashes.length);
    });
  });
});
