/**
 * Webhooks that keep failing are paused, run against an engine over any store: a real receiver
 * on 127.0.0.1 (allowed explicitly with `allowPrivateTargets`) answers 500 until the webhook is
 * paused; then no delivery job is left or created, and a resume delivers again.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type StoreFactory, useHarness } from "./engine-harness.js";
import { W } from "./engine-world.js";

/** A receiver on 127.0.0.1 answering `status` (changeable), counting requests. */
async function receiver() {
  const state = { status: 500, requests: 0 };
  const server: Server = createServer((req, res) => {
    req.resume();
    req.on("end", () => {
      state.requests += 1;
      res.writeHead(state.status).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    state,
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Registers the suite. */
export function runWebhookScenarios(factory: StoreFactory): void {
  describe(`engine webhooks: a failing webhook is paused (${factory.name})`, () => {
    let r: Awaited<ReturnType<typeof receiver>>;
    beforeEach(async () => {
      r = await receiver();
    });
    afterEach(async () => {
      await r.close();
    });
    // After the receiver's hooks, so each harness closes before its receiver does.
    const h = useHarness(factory, {
      webhooks: {
        allowPrivateTargets: true,
        pauseAfterFailures: 4,
        maxAttempts: 8,
        backoffBaseMs: 1_000,
        backoffMaxMs: 1_000,
        timeoutMs: 2_000,
      },
    });

    const deliveryJobs = async (webhookId: string) =>
      (await h.store.listJobs(webhookId)).filter((j) => j.kind === "webhook.deliver");

    it("pauses after N consecutive failures, ends pending deliveries, queues none while paused, resumes", async () => {
      const hook = await h.acme.webhooks.create({ url: r.url, events: ["manual_check.completed"] });
      expect(hook).toMatchObject({ state: "active", paused_at: null, consecutive_failures: 0 });
      await h.acme.checkAddress({ network: "ETH", address: W.mixer });
      await h.acme.checkAddress({ network: "ETH", address: W.sanctioned });
      await h.engine.drain(); // two events, two failed first attempts
      expect(r.state.requests).toBe(2);
      expect((await h.acme.webhooks.get(hook.id)).consecutive_failures).toBe(2);
      expect(await deliveryJobs(hook.id)).toHaveLength(2); // waiting for their retry
      h.clock.advance(1_000);
      await h.engine.drain(); // the retries fail: 4 in a row, paused
      expect(r.state.requests).toBe(4);
      const paused = await h.acme.webhooks.get(hook.id);
      expect(paused).toMatchObject({
        state: "paused",
        paused_reason: "4 consecutive failed deliveries",
        consecutive_failures: 4,
      });
      expect(paused.paused_at).not.toBeNull();
      // Whatever was still pending ends at its next run, without a request.
      for (let i = 0; i < 3; i += 1) {
        h.clock.advance(1_000);
        await h.engine.drain();
      }
      expect(await deliveryJobs(hook.id)).toEqual([]);
      expect(r.state.requests).toBe(4);
      // While paused, new events queue no delivery at all.
      for (const address of [W.mixer, W.sanctioned, W.mixer]) {
        await h.acme.checkAddress({ network: "ETH", address });
      }
      expect(await deliveryJobs(hook.id)).toEqual([]);
      await h.engine.drain();
      expect(r.state.requests).toBe(4);
      expect((await h.acme.webhooks.deliveries(hook.id)).total_items).toBe(4);

      // Resumed: active, no failure counted, and the next event is delivered.
      r.state.status = 204;
      const resumed = await h.acme.webhooks.resume(hook.id);
      expect(resumed).toMatchObject({
        state: "active",
        paused_at: null,
        paused_reason: null,
        consecutive_failures: 0,
      });
      expect(await h.acme.webhooks.resume(hook.id)).toEqual(resumed);
      await h.acme.checkAddress({ network: "ETH", address: W.sanctioned });
      await h.engine.drain();
      expect(r.state.requests).toBe(5);
      expect(await deliveryJobs(hook.id)).toEqual([]);
      const deliveries = (await h.acme.webhooks.deliveries(hook.id)).items;
      expect(deliveries[0]).toMatchObject({ ok: true, status_code: 204 });
      await expect(h.other.webhooks.resume(hook.id)).rejects.toMatchObject({ code: "NOT_FOUND" });
    });

    it("a success resets the count: failures that are not consecutive never pause", async () => {
      const hook = await h.acme.webhooks.create({ url: r.url, events: ["manual_check.completed"] });
      for (let round = 0; round < 3; round += 1) {
        r.state.status = 500;
        for (let i = 0; i < 3; i += 1) await h.acme.checkAddress({ network: "ETH", address: W.mixer });
        await h.engine.drain();
        expect((await h.acme.webhooks.get(hook.id)).consecutive_failures).toBe(3);
        r.state.status = 200;
        h.clock.advance(1_000);
        await h.engine.drain(); // the three retries succeed
        expect(await h.acme.webhooks.get(hook.id)).toMatchObject({
          state: "active",
          consecutive_failures: 0,
        });
      }
      expect(r.state.requests).toBe(18);
    });
  });
}
