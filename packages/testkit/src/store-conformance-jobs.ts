/** Conformance of the job members: due jobs, leases, takeovers, concurrent claims. */
import { describe, expect, it } from "vitest";
import { type ConformanceContext, expectKytError, idsOf } from "./store-conformance.js";
import { makeJob, BASE_TIME as T0 } from "./store-factories.js";

const LEASE = 30_000;

/** Registers the job tests. */
export function jobConformance(ctx: ConformanceContext): void {
  describe("jobs", () => {
    it("enqueues, lists by subject and refuses a duplicate id with CONFLICT", async () => {
      const job = makeJob({
        subjectId: "s-1",
        kind: "transfer.check",
        payload: { checks: ["exposure"], n: 2 },
      });
      await ctx.store().enqueueJob(job);
      await ctx.store().enqueueJob(makeJob({ subjectId: "s-2" }));
      expect(await ctx.store().listJobs("s-1")).toEqual([job]);
      expect(await ctx.store().listJobs()).toHaveLength(2);
      expect(await ctx.store().listJobs("none")).toEqual([]);
      await expectKytError(ctx.store().enqueueJob(makeJob({ id: job.id })), "CONFLICT");
    });

    it("claims only due jobs, earliest first, up to the limit, with a lease and one more attempt", async () => {
      await ctx.store().enqueueJob(makeJob({ id: "j-late", runAt: T0 + 10 }));
      await ctx.store().enqueueJob(makeJob({ id: "j-now", runAt: T0 }));
      await ctx.store().enqueueJob(makeJob({ id: "j-early", runAt: T0 - 10, attempts: 2 }));
      await ctx.store().enqueueJob(makeJob({ id: "j-earliest", runAt: T0 - 20 }));
      const claimed = await ctx.store().claimJobs({ now: T0, limit: 2, leaseMs: LEASE, owner: "w1" });
      expect(idsOf(claimed)).toEqual(["j-earliest", "j-early"]);
      expect(claimed[1]).toMatchObject({ attempts: 3, leaseOwner: "w1", leaseUntil: T0 + LEASE });
      const rest = await ctx.store().claimJobs({ now: T0, limit: 10, leaseMs: LEASE, owner: "w1" });
      expect(idsOf(rest)).toEqual(["j-now"]);
      expect(await ctx.store().claimJobs({ now: T0 + 9, limit: 10, leaseMs: LEASE, owner: "w1" })).toEqual(
        [],
      );
      const [stored] = await ctx.store().listJobs(claimed[0]!.subjectId);
      expect(stored).toEqual(claimed[0]);
    });

    it("does not claim a held lease again, but claims an expired one", async () => {
      const job = makeJob();
      await ctx.store().enqueueJob(job);
      await ctx.store().claimJobs({ now: T0, limit: 5, leaseMs: LEASE, owner: "w1" });
      expect(
        await ctx.store().claimJobs({ now: T0 + LEASE - 1, limit: 5, leaseMs: LEASE, owner: "w2" }),
      ).toEqual([]);
      const again = await ctx.store().claimJobs({ now: T0 + LEASE, limit: 5, leaseMs: LEASE, owner: "w2" });
      expect(again).toEqual([{ ...job, attempts: 2, leaseOwner: "w2", leaseUntil: T0 + 2 * LEASE }]);
    });

    it("completes and retries only while the lease is held", async () => {
      const job = makeJob();
      await ctx.store().enqueueJob(job);
      await ctx.store().claimJobs({ now: T0, limit: 1, leaseMs: LEASE, owner: "w1" });
      await ctx.store().claimJobs({ now: T0 + LEASE, limit: 1, leaseMs: LEASE, owner: "w2" });
      expect(await ctx.store().completeJob(job.id, "w1")).toBe(false);
      expect(await ctx.store().retryJob(job.id, "w1", T0 + 1, "late")).toBe(false);
      expect(await ctx.store().retryJob(job.id, "w2", T0 + 5 * LEASE, "chain timeout")).toBe(true);
      expect(await ctx.store().listJobs(job.subjectId)).toEqual([
        {
          ...job,
          attempts: 2,
          runAt: T0 + 5 * LEASE,
          lastError: "chain timeout",
          leaseOwner: null,
          leaseUntil: null,
        },
      ]);
      expect(await ctx.store().completeJob(job.id, "w2")).toBe(false);
      expect(
        await ctx.store().claimJobs({ now: T0 + 5 * LEASE - 1, limit: 1, leaseMs: LEASE, owner: "w3" }),
      ).toEqual([]);
      const [claimed] = await ctx
        .store()
        .claimJobs({ now: T0 + 5 * LEASE, limit: 1, leaseMs: LEASE, owner: "w3" });
      expect(claimed).toMatchObject({ id: job.id, attempts: 3, lastError: "chain timeout" });
      expect(await ctx.store().completeJob(job.id, "w3")).toBe(true);
      expect(await ctx.store().listJobs()).toEqual([]);
      expect(await ctx.store().completeJob("unknown", "w3")).toBe(false);
    });

    it("never gives one job to two concurrent claimers", async () => {
      for (let i = 0; i < 20; i++) await ctx.store().enqueueJob(makeJob({ runAt: T0 - i }));
      const request = (owner: string) => ctx.store().claimJobs({ now: T0, limit: 15, leaseMs: LEASE, owner });
      const batches = await Promise.all([request("w1"), request("w2"), request("w3")]);
      const ids = batches.flatMap(idsOf);
      expect(ids).toHaveLength(20);
      expect(new Set(ids).size).toBe(20);
    });

    it("tells when the next job becomes claimable", async () => {
      expect(await ctx.store().nextJobAt()).toBeNull();
      await ctx.store().enqueueJob(makeJob({ id: "j-1", runAt: T0 + 100 }));
      await ctx.store().enqueueJob(makeJob({ id: "j-2", runAt: T0 + 50 }));
      expect(await ctx.store().nextJobAt()).toBe(T0 + 50);
      await ctx.store().claimJobs({ now: T0 + 60, limit: 1, leaseMs: LEASE, owner: "w1" });
      expect(await ctx.store().nextJobAt()).toBe(T0 + 100);
      await ctx.store().claimJobs({ now: T0 + 100, limit: 1, leaseMs: LEASE, owner: "w1" });
      expect(await ctx.store().nextJobAt()).toBe(T0 + 60 + LEASE);
    });

    it("tells when the next job of some kinds becomes claimable, leaving the other kinds out", async () => {
      const store = ctx.store();
      await store.enqueueJob(makeJob({ id: "b-1", kind: "transfer.bind", runAt: T0 }));
      await store.enqueueJob(makeJob({ id: "c-1", kind: "transfer.check", runAt: T0 + 20 }));
      await store.enqueueJob(makeJob({ id: "w-1", kind: "webhook.deliver", runAt: T0 + 100 }));
      expect(await store.nextJobAt()).toBe(T0);
      expect(await store.nextJobAt(["webhook.deliver"])).toBe(T0 + 100);
      expect(await store.nextJobAt(["transfer.check", "webhook.deliver"])).toBe(T0 + 20);
      expect(await store.nextJobAt(["backtest.run"])).toBeNull();
      expect(await store.nextJobAt([])).toBeNull();
      // A leased job counts from the end of its lease, for its own kind only.
      await store.claimJobs({
        now: T0 + 100,
        limit: 1,
        leaseMs: LEASE,
        owner: "w1",
        kinds: ["webhook.deliver"],
      });
      expect(await store.nextJobAt(["webhook.deliver"])).toBe(T0 + 100 + LEASE);
      expect(await store.nextJobAt(["transfer.bind", "transfer.bind"])).toBe(T0);
      expect(await store.nextJobAt(["backtest.run"])).toBeNull();
    });
  });
}
