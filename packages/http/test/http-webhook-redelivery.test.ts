/**
 * Webhook deliveries with their event (type, id, payload), a redelivery of an event and a test
 * event, delivered to a real receiver on 127.0.0.1 and verified with the webhook's secret.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { verifyWebhookSignature, type WebhookEvent } from "@openkyt/client";
import {
  pageSchema,
  systemClock,
  webhookDeliveryResponseSchema,
  webhookQueuedResponseSchema,
  webhookResponseSchema,
} from "@openkyt/core";
import { TX, W } from "@openkyt/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Served, serve } from "./http-harness.js";
import { rawRequest } from "./raw-request.js";
import { expectWire } from "./wire-expect.js";

interface Got {
  readonly raw: string;
  readonly signature: string;
}

async function receiver() {
  const got: Got[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      got.push({
        raw: Buffer.concat(chunks).toString("utf8"),
        signature: String(req.headers["openkyt-signature"]),
      });
      res.writeHead(200).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    got,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

async function until(what: string, check: () => boolean | Promise<boolean>, ms = 15_000): Promise<void> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`${what}: not within ${ms} ms`);
}

describe("webhook deliveries: the event shown, redelivered, and a test event", () => {
  let s: Served;
  let r: Awaited<ReturnType<typeof receiver>>;
  beforeAll(async () => {
    r = await receiver();
    s = await serve({
      engine: {
        clock: systemClock,
        jobs: { pollIntervalMs: 20 },
        webhooks: { timeoutMs: 2_000, allowPrivateTargets: true },
      },
    });
    s.h.engine.start();
  });
  afterAll(async () => {
    await s.close();
    await r.close();
  });

  it("lists each delivery with its event, redelivers it signed anew, and sends a test event to this webhook only", async () => {
    const created = await s.acme.send("POST", "/v1/webhooks/", {
      body: { url: r.url, events: ["transfer.checked"] },
    });
    const hook = expectWire(webhookResponseSchema, created.body);
    const secret = hook.secret ?? expect.fail("no secret");
    await s.acme.registerTransfer(
      { direction: "incoming", network: "ETH", tx_hash: TX.mixerDeposit, output_address: W.client },
      { wait: 10 },
    );
    await until("the first delivery", () => r.got.length >= 1);
    const deliveries = async () =>
      expectWire(
        pageSchema(webhookDeliveryResponseSchema),
        (await s.acme.send("GET", `/v1/webhooks/${hook.id}/deliveries/`)).body,
      ).items;
    await until("the delivery recorded", async () => (await deliveries()).length >= 1);
    const [first] = await deliveries();
    expect(first).toMatchObject({ ok: true, event_type: "transfer.checked" });
    expect(first?.payload).toMatchObject({ transfer: { output_address: W.client } });
    const eventId = first?.event_id ?? expect.fail("no event id");

    const again = await s.acme.send("POST", `/v1/webhooks/${hook.id}/redeliver/`, {
      body: { event_id: eventId },
    });
    expect(expectWire(webhookQueuedResponseSchema, again.body)).toEqual({
      webhook_id: hook.id,
      event_id: eventId,
      event_type: "transfer.checked",
      queued: true,
    });
    await until("the redelivery", () => r.got.length >= 2);
    const resent = JSON.parse(r.got[1]?.raw ?? "{}") as WebhookEvent;
    expect(resent.id).toBe(eventId);
    expect(r.got[1]?.raw).toBe(r.got[0]?.raw);

    const test = await s.acme.send("POST", `/v1/webhooks/${hook.id}/test/`);
    const queued = expectWire(webhookQueuedResponseSchema, test.body);
    expect(queued.event_type).toBe("webhook.test");
    await until("the test event", () => r.got.length >= 3);
    const got = r.got[2] ?? expect.fail("no test event");
    const tested = JSON.parse(got.raw) as WebhookEvent;
    expect(tested).toMatchObject({
      id: queued.event_id,
      type: "webhook.test",
      data: { webhook_id: hook.id },
    });
    expect(verifyWebhookSignature(secret, got.signature, got.raw)).toMatchObject({ ok: true });
    await until("three deliveries listed", async () => (await deliveries()).length >= 3);
    expect((await deliveries()).map((d) => d.event_type).sort()).toEqual([
      "transfer.checked",
      "transfer.checked",
      "webhook.test",
    ]);
  });

  it("refuses an event of another account (404), a missing event_id (400), and another account's webhook (404)", async () => {
    const [hook] = await s.acme.listWebhooks();
    const id = hook?.id ?? expect.fail("no webhook");
    const mine = (
      await s.acme.send<{ items: Array<{ event_id: string }> }>("GET", `/v1/webhooks/${id}/deliveries/`)
    ).body.items[0]?.event_id;
    const made = await s.other.send<{ id: string }>("POST", "/v1/webhooks/", {
      body: { url: r.url, events: ["alert.created"] },
    });
    const theirs = await rawRequest(s.server.url, {
      method: "POST",
      path: `/v1/webhooks/${made.body.id}/redeliver/`,
      body: JSON.stringify({ event_id: mine }),
    });
    expect(theirs.status).toBe(404);
    const unknown = await rawRequest(s.server.url, {
      method: "POST",
      path: `/v1/webhooks/${id}/redeliver/`,
      body: JSON.stringify({ event_id: "00000000-0000-4000-8000-000000000000" }),
    });
    expect(unknown.status).toBe(404);
    const empty = await rawRequest(s.server.url, {
      method: "POST",
      path: `/v1/webhooks/${id}/redeliver/`,
      body: "{}",
    });
    expect(empty.status).toBe(400);
    expect(empty.json.errors).toHaveProperty("event_id");
    const test = await rawRequest(s.server.url, {
      method: "POST",
      path: `/v1/webhooks/${made.body.id}/test/`,
    });
    expect(test.status).toBe(404);
  });
});
