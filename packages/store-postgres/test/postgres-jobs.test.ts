import { type ChainSource, createEngine, manualClock, type Store, storeChainSource } from "@openkyt/core";
import { failingChainSource, loadWorld, makeJob, NOW, TX, W } from "@openkyt/testkit";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { withTestPostgres } from "./pg-test-suite.js";

const LEASE = 30_000;
const deposit = (hash: string = TX.deposit) => ({
  direction: "incoming" as const,
  network: "ETH",
  tx_hash: hash,
  output_address: W.client,
});

await withTestPostgres("jobs across processes on Postgres", ({ stores }) => {
  describe("leases, backoff, giving up and graceful stop", () => {
    let storeA: Store;
    let storeB: Store;
    beforeEach(async () => {
      storeA = await stores.createStore();
      storeB = await stores.openAgain(storeA);
    });
    afterEach(async () => {
      await storeB.close();
      await stores.destroyStore(storeA);
    });

    /** An engine over `store` with a manual clock at NOW and short job settings. */
    const engineOn = (store: Store, over: { chainSource?: ChainSource; concurrency?: number } = {}) => {
      const clock = manualClock(NOW);
      const engine = createEngine({
        store,
        clock,
        ...(over.chainSource ? { chainSource: over.chainSource } : {}),
        jobs: {
          leaseMs: LEASE,
          backoffBaseMs: 1_000,
          backoffMaxMs: 4_000,
          maxAttempts: 4,
          pollIntervalMs: 20,
          concurrency: over.concurrency ?? 16,
        },
      });
      return { engine, clock };
    };

    it("never gives one job to two claimers on different pools", async () => {
      for (let i = 0; i < 120; i++) await storeA.enqueueJob(makeJob({ runAt: NOW - i }));
      const claim = (store: Store, owner: string) =>
        store.claimJobs({ now: NOW, limit: 15, leaseMs: LEASE, owner });
      const batches = await Promise.all(
        Array.from({ length: 10 }, (_, i) => claim(i % 2 === 0 ? storeA : storeB, `w${i}`)),
      );
      const ids = batches.flatMap((batch) => batch.map((job) => job.id));
      expect(new Set(ids).size).toBe(ids.length);
      const rest = await claim(storeB, "late");
      expect(ids.length + rest.length).toBe(120);
    });

    it("claims the job of a worker that died once its lease ran out", async () => {
      const a = engineOn(storeA);
      await loadWorld(a.engine);
      const { transfer } = await a.engine.forAccount("acme").registerTransfer(deposit());
      const [held] = await storeA.claimJobs({ now: NOW, limit: 5, leaseMs: LEASE, owner: "dead-worker" });
      expect(held?.subjectId).toBe(transfer.id);
      const b = engineOn(storeB);
      await b.engine.drain();
      expect((await storeB.getTransfer(transfer.id))?.txStatus).toBe("binding");
      b.clock.advance(LEASE);
      await b.engine.drain();
      const after = await b.engine.forAccount("acme").getTransfer(transfer.id);
      expect(after).toMatchObject({ tx_status: "bound", risk_level: "severe" });
      expect(after.check_state).toMatchObject({ exposure: "checked", counterparty: "checked" });
      expect(await storeA.listJobs()).toEqual([]);
      expect(await storeA.completeJob(held?.id ?? "", "dead-worker")).toBe(false);
    });

    it("retries a failing job with growing delays, then ends in error with the reason kept", async () => {
      const chain = failingChainSource("node unreachable");
      const { engine, clock } = engineOn(storeA, { chainSource: chain });
      const { transfer } = await engine.forAccount("acme").registerTransfer(deposit());
      const calls: number[] = [];
      await engine.drain();
      for (const delay of [1_000, 2_000, 4_000]) {
        const [job] = await storeA.listJobs(transfer.id);
        expect(job?.runAt).toBe(clock.now() + delay);
        expect(job?.lastError).toBe("node unreachable");
        const before = chain.calls;
        clock.advance(delay - 1);
        await engine.drain();
        clock.advance(1);
        await engine.drain();
        calls.push(chain.calls - before);
      }
      // Nothing ran a millisecond early; exactly one run at each retry time.
      expect(calls).toEqual([1, 1, 1]);
      expect(chain.calls).toBe(4);
      const record = await storeA.getTransfer(transfer.id);
      expect(record?.txStatus).toBe("error");
      expect(record?.lastError).toContain("node unreachable");
      expect(await storeA.listJobs()).toEqual([]);
    });

    it("stop() finishes the jobs in hand and claims no new ones", async () => {
      let release = (): void => {};
      const gate = new Promise<void>((resolve) => {
        release = resolve;
      });
      let entered = (_hash: string): void => {};
      const inHand = new Promise<string>((resolve) => {
        entered = resolve;
      });
      const ledger = storeChainSource(storeA);
      const slow: ChainSource = {
        async lookup(network, hash) {
          entered(hash);
          await gate;
          return ledger.lookup(network, hash);
        },
      };
      const { engine } = engineOn(storeA, { chainSource: slow, concurrency: 1 });
      await loadWorld(engine);
      const api = engine.forAccount("acme");
      const hashes = [TX.deposit, TX.mixerDeposit, TX.exchangeDeposit];
      const ids = new Map<string, string>();
      for (const hash of hashes) ids.set(hash, (await api.registerTransfer(deposit(hash))).transfer.id);
      engine.start();
      const handled = await inHand;
      const stopped = engine.stop();
      release();
      await stopped;
      const done = await storeA.getTransfer(ids.get(handled) ?? "");
      expect(done?.txStatus).toBe("bound");
      const left = await storeA.listJobs();
      expect(left.every((job) => job.leaseOwner === null)).toBe(true);
      expect(left.filter((job) => job.kind === "transfer.bind")).toHaveLength(2);
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect((await storeA.listJobs()).every((job) => job.attempts === 0)).toBe(true);
    });
  });
});
