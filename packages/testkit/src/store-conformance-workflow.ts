/**
 * Conformance of the workflow members: risk model listing and deletion, webhooks (with their
 * pause state), sealed secrets, job lanes.
 */
import type { RiskModel, WebhookDeliveryRecord, WebhookRecord } from "@openkyt/core";
import { describe, expect, it } from "vitest";
import { type ConformanceContext, expectKytError, idsOf } from "./store-conformance.js";
import { makeJob, makeRule, BASE_TIME as T0 } from "./store-factories.js";

const model = (id: string, version: number, name = `Model ${id}`): RiskModel => ({
  id,
  name,
  version,
  rules: [makeRule()],
});

const webhook = (id: string, overrides: Partial<WebhookRecord> = {}): WebhookRecord => ({
  id,
  accountId: "acct-1",
  url: "http://127.0.0.1:9/hook",
  events: ["alert.created", "transfer.checked"],
  secret: "enc:v1:sealed",
  createdAt: T0,
  deletedAt: null,
  state: "active",
  pausedAt: null,
  pausedReason: null,
  consecutiveFailures: 0,
  ...overrides,
});

const delivery = (
  id: string,
  at: number,
  overrides: Partial<WebhookDeliveryRecord> = {},
): WebhookDeliveryRecord => ({
  id,
  webhookId: "w-1",
  eventId: "e-1",
  attempt: 1,
  at,
  ok: false,
  statusCode: 500,
  error: "the receiver answered 500",
  durationMs: 12,
  ...overrides,
});

