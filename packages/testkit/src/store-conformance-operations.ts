/** Conformance of the operations member: the job queue by kind and the paused webhooks. */
import type { WebhookRecord } from "@openkyt/core";
import { describe, expect, it } from "vitest";
import type { ConformanceContext } from "./store-conformance.js";
import { makeJob, BASE_TIME as T0 } from "./store-factories.js";

const LEASE = 30_000;

const webhook = (id: string, overrides: Partial<WebhookRecord> = {}): WebhookRecord => ({
  id,
  accountId: "acct-1",
  url: "http://127.0.0.1:9/hook",
  events: ["alert.created"],
  secret: "enc:v1:sealed",
  createdAt: T0,
  deletedAt: null,
  state: "active",
  pausedAt: null,
  pausedReason: null,
  consecutiveFailures: 0,
  ...overrides,
});

/** Registers the operations tests. */
export function operationsConformance(ctx: ConformanceContext): void {
  describe("operational stats", () => {
    it("is empty for an empty store", async () => {
      expect(await ctx.store().operationalStats(T0)).toEqual({ jobs: [], pausedWebhooks: 0 });
    });

    it("counts due, scheduled and leased jobs by kind, with the oldest due runAt", async () => {
      const s = ctx.store();
      await s.enqueueJob(makeJob({ id: "b-1", kind: "transfer.bind", runAt: T0 - 5_000 }));
      await s.enqueueJob(makeJob({ id: "b-2", kind: "transfer.bind", runAt: T0 - 1_000 }));
      await s.enqueueJob(makeJob({ id: "b-3", kind: "transfer.bind", runAt: T0 + 60_000 }));
      await s.enqueueJob(makeJob({ id: "c-1", kind: "transfer.check", runAt: T0 - 9_000 }));
      await s.enqueueJob(makeJob({ id: "c-2", kind: "transfer.check", runAt: T0 - 2_000 }));
      await s.enqueueJob(makeJob({ id: "w-1", kind: "webhook.deliver", runAt: T0 + 1 }));
      // The earliest check is leased now; an expired lease of an older bind counts as due again.
      const claimed = await s.claimJobs({
        now: T0,
        limit: 1,
        leaseMs: LEASE,
        owner: "w1",
        kinds: ["transfer.check"],
      });
      expect(claimed.map((j) => j.id)).toEqual(["c-1"]);
      await s.enqueueJob(
        makeJob({
          id: "b-0",
          kind: "transfer.bind",
          runAt: T0 - 20_000,
          leaseOwner: "gone",
          leaseUntil: T0 - 1,
        }),
      );
      expect(await s.operationalStats(T0)).toEqual({
        jobs: [
          { kind: "transfer.bind", due: 3, scheduled: 1, leased: 0, oldestDueAt: T0 - 20_000 },
          { kind: "transfer.check", due: 1, scheduled: 0, leased: 1, oldestDueAt: T0 - 2_000 },
          { kind: "webhook.deliver", due: 0, scheduled: 1, leased: 0, oldestDueAt: null },
        ],
        pausedWebhooks: 0,
      });
      // Later, the lease has run out and the webhook delivery is due.
      expect((await s.operationalStats(T0 + LEASE)).jobs).toEqual([
        { kind: "transfer.bind", due: 3, scheduled: 1, leased: 0, oldestDueAt: T0 - 20_000 },
        { kind: "transfer.check", due: 2, scheduled: 0, leased: 0, oldestDueAt: T0 - 9_000 },
        { kind: "webhook.deliver", due: 1, scheduled: 0, leased: 0, oldestDueAt: T0 + 1 },
      ]);
      await s.completeJob("c-1", "w1");
      expect((await s.operationalStats(T0)).jobs[1]).toEqual({
        kind: "transfer.check",
        due: 1,
        scheduled: 0,
        leased: 0,
        oldestDueAt: T0 - 2_000,
      });
    });

    it("counts live paused webhooks of every account, not active or deleted ones", async () => {
      const s = ctx.store();
      await s.putWebhook(webhook("w-active"));
      await s.putWebhook(webhook("w-other", { accountId: "acct-2" }));
      await s.putWebhook(webhook("w-gone"));
      const fail = { ok: false, at: T0, pauseAfter: 1, reason: "1 failure" };
      await s.noteWebhookDelivery("w-other", fail);
      await s.noteWebhookDelivery("w-gone", fail);
      expect((await s.operationalStats(T0)).pausedWebhooks).toBe(2);
      await s.deleteWebhook("w-gone", T0 + 1);
      expect((await s.operationalStats(T0)).pausedWebhooks).toBe(1);
      await s.resumeWebhook("w-other");
      expect((await s.operationalStats(T0)).pausedWebhooks).toBe(0);
    });
  });
}
