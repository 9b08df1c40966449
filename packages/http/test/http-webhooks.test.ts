import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { verifyWebhookSignature, type WebhookEvent } from "@openkyt/client";
import { pageSchema, systemClock, webhookDeliveryResponseSchema, webhookResponseSchema } from "@openkyt/core";
import { TX, W } from "@openkyt/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rejection, type Served, serve } from "./http-harness.js";
import { rawRequest } from "./raw-request.js";
import { expectWire } from "./wire-expect.js";

interface Received {
  readonly headers: IncomingHttpHeaders;
  /** The raw body bytes, as a receiver must verify them. */
  readonly raw: Buffer;
  /** What the receiver answered (null: it never answered in time). */
  answered: number | null;
}

/** A real receiver on 127.0.0.1: the first call answers 500, the second hangs past the timeout, then 200. */
async function flakyReceiver(hangMs: number) {
  const received: Received[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const entry: Received = { headers: req.headers, raw: Buffer.concat(chunks), answered: null };
      received.push(entry);
      const answer = (status: number) => {
        entry.answered = status;
        res.writeHead(status).end();
      };
      if (received.length === 1) answer(500);
      else if (received.length === 2) setTimeout(() => res.writeHead(200).end(), hangMs);
      else answer(200);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks/openkyt`,
    received,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

async function until(what: string, check: () => Promise<boolean>, ms = 10_000): Promise<void> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`${what}: not within ${ms} ms`);
}

const event = (r: Received) => JSON.parse(r.raw.toString("utf8")) as WebhookEvent;

describe("webhooks over HTTP, delivered to a real receiver", () => {
  let s: Served;
  let receiver: Awaited<ReturnType<typeof flakyReceiver>>;
  beforeAll(async () => {
    receiver = await flakyReceiver(1_500);
    s = await serve({
      engine: {
        clock: systemClock,
        jobs: { pollIntervalMs: 20 },
        // The receiver listens on 127.0.0.1: allowed explicitly.
        webhooks: {
          timeoutMs: 300,
          backoffBaseMs: 50,
          backoffMaxMs: 200,
          maxAttempts: 8,
          allowPrivateTargets: true,
        },
      },
    });
    s.h.engine.start();
  });
  afterAll(async () => {
    await s.close();
    await receiver.close();
  });

  it("every event arrives through a 500 and a timeout, signed, with every attempt listed", async () => {
    const created = await s.acme.send("POST", "/v1/webhooks/", {
      body: {
        url: receiver.url,
        events: [
          "transfer.checked",
          "transfer.status_changed",
          "alert.created",
          "alert.updated",
          "manual_check.completed",
        ],
      },
    });
    expect(created.status).toBe(201);
    const hook = expectWire(webhookResponseSchema, created.body);
    const secret = hook.secret ?? expect.fail("no secret in the creation answer");
    expect(secret).toMatch(/^whsec_/);
    expect(await s.acme.getWebhook(hook.id)).not.toHaveProperty("secret");
    expect((await s.acme.listWebhooks()).map((w) => [w.id, "secret" in w])).toEqual([[hook.id, false]]);

    // Work that raises every kind of event.
    const transfer = await s.acme.registerTransfer(
      { direction: "incoming", network: "ETH", tx_hash: TX.mixerDeposit, output_address: W.client },
      { wait: 10 },
    );
    expect(transfer.check_state.exposure).toBe("checked");
    const alerts = (await s.acme.listAlerts()).items;
    expect(alerts.length).toBeGreaterThan(0);
    const alert = alerts[0] ?? expect.fail("no alert");
    await s.acme.updateAlert(alert.id, { alert_status: "in_progress", comment: "on it" });
    const check = await s.acme.checkAddress({ network: "ETH", address: W.sanctioned }, { wait: 10 });
    expect(check.check_status).toBe("checked");

    const expected: Record<string, number> = {
      "transfer.status_changed": 1, // binding -> bound (a full transfer is registered binding)
      "transfer.checked": 1,
      "alert.created": alerts.length,
      "alert.updated": 1,
      "manual_check.completed": 1,
    };
    const total = Object.values(expected).reduce((a, b) => a + b, 0);
    const acknowledged = () =>
      new Set(receiver.received.filter((r) => r.answered === 200).map((r) => event(r).id));
    await until("every event acknowledged", async () => acknowledged().size >= total);

    // No event lost, none invented: each type as often as the work raised it.
    const byId = new Map(receiver.received.map((r) => [event(r).id, event(r)]));
    expect(byId.size).toBe(total);
    const counts: Record<string, number> = {};
    for (const e of byId.values()) counts[e.type] = (counts[e.type] ?? 0) + 1;
    expect(counts).toEqual(expected);
    const updated = [...byId.values()].find((e) => e.type === "alert.updated");
    expect(updated?.data).toMatchObject({ alert: { id: alert.id, alert_status: "in_progress" } });
    const completed = [...byId.values()].find((e) => e.type === "manual_check.completed");
    expect(completed?.data).toMatchObject({ manual_check: { id: check.id, risk_level: "severe" } });

    // Every delivery is signed over its raw body; headers name the event.
    for (const r of receiver.received) {
      const e = event(r);
      const header = String(r.headers["openkyt-signature"]);
      expect(verifyWebhookSignature(secret, header, r.raw)).toMatchObject({ ok: true });
      expect(verifyWebhookSignature(secret, header, r.raw.toString("utf8"))).toMatchObject({ ok: true });
      expect(verifyWebhookSignature("whsec_wrong", header, r.raw).ok).toBe(false);
      expect(verifyWebhookSignature(secret, header, `${r.raw.toString("utf8")} `).ok).toBe(false);
      expect(r.headers["openkyt-event"]).toBe(e.type);
      expect(r.headers["openkyt-delivery"]).toBe(e.id);
      expect(r.headers["content-type"]).toBe("application/json");
      expect(Object.keys(e)).toEqual(["id", "type", "created_at", "data"]);
    }

    // The failures and their retries are listed, newest first.
    await until("every attempt recorded", async () => {
      const page = await s.acme.listWebhookDeliveries(hook.id, { page_size: 100 });
      return page.total_items === receiver.received.length;
    });
    const page = expectWire(
      pageSchema(webhookDeliveryResponseSchema),
      await s.acme.listWebhookDeliveries(hook.id, { page_size: 100 }),
    );
    const deliveries = page.items;
    const failed500 = deliveries.find((d) => d.status_code === 500) ?? expect.fail("no 500 recorded");
    expect(failed500).toMatchObject({ ok: false, attempt: 1 });
    const timedOut = deliveries.find((d) => d.status_code === null) ?? expect.fail("no timeout recorded");
    expect(timedOut.ok).toBe(false);
    expect(timedOut.error).toMatch(/abort|timeout/i);
    expect(timedOut.duration_ms).toBeGreaterThanOrEqual(250);
    for (const failure of [failed500, timedOut]) {
      const retry = deliveries.find((d) => d.event_id === failure.event_id && d.ok);
      expect(retry?.attempt, failure.event_id).toBeGreaterThan(failure.attempt);
      expect(Date.parse(retry?.at ?? "")).toBeGreaterThan(Date.parse(failure.at));
    }
    const eventsDelivered = new Set(deliveries.filter((d) => d.ok).map((d) => d.event_id));
    expect(eventsDelivered).toEqual(new Set(byId.keys()));
    const times = deliveries.map((d) => Date.parse(d.at));
    expect([...times].sort((a, b) => b - a)).toEqual(times);
    // Paginated like every list.
    const first = await s.acme.listWebhookDeliveries(hook.id, { page: 1, page_size: 2 });
    expect(first).toMatchObject({ page: 1, page_size: 2, total_items: deliveries.length });
    expect(first.items).toEqual(deliveries.slice(0, 2));
    const all: string[] = [];
    for await (const d of s.acme.eachWebhookDelivery(hook.id, { page_size: 3 })) all.push(d.id);
    expect(all).toEqual(deliveries.map((d) => d.id));

    // Another account sees none of it.
    for (const attempt of [
      () => s.other.getWebhook(hook.id),
      () => s.other.listWebhookDeliveries(hook.id),
      () => s.other.deleteWebhook(hook.id),
    ]) {
      expect(await rejection(attempt())).toMatchObject({ status: 404, code: "NOT_FOUND" });
    }
    expect(await s.other.listWebhooks()).toEqual([]);

    // Deleted: nothing more is delivered.
    expect(await s.acme.deleteWebhook(hook.id)).toEqual({ id: hook.id, deleted: true });
    expect(await rejection(s.acme.getWebhook(hook.id))).toMatchObject({ status: 404 });
    const seen = receiver.received.length;
    await s.acme.checkAddress({ network: "ETH", address: W.mixer }, { wait: 10 });
    await s.h.engine.drain();
    expect(receiver.received.length).toBe(seen);
  });

  it("refuses bad subscriptions naming the field; routes and methods", async () => {
    for (const [body, field] of [
      [{ url: "ftp://x.test/", events: ["alert.created"] }, "url"],
      [{ url: "http://x.test/", events: [] }, "events"],
      [{ url: "http://x.test/", events: ["transfer.deleted"] }, "events"],
      [{ url: "http://x.test/", events: ["alert.created"], secret: "mine" }, "secret"],
    ] as const) {
      const error = await rejection(s.acme.createWebhook(body as never));
      expect(error, field).toMatchObject({ status: 400, code: "VALIDATION_ERROR" });
      expect(Object.keys((error as { errors: object }).errors).join(" "), field).toContain(field);
    }
    const hook = await s.acme.createWebhook({ url: "http://127.0.0.1:9/none", events: ["alert.updated"] });
    const bare = await rawRequest(s.server.url, { method: "GET", path: `/v1/webhooks/${hook.id}` });
    expect(bare.status).toBe(200);
    expect(bare.json).toEqual({
      id: hook.id,
      url: hook.url,
      events: ["alert.updated"],
      created_at: hook.created_at,
      state: "active",
      paused_at: null,
      paused_reason: null,
      consecutive_failures: 0,
    });
    const put = await rawRequest(s.server.url, {
      method: "PUT",
      path: `/v1/webhooks/${hook.id}/`,
      body: "{}",
    });
    expect(put.status).toBe(405);
    expect(put.headers.get("allow")).toBe("GET, DELETE");
    await s.acme.deleteWebhook(hook.id);
    expect(await rejection(s.acme.listWebhookDeliveries(hook.id))).toMatchObject({ status: 404 });
  });
});

describe("webhook targets and pausing over HTTP (private targets refused, the default)", () => {
  let s: Served;
  // A stub DNS (the external component): hooks.example answers a public address first, then
  // loopback (a rebinding DNS server); internal.example answers a private address.
  const answers: Record<string, string[]> = { "hooks.example": ["93.184.216.34", "127.0.0.1"] };
  beforeAll(async () => {
    s = await serve({
      engine: {
        webhooks: {
          maxAttempts: 1,
          lookup: async (name) => {
            const address =
              name === "internal.example" ? "10.0.0.7" : (answers[name]?.shift() ?? "93.184.216.34");
            return [{ address, family: 4 }];
          },
        },
      },
    });
  });
  afterAll(async () => {
    await s.close();
  });

  it.each([
    "http://127.1:8080/",
    "http://2130706433/",
    "http://0x7f000001/",
    "http://0177.0.0.1/",
    "http://[::1]/",
    "http://localhost./",
    "http://169.254.169.254/latest/meta-data/",
    "http://[::ffff:127.0.0.1]/",
    "http://[64:ff9b::a9fe:a9fe]/",
    "https://internal.example/hook",
  ])("POST /v1/webhooks/ with %s: 400 naming url", async (url) => {
    const error = await rejection(s.acme.createWebhook({ url, events: ["alert.created"] }));
    expect(error).toMatchObject({ status: 400, code: "VALIDATION_ERROR" });
    expect(Object.keys((error as { errors: object }).errors)).toEqual(["url"]);
  });

  it("a target refused at delivery (DNS rebinding) is listed without status, error detail or duration", async () => {
    const hook = await s.acme.createWebhook({
      url: "https://hooks.example/openkyt",
      events: ["manual_check.completed"],
    });
    await s.acme.checkAddress({ network: "ETH", address: W.mixer });
    await s.h.engine.drain();
    const page = expectWire(
      pageSchema(webhookDeliveryResponseSchema),
      await s.acme.listWebhookDeliveries(hook.id),
    );
    expect(page.items).toHaveLength(1);
    expect(page.items[0]).toMatchObject({
      ok: false,
      status_code: null,
      error: "target refused by policy",
      duration_ms: 0,
    });
  });

  it("a paused webhook shows its state and reason, and POST /v1/webhooks/{id}/resume/ resumes it", async () => {
    const hook = await s.acme.createWebhook({ url: "https://93.184.216.34/h", events: ["alert.created"] });
    expect(hook).toMatchObject({
      state: "active",
      paused_at: null,
      paused_reason: null,
      consecutive_failures: 0,
    });
    const at = Date.UTC(2026, 0, 2, 3, 4, 5);
    await s.h.store.noteWebhookDelivery(hook.id, {
      ok: false,
      at,
      pauseAfter: 1,
      reason: "1 consecutive failed deliveries",
    });
    const paused = expectWire(webhookResponseSchema, await s.acme.getWebhook(hook.id));
    expect(paused).toMatchObject({
      state: "paused",
      paused_reason: "1 consecutive failed deliveries",
      consecutive_failures: 1,
    });
    expect(Date.parse(paused.paused_at ?? "")).toBe(at);
    expect(await rejection(s.other.resumeWebhook(hook.id))).toMatchObject({ status: 404 });
    const withBody = await rawRequest(s.server.url, {
      method: "POST",
      path: `/v1/webhooks/${hook.id}/resume/`,
      body: '{"state":"active"}',
    });
    expect(withBody.status).toBe(400); // resume takes no body
    const resumed = expectWire(webhookResponseSchema, await s.acme.resumeWebhook(hook.id));
    expect(resumed).toMatchObject({
      state: "active",
      paused_at: null,
      paused_reason: null,
      consecutive_failures: 0,
    });
    expect(await s.acme.resumeWebhook(hook.id)).toEqual(resumed);
    const doc = (await (await fetch(`${s.server.url}/v1/openapi.json`)).json()) as {
      paths: Record<string, Record<string, { operationId: string }>>;
    };
    expect(doc.paths["/v1/webhooks/{id}/resume/"]?.post?.operationId).toBe("resumeWebhook");
  });
});
