/**
 * The request id carried into the jobs a request enqueues: a real server whose engine logs to
 * the same captured pino destination. Each job's lines (the runner's `job settled`, at debug)
 * carry the request id of the request that queued it: a registration's bind job, a recheck's
 * check job, a manual check's job and the webhook delivery of the event that check raised.
 * Registrations written together in one batch keep each their own request's id.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { type JobRecord, jobOrigin, systemClock } from "@openkyt/core";
import { TX, W } from "@openkyt/testkit";
import { pino } from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Served, serve } from "./http-harness.js";

interface Line {
  readonly msg: string;
  readonly kind?: string;
  readonly requestId?: string;
  readonly jobId?: string;
}

/** A webhook receiver on 127.0.0.1 that answers 200. */
async function receiver(): Promise<{ url: string; server: Server }> {
  const server = createServer((req, res) => {
    req.resume();
    req.on("end", () => res.writeHead(200).end());
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`, server };
}

const registration = (txHash: string) => ({
  direction: "incoming" as const,
  network: "ETH",
  tx_hash: txHash,
  output_address: W.client,
});

describe("the request id in the logs of the jobs a request enqueues", () => {
  let s: Served;
  let hook: Awaited<ReturnType<typeof receiver>>;
  const lines: string[] = [];
  const parsed = (): Line[] => lines.map((l) => JSON.parse(l) as Line);
  const settledBy = (requestId: string) =>
    parsed().filter((l) => l.msg === "job settled" && l.requestId === requestId);

  beforeAll(async () => {
    hook = await receiver();
    const logger = pino({ level: "debug" }, { write: (line: string) => lines.push(line) });
    s = await serve({
      http: { logger },
      engine: { logger, clock: systemClock, webhooks: { allowPrivateTargets: true } },
    });
  });
  afterAll(async () => {
    await s.close();
    await new Promise<void>((resolve) => hook.server.close(() => resolve()));
  });

  it("a registration's bind job, a recheck's check job, a manual check and its webhook delivery", async () => {
    const created = await s.acme.send("POST", "/v1/webhooks/", {
      body: { url: hook.url, events: ["manual_check.completed"] },
    });
    expect(created.status).toBe(201);

    const registered = await s.acme.send<{ id: string }>("POST", "/v1/transfers/register/", {
      body: registration(TX.deposit),
      headers: { "X-Request-Id": "register-req-1" },
    });
    expect(registered.headers.get("x-request-id")).toBe("register-req-1");
    await s.h.engine.drain();
    expect(settledBy("register-req-1").map((l) => l.kind)).toEqual(["transfer.bind"]);

    const recheck = await s.acme.send("POST", `/v1/transfers/${registered.body.id}/recheck-exposure/`, {
      headers: { "X-Request-Id": "recheck-req-2" },
    });
    expect(recheck.status).toBe(200);
    const manual = await s.acme.send("POST", "/v1/manual-checks/check-address/", {
      body: { network: "ETH", address: W.exchange },
      headers: { "X-Request-Id": "manual-req-3" },
    });
    expect(manual.status).toBe(200);
    await s.h.engine.drain();

    expect(settledBy("recheck-req-2").map((l) => l.kind)).toEqual(["transfer.check"]);
    expect(settledBy("manual-req-3").map((l) => l.kind)).toEqual(["manual_check.run", "webhook.deliver"]);
    // The registration's lines are unchanged by the later requests: no job of theirs carries its id.
    expect(settledBy("register-req-1").map((l) => l.kind)).toEqual(["transfer.bind"]);
    // A request without a client id gets a generated one, and its jobs carry that.
    const plain = await s.acme.send("POST", "/v1/manual-checks/check-address/", {
      body: { network: "ETH", address: W.client },
    });
    const generated = plain.headers.get("x-request-id") ?? "";
    expect(generated).toMatch(/^[0-9a-f-]{36}$/);
    await s.h.engine.drain();
    expect(settledBy(generated).map((l) => l.kind)).toEqual(["manual_check.run", "webhook.deliver"]);
  });

  it("registrations written together in one batch each keep their own request's id", async () => {
    const hashes = [`0x${"ab".repeat(32)}`, `0x${"cd".repeat(32)}`, `0x${"ef".repeat(32)}`];
    const answers = await Promise.all(
      hashes.map((hash, i) =>
        s.acme.send<{ id: string }>("POST", "/v1/transfers/register/", {
          body: { ...registration(hash), disable_auto_check: true },
          headers: { "X-Request-Id": `batch-req-${i}` },
        }),
      ),
    );
    // In process too, where both calls surely join one batch (written on the next turn).
    const api = (requestId: string) => s.h.engine.forAccount("acme", { origin: { requestId } });
    // And with the origin given per call to one account API, as the HTTP adapter does.
    const shared = s.h.engine.forAccount("acme");
    const [x, y, z] = await Promise.all([
      api("same-batch-x").registerTransfer({
        ...registration(`0x${"12".repeat(32)}`),
        disable_auto_check: true,
      }),
      api("same-batch-y").registerTransfer({
        ...registration(`0x${"34".repeat(32)}`),
        disable_auto_check: true,
      }),
      shared.registerTransfer(
        { ...registration(`0x${"56".repeat(32)}`), disable_auto_check: true },
        { origin: { requestId: "same-batch-z" } },
      ),
    ]);
    const jobs = await s.h.store.claimJobs({
      now: Date.now() + 1,
      limit: 100,
      leaseMs: 60_000,
      owner: "test",
    });
    const originOf = (transferId: string) =>
      jobs.filter((j: JobRecord) => j.subjectId === transferId && j.kind === "transfer.bind").map(jobOrigin);
    answers.forEach((answer, i) => {
      expect(originOf(answer.body.id)).toEqual([{ requestId: `batch-req-${i}` }]);
    });
    expect(originOf(x.transfer.id)).toEqual([{ requestId: "same-batch-x" }]);
    expect(originOf(y.transfer.id)).toEqual([{ requestId: "same-batch-y" }]);
    expect(originOf(z.transfer.id)).toEqual([{ requestId: "same-batch-z" }]);
  });

  it("refuses a malformed origin, naming what is wrong", async () => {
    const origin = (o: object) => () => s.h.engine.forAccount("acme", { origin: o as never });
    expect(origin({ requestId: "a b" })).toThrow(/origin\.requestId/);
    expect(origin({ requestId: "x".repeat(129) })).toThrow(/origin\.requestId/);
    expect(origin({ traceparent: "00-abc-def-01" })).toThrow(/origin\.traceparent/);
    expect(origin({ traceparent: `00-${"0".repeat(32)}-${"1".repeat(16)}-01` })).toThrow(
      /origin\.traceparent/,
    );
    const perCall = s.h.engine.forAccount("acme").recheckExposure("x", { origin: { requestId: "a b" } });
    await expect(perCall).rejects.toThrow(/origin\.requestId/);
  });
});