/** Registers the workflow tests. */
export function workflowConformance(ctx: ConformanceContext): void {
  describe("risk model management", () => {
    it("lists the newest live version of each model by name, with its dates", async () => {
      const s = ctx.store();
      await s.putRiskModel("acct-1", model("b", 1, "Beta"), T0);
      await s.putRiskModel("acct-1", model("b", 2, "Beta v2"), T0 + 10);
      await s.putRiskModel("acct-1", model("a", 1, "Alpha"), T0 + 5);
      await s.putRiskModel("acct-2", model("c", 1, "Other account"), T0);
      const listed = await s.listRiskModels("acct-1");
      expect(listed.map((m) => [m.id, m.version, m.name, m.createdAt, m.deletedAt])).toEqual([
        ["a", 1, "Alpha", T0 + 5, null],
        ["b", 2, "Beta v2", T0 + 10, null],
      ]);
      expect((await s.listRiskModelVersions("acct-1", "b")).map((m) => m.version)).toEqual([1, 2]);
    });

    it("deletes every version: gone for new checks, still readable by version", async () => {
      const s = ctx.store();
      await s.putRiskModel("acct-1", model("m", 1), T0);
      await s.putRiskModel("acct-1", model("m", 2), T0 + 1);
      expect(await s.deleteRiskModel("acct-1", "m", T0 + 5)).toBe(true);
      expect(await s.deleteRiskModel("acct-1", "m", T0 + 6)).toBe(false);
      expect(await s.deleteRiskModel("acct-1", "unknown", T0)).toBe(false);
      expect(await s.deleteRiskModel("acct-2", "m", T0)).toBe(false);
      expect(await s.getRiskModel("acct-1", "m")).toBeNull();
      expect(await s.getRiskModel("acct-1", "m", 1)).toEqual(model("m", 1));
      expect(await s.listRiskModels("acct-1")).toEqual([]);
      expect((await s.listRiskModelVersions("acct-1", "m")).map((m) => m.deletedAt)).toEqual([
        T0 + 5,
        T0 + 5,
      ]);
    });
  });

  describe("webhooks", () => {
    it("keeps subscriptions per account, refuses a duplicate id and soft-deletes", async () => {
      const s = ctx.store();
      await s.putWebhook(webhook("w-2", { createdAt: T0 + 1 }));
      await s.putWebhook(webhook("w-1"));
      await s.putWebhook(webhook("w-3", { accountId: "acct-2" }));
      await expectKytError(s.putWebhook(webhook("w-1")), "CONFLICT");
      expect(idsOf(await s.listWebhooks("acct-1"))).toEqual(["w-1", "w-2"]);
      expect(await s.getWebhook("w-1")).toEqual(webhook("w-1"));
      expect(await s.deleteWebhook("w-1", T0 + 9)).toBe(true);
      expect(await s.deleteWebhook("w-1", T0 + 9)).toBe(false);
      expect(idsOf(await s.listWebhooks("acct-1"))).toEqual(["w-2"]);
      expect((await s.getWebhook("w-1"))?.deletedAt).toBe(T0 + 9);
      expect(await s.getWebhook("nope")).toBeNull();
    });

    it("keeps outbox events and lists delivery attempts newest first with totals", async () => {
      const s = ctx.store();
      const event = {
        id: "e-1",
        accountId: "acct-1",
        type: "alert.created" as const,
        payload: { alert: { id: "a" } },
        createdAt: T0,
      };
      await s.putWebhookEvent(event);
      await expectKytError(s.putWebhookEvent(event), "CONFLICT");
      expect(await s.getWebhookEvent("e-1")).toEqual(event);
      expect(await s.getWebhookEvent("e-2")).toBeNull();
      await s.appendWebhookDelivery(delivery("d-1", T0));
      await s.appendWebhookDelivery(
        delivery("d-3", T0 + 2, { ok: true, statusCode: 200, error: null, attempt: 3 }),
      );
      await s.appendWebhookDelivery(
        delivery("d-2", T0 + 1, { statusCode: null, error: "timeout", attempt: 2 }),
      );
      await s.appendWebhookDelivery(delivery("d-9", T0, { webhookId: "w-2" }));
      const first = await s.listWebhookDeliveries("w-1", { page: 1, pageSize: 2 });
      expect(first.total).toBe(3);
      expect(first.items).toEqual([
        delivery("d-3", T0 + 2, { ok: true, statusCode: 200, error: null, attempt: 3 }),
        delivery("d-2", T0 + 1, { statusCode: null, error: "timeout", attempt: 2 }),
      ]);
      expect(idsOf((await s.listWebhookDeliveries("w-1", { page: 2, pageSize: 2 })).items)).toEqual(["d-1"]);
    });

    it("counts consecutive failures, pauses at the limit, resets on success and resumes", async () => {
      const s = ctx.store();
      await s.putWebhook(webhook("w-1"));
      const fail = (at: number) => ({ ok: false, at, pauseAfter: 3, reason: "3 failures" });
      expect(await s.noteWebhookDelivery("nope", fail(T0))).toBeNull();
      expect((await s.noteWebhookDelivery("w-1", fail(T0)))?.consecutiveFailures).toBe(1);
      expect((await s.noteWebhookDelivery("w-1", { ...fail(T0), ok: true }))?.consecutiveFailures).toBe(0);
      expect(await s.resumeWebhook("w-1")).toBe(false);
      await s.noteWebhookDelivery("w-1", fail(T0 + 1));
      await s.noteWebhookDelivery("w-1", fail(T0 + 2));
      const paused = await s.noteWebhookDelivery("w-1", fail(T0 + 3));
      expect(paused).toEqual(
        webhook("w-1", {
          state: "paused",
          pausedAt: T0 + 3,
          pausedReason: "3 failures",
          consecutiveFailures: 3,
        }),
      );
      // A later failure counts but keeps the first pause time and reason.
      const later = await s.noteWebhookDelivery("w-1", { ...fail(T0 + 4), reason: "other" });
      expect([later?.state, later?.pausedAt, later?.pausedReason, later?.consecutiveFailures]).toEqual([
        "paused",
        T0 + 3,
        "3 failures",
        4,
      ]);
      expect(await s.getWebhook("w-1")).toEqual(later);
      expect(await s.resumeWebhook("w-1")).toBe(true);
      expect(await s.resumeWebhook("w-1")).toBe(false);
      expect(await s.resumeWebhook("nope")).toBe(false);
      expect(await s.getWebhook("w-1")).toEqual(webhook("w-1"));
    });

    it("counts concurrent failures without losing one", async () => {
      const s = ctx.store();
      await s.putWebhook(webhook("w-1"));
      await Promise.all(
        Array.from({ length: 10 }, (_, i) =>
          s.noteWebhookDelivery("w-1", { ok: false, at: T0 + i, pauseAfter: 100, reason: "r" }),
        ),
      );
      expect((await s.getWebhook("w-1"))?.consecutiveFailures).toBe(10);
    });

    it("does not resume a deleted webhook", async () => {
      const s = ctx.store();
      await s.putWebhook(webhook("w-1", { state: "paused", pausedAt: T0, pausedReason: "r" }));
      expect(await s.deleteWebhook("w-1", T0 + 1)).toBe(true);
      expect(await s.resumeWebhook("w-1")).toBe(false);
      expect((await s.getWebhook("w-1"))?.state).toBe("paused");
    });
  });

  describe("sealed secrets", () => {
    it("lists the secrets of keys and webhooks, revoked and deleted too, and replaces by compare and set", async () => {
      const s = ctx.store();
      const key = (id: string) => ({
        id,
        accountId: "acct-1",
        secret: `plain:${id}`,
        createdAt: T0,
        revokedAt: null,
      });
      await s.putApiKey(key("k-2"));
      await s.putApiKey(key("k-1"));
      await s.revokeApiKey("k-2", T0 + 1);
      await s.putWebhook(webhook("w-1", { secret: "plain:w" }));
      await s.putWebhook(webhook("w-2", { accountId: "acct-2", secret: "enc:v1:x" }));
      await s.deleteWebhook("w-2", T0 + 1);
      expect(await s.listSealedSecrets()).toEqual([
        { owner: "api_key", id: "k-1", sealed: "plain:k-1" },
        { owner: "api_key", id: "k-2", sealed: "plain:k-2" },
        { owner: "webhook", id: "w-1", sealed: "plain:w" },
        { owner: "webhook", id: "w-2", sealed: "enc:v1:x" },
      ]);
      expect(await s.replaceSealedSecret("api_key", "k-1", "plain:other", "enc:v2:a")).toBe(false);
      expect(await s.replaceSealedSecret("api_key", "k-1", "plain:k-1", "enc:v2:a")).toBe(true);
      expect(await s.replaceSealedSecret("webhook", "w-1", "plain:w", "enc:v2:b")).toBe(true);
      expect(await s.replaceSealedSecret("webhook", "k-2", "plain:k-2", "enc:v2:c")).toBe(false);
      expect(await s.replaceSealedSecret("api_key", "nope", "x", "y")).toBe(false);
      expect((await s.getApiKey("k-1"))?.secret).toBe("enc:v2:a");
      expect((await s.getWebhook("w-1"))?.secret).toBe("enc:v2:b");
      expect((await s.getApiKey("k-2"))?.secret).toBe("plain:k-2");
    });

    it("rolls a re-sealing back with its transaction", async () => {
      const s = ctx.store();
      await s.putApiKey({
        id: "k-1",
        accountId: "acct-1",
        secret: "plain:a",
        createdAt: T0,
        revokedAt: null,
      });
      await expect(
        s.transaction(async (tx) => {
          await tx.replaceSealedSecret("api_key", "k-1", "plain:a", "enc:v2:a");
          throw new Error("abort");
        }),
      ).rejects.toThrow("abort");
      expect((await s.getApiKey("k-1"))?.secret).toBe("plain:a");
    });
  });

  describe("job lanes", () => {
    it("claims only the kinds asked for", async () => {
      const s = ctx.store();
      await s.enqueueJob(makeJob({ id: "j-check", kind: "transfer.check", runAt: T0 }));
      await s.enqueueJob(makeJob({ id: "j-hook", kind: "webhook.deliver", runAt: T0 }));
      const hooks = await s.claimJobs({
        now: T0,
        limit: 10,
        leaseMs: 1000,
        owner: "w",
        kinds: ["webhook.deliver"],
      });
      expect(idsOf(hooks)).toEqual(["j-hook"]);
      expect(await s.claimJobs({ now: T0, limit: 10, leaseMs: 1000, owner: "w", kinds: [] })).toEqual([]);
      const rest = await s.claimJobs({ now: T0, limit: 10, leaseMs: 1000, owner: "w" });
      expect(idsOf(rest)).toEqual(["j-check"]);
    });
  });
}
