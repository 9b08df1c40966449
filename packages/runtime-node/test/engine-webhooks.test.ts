import { createHmac, timingSafeEqual } from "node:crypto";
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { createEngine, createMemoryStore, type Engine, isKytError } from "@openkyt/core";
import { afterEach, describe, expect, it } from "vitest";
import { loadWorld, TX, W } from "../../testkit/src/engine-world.js";
import { nodeWebhookTransport } from "../src/node-webhook-sender.js";

interface Received {
  readonly headers: IncomingMessage["headers"];
  readonly body: string;
}

/** A real receiver on 127.0.0.1: answers 500 first, then hangs once (a timeout), then 200. */
async function flakyReceiver() {
  const received: Received[] = [];
  let calls = 0;
  const server: Server = createServer((req, res) => {
    let body = "";
    req.on("data", (chunk) => {
      body += chunk;
    });
    req.on("end", () => {
      calls += 1;
      received.push({ headers: req.headers, body });
      if (calls === 1) res.writeHead(500).end("boom");
      else if (calls === 2) setTimeout(() => res.writeHead(200).end(), 2_000);
      else res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}/hooks`,
    received,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

/** What a receiver does to check a delivery (the docs show the same snippet). */
function verify(secret: string, header: string, body: string): boolean {
  const parts = Object.fromEntries(header.split(",").map((p) => p.split("=") as [string, string]));
  const expected = createHmac("sha256", secret).update(`${parts.t}.${body}`).digest("hex");
  return timingSafeEqual(Buffer.from(expected), Buffer.from(parts.v1 ?? ""));
}

let engine: Engine | null = null;
let closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  await engine?.stop();
  for (const close of closers) await close();
  closers = [];
});

async function until(check: () => Promise<boolean>, ms = 8_000) {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error("condition not met in time");
}

describe("webhooks", () => {
  it("delivers every event at least once through failures and a timeout, signed, with each attempt recorded", async () => {
    const receiver = await flakyReceiver();
    closers.push(receiver.close);
    engine = createEngine({
      store: createMemoryStore(),
      jobs: { pollIntervalMs: 20 },
      // The receivers of these tests listen on 127.0.0.1: allowed explicitly.
      webhooks: {
        transport: nodeWebhookTransport,
        timeoutMs: 300,
        backoffBaseMs: 50,
        backoffMaxMs: 200,
        maxAttempts: 6,
        allowPrivateTargets: true,
      },
    });
    await loadWorld(engine);
    const acme = engine.forAccount("acme");
    const hook = await acme.webhooks.create({ url: receiver.url, events: ["transfer.checked"] });
    expect(hook.secret).toMatch(/^whsec_/);
    expect((await acme.webhooks.list())[0]).not.toHaveProperty("secret");
    engine.start();
    const { transfer } = await acme.registerTransfer({
      direction: "incoming",
      network: "ETH",
      tx_hash: TX.mixerDeposit,
      output_address: W.client,
    });
    await until(async () => receiver.received.length >= 3);
    const last = receiver.received[2];
    expect(last?.headers["openkyt-event"]).toBe("transfer.checked");
    const body = JSON.parse(last?.body ?? "{}");
    expect(body).toMatchObject({
      type: "transfer.checked",
      data: { transfer: { id: transfer.id, tx_status: "bound" } },
    });
    expect(verify(hook.secret ?? "", String(last?.headers["openkyt-signature"]), last?.body ?? "")).toBe(
      true,
    );
    expect(verify("wrong-secret", String(last?.headers["openkyt-signature"]), last?.body ?? "")).toBe(false);
    // The same event each time (at-least-once), and the attempts are listable.
    expect(new Set(receiver.received.map((r) => JSON.parse(r.body).id)).size).toBe(1);
    await until(async () => (await acme.webhooks.deliveries(hook.id)).total_items === 3);
    const deliveries = (await acme.webhooks.deliveries(hook.id)).items;
    expect(deliveries.map((d) => [d.attempt, d.ok, d.status_code])).toEqual([
      [3, true, 204],
      [2, false, null],
      [1, false, 500],
    ]);
    expect(deliveries[1]?.error).toMatch(/abort|timeout/i);
  });

  it("a dead endpoint does not slow the checks down", async () => {
    engine = createEngine({
      store: createMemoryStore(),
      jobs: { pollIntervalMs: 20 },
      webhooks: {
        transport: nodeWebhookTransport,
        timeoutMs: 1_000,
        backoffBaseMs: 100,
        maxAttempts: 3,
        allowPrivateTargets: true,
      },
    });
    await loadWorld(engine);
    const acme = engine.forAccount("acme");
    // Port 9 (discard) on 127.0.0.1: nothing listens, every delivery fails at once or times out.
    await acme.webhooks.create({
      url: "http://127.0.0.1:9/dead",
      events: ["transfer.checked", "alert.created", "transfer.status_changed"],
    });
    engine.start();
    const t0 = Date.now();
    const checks = await Promise.all(
      [TX.deposit, TX.mixerDeposit, TX.exchangeDeposit].map((tx) =>
        acme.registerTransfer(
          { direction: "incoming", network: "ETH", tx_hash: tx, output_address: W.client },
          { wait: 5 },
        ),
      ),
    );
    expect(checks.every((c) => c.transfer.check_state.exposure === "checked")).toBe(true);
    expect(Date.now() - t0).toBeLessThan(1_500);
  });

  it("refuses bad subscriptions and keeps accounts apart", async () => {
    engine = createEngine({
      store: createMemoryStore(),
      webhooks: { transport: nodeWebhookTransport, allowPrivateTargets: true },
    });
    const acme = engine.forAccount("acme");
    for (const body of [
      { url: "ftp://x.test/", events: ["alert.created"] },
      { url: "http://x.test/", events: [] },
      { url: "http://x.test/", events: ["nope"] },
    ]) {
      // Invalid on purpose: refused by validation at run time.
      expect(isKytError(await acme.webhooks.create(body as never).catch((e) => e), "VALIDATION_ERROR")).toBe(
        true,
      );
    }
    const hook = await acme.webhooks.create({ url: "http://127.0.0.1:9/x", events: ["alert.created"] });
    expect(
      isKytError(
        await engine
          .forAccount("other")
          .webhooks.remove(hook.id)
          .catch((e) => e),
        "NOT_FOUND",
      ),
    ).toBe(true);
    await acme.webhooks.remove(hook.id);
    expect(await acme.webhooks.list()).toEqual([]);
  });
});
