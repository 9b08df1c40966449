import { mkdtemp, rm } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createEngine, type Engine, webhookSignature } from "@openkyt/core";
import { nodeWebhookTransport } from "@openkyt/runtime-node";
import { createSqliteStore } from "@openkyt/store-sqlite";
import { loadWorld, TX, W } from "@openkyt/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDeliveryLog } from "../src/delivery-log.js";
import { createReceiver, type WebhookEvent } from "../src/receiver.js";

/** A port free right now. */
async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

async function listen(server: Server, port: number): Promise<void> {
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
}

async function closeServer(server: Server): Promise<void> {
  await new Promise((resolve) => server.close(resolve));
}

/** Waits until `done` holds (polling), at most `ms`. */
async function until(done: () => boolean, ms: number): Promise<void> {
  const deadline = Date.now() + ms;
  while (!done()) {
    if (Date.now() > deadline) throw new Error("timed out");
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** Sends a delivery as OpenKYT does: signed now, or with the signature given. */
async function send(
  port: number,
  secret: string,
  event: WebhookEvent,
  body = JSON.stringify(event),
  signature?: string,
) {
  const response = await fetch(`http://127.0.0.1:${port}/`, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      "openkyt-delivery": event.id,
      "openkyt-event": event.type,
      "openkyt-signature": signature ?? webhookSignature(secret, Date.now(), body),
    },
    body,
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

describe("examples/webhook-receiver", () => {
  let dir: string;
  let engine: Engine;
  let close: () => Promise<void>;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "openkyt-webhook-receiver-"));
    const store = await createSqliteStore({ filename: ":memory:" });
    engine = createEngine({
      store,
      webhooks: {
        transport: nodeWebhookTransport,
        allowPrivateTargets: true,
        backoffBaseMs: 50,
        backoffMaxMs: 200,
      },
    });
    await loadWorld(engine);
    close = async () => {
      await engine.stop();
      await store.close();
    };
  });
  afterAll(async () => {
    await close();
    await rm(dir, { recursive: true, force: true });
  });

  it("handles each event once: verified, retried after a failure, deduplicated, also after a restart", async () => {
    const port = await freePort();
    const acme = engine.forAccount("acme");
    const webhook = await acme.webhooks.create({
      url: `http://127.0.0.1:${port}/hooks`,
      events: ["alert.created"],
    });
    const secret = webhook.secret ?? expect.fail("no secret in the creation answer");
    const logFile = join(dir, "handled.log");
    const handled: WebhookEvent[] = [];
    let failures = 0;
    const receiver = createReceiver({
      secret,
      log: await openDeliveryLog(logFile),
      onEvent: (event) => {
        // The first alert fails once, as a handler whose database is briefly down would.
        if (failures === 0) {
          failures += 1;
          throw new Error("database briefly down");
        }
        handled.push(event);
      },
    });
    await listen(receiver, port);

    // A deposit with 30% of its funds from a sanctioned address two hops back: alerts open.
    await acme.registerTransfer({
      direction: "incoming",
      network: "ETH",
      tx_hash: TX.deposit,
      output_address: W.client,
    });
    engine.start();
    const alerts = async () => (await acme.listAlerts({})).total_items;
    await until(() => handled.length > 0, 10_000);
    const expected = await alerts();
    expect(expected).toBeGreaterThan(0);
    await until(() => handled.length === expected, 10_000);
    await engine.stop();
    expect(new Set(handled.map((e) => e.id)).size).toBe(expected);
    expect(handled.every((e) => e.type === "alert.created")).toBe(true);
    // The failed delivery was sent again: one attempt more than events.
    const attempts = (await acme.webhooks.deliveries(webhook.id, { page_size: "100" })).items;
    expect(attempts.filter((a) => !a.ok)).toHaveLength(1);
    expect(attempts.filter((a) => a.ok)).toHaveLength(expected);

    // Sent again (a lost answer): answered 200, not handled twice.
    const first = handled[0] ?? expect.fail("nothing handled");
    expect(await send(port, secret, first)).toEqual({
      status: 200,
      body: { received: first.id, duplicate: true },
    });
    // Forged or altered: 401, not handled.
    const forged = await send(port, "not-the-secret", { ...first, id: "evt-forged" });
    expect(forged).toMatchObject({ status: 401, body: { error: "signature mismatch" } });
    const signed = webhookSignature(secret, Date.now(), JSON.stringify(first));
    const altered = await send(
      port,
      secret,
      first,
      JSON.stringify({ ...first, type: "transfer.checked" }),
      signed,
    );
    expect(altered.status).toBe(401);
    // Stale: a captured delivery replayed later.
    const stale = await send(
      port,
      secret,
      first,
      JSON.stringify(first),
      webhookSignature(secret, Date.now() - 3_600_000, JSON.stringify(first)),
    );
    expect(stale).toMatchObject({ status: 401, body: { error: "timestamp outside the tolerance" } });
    expect(handled).toHaveLength(expected);

    // A restart: a new process reads the log and still knows every event it handled.
    await closeServer(receiver);
    const again: WebhookEvent[] = [];
    const restarted = createReceiver({
      secret,
      log: await openDeliveryLog(logFile),
      onEvent: (e) => void again.push(e),
    });
    await listen(restarted, port);
    try {
      for (const event of handled) expect((await send(port, secret, event)).body.duplicate).toBe(true);
      const fresh = { ...first, id: "evt-after-restart" };
      expect(await send(port, secret, fresh)).toEqual({
        status: 200,
        body: { received: fresh.id, duplicate: false },
      });
      expect(again.map((e) => e.id)).toEqual(["evt-after-restart"]);
    } finally {
      await closeServer(restarted);
    }
  });
});
