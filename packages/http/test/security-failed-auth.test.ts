/**
 * Failed authentication is cheap and uniform (issue 18, item 5): a refusal of a known key id
 * over a 47 KB body costs a bounded number of HMACs (counted by wrapping node:crypto's
 * createHmac) and CPU; `/v1/x/../` paths are refused before authentication; a source or key
 * past its budget of failures gets 429 with Retry-After and costs no HMAC; an unknown key and a
 * bad signature get byte-identical 401 bodies; and a request that fails on its headers, its
 * timestamp or its key is answered before its body is read.
 */
import { Agent, request } from "node:http";
import { connect } from "node:net";
import { manualClock } from "@openkyt/core";
import { W } from "@openkyt/testkit";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createHttpApp, type HttpServer, serveHttp } from "../src/index.js";
import { KEYS } from "./http-harness.js";
import { createSecurityWorld, type SecurityWorld, signatureHeaders } from "./security-fixture.js";
import { parseAnswer } from "./security-wire.js";

const hmacs = vi.hoisted(() => ({ count: 0 }));
vi.mock("node:crypto", async (original) => {
  const crypto = await original<typeof import("node:crypto")>();
  return {
    ...crypto,
    createHmac: (...args: Parameters<typeof crypto.createHmac>) => {
      hmacs.count += 1;
      return crypto.createHmac(...args);
    },
  };
});

const CHECK = "/v1/manual-checks/check-address/";
/** A 46 KB JSON body with spaces and non-ASCII text, so every signed body form differs. */
const BODY = JSON.stringify(
  { network: "ETH", address: W.sanctioned, note: "ü ".repeat(15_000), pad: "x".repeat(1_000) },
  null,
  1,
);
const BAD_SIGNATURE = Buffer.alloc(32, 7).toString("base64");

interface Answer {
  readonly status: number;
  readonly body: string;
  readonly headers: Record<string, string | string[] | undefined>;
}

/** One POST of `body` to `path` (headers as given, none signed unless given). */
function post(
  port: number,
  path: string,
  headers: Record<string, string>,
  options: { body?: string; agent?: Agent; localAddress?: string } = {},
): Promise<Answer> {
  const body = options.body ?? BODY;
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: "127.0.0.1",
        port,
        method: "POST",
        path,
        ...(options.agent ? { agent: options.agent } : {}),
        ...(options.localAddress ? { localAddress: options.localAddress } : {}),
        headers: {
          ...headers,
          "Content-Type": "application/json",
          "Content-Length": Buffer.byteLength(body),
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () =>
          resolve({
            status: res.statusCode ?? 0,
            body: Buffer.concat(chunks).toString(),
            headers: res.headers,
          }),
        );
      },
    );
    req.on("error", reject);
    req.end(body);
  });
}

/** Headers of a known key id with a wrong signature (or of `keyId`). */
const badlySigned = (keyId: string = KEYS.acme.keyId) => ({
  "API-KEY-ID": keyId,
  "API-TIMESTAMP": String(Date.now()),
  "API-SIGNATURE": BAD_SIGNATURE,
});

describe("failed authentication: cost, budget, one answer, no body read", () => {
  let world: SecurityWorld;
  let server: HttpServer;
  beforeAll(async () => {
    world = await createSecurityWorld();
    server = await serveHttp(world.app, { port: 0 });
  });
  afterAll(async () => {
    await server.close();
    await world.close();
  });

  it("a bad signature over 46 KB costs one HMAC per distinct signed form; /v1/x/../ paths are 400 with none", async () => {
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    const n = 200;
    for (let i = 0; i < 20; i += 1) await post(server.port, CHECK, badlySigned(), { agent });
    hmacs.count = 0;
    const cpu = process.cpuUsage();
    for (let i = 0; i < n; i += 1) {
      expect((await post(server.port, CHECK, badlySigned(), { agent })).status).toBe(401);
    }
    const used = process.cpuUsage(cpu);
    const perRefusal = hmacs.count / n;
    // The raw body, its compact form and its \u-escaped form, under the one target.
    expect(perRefusal).toBe(3);
    hmacs.count = 0;
    const dotted = await post(server.port, `/v1/x/..${CHECK.slice(3, -1)}`, badlySigned(), { agent });
    expect(dotted.status).toBe(400);
    expect(JSON.parse(dotted.body)).toMatchObject({
      code: "VALIDATION_ERROR",
      errors: { path: [expect.any(String)] },
    });
    for (const path of ["/v1/./manual-checks/check-address/", "/v1/%2e%2e/v1/manual-checks/check-address/"]) {
      expect((await post(server.port, path, badlySigned(), { agent })).status, path).toBe(400);
    }
    expect(hmacs.count, "dot-segment paths are refused before any HMAC").toBe(0);
    const signed = signatureHeaders({ method: "POST", target: CHECK, body: BODY });
    hmacs.count = 0;
    const good = await post(server.port, CHECK, signed, { agent });
    expect(good.status, good.body).toBe(400); // signed and authenticated; the pad field is unknown
    expect(hmacs.count, "a body signed as sent costs one HMAC").toBe(1);
    agent.destroy();
    console.info(
      `refusals of a ${Buffer.byteLength(BODY)}-byte body with a known key id and a bad signature: ` +
        `${perRefusal} HMACs and ${((used.user + used.system) / n).toFixed(0)} µs CPU per refusal (client and server in one process)`,
    );
  });

  it("an unknown key id and a bad signature get byte-identical 401 bodies", async () => {
    const unknown = await post(server.port, CHECK, badlySigned("no-such-key-0000"));
    const wrong = await post(server.port, CHECK, badlySigned());
    const revoked = { keyId: "acme-revoked-0001", secret: "acme-revoked-secret-0123456789" };
    await world.h.engine.apiKeys.provision(revoked.keyId, revoked.secret, "acme");
    await world.h.engine.apiKeys.revoke(revoked.keyId);
    const gone = await post(
      server.port,
      CHECK,
      signatureHeaders({ method: "POST", target: CHECK, body: BODY, key: revoked }),
    );
    for (const answer of [unknown, wrong, gone]) expect(answer.status).toBe(401);
    expect(unknown.body).toBe(wrong.body);
    expect(gone.body).toBe(wrong.body);
    expect(JSON.parse(wrong.body)).toEqual({
      detail: "the request signature is not valid for this API key",
      code: "UNAUTHORIZED",
      errors: {},
    });
    expect(unknown.headers["x-request-id"]).not.toBe(wrong.headers["x-request-id"]);
  });

  it("a refusal on headers, timestamp or key is answered before the body is sent; a known key waits for it", async () => {
    /** Sends the head and 1 KB of a 46 KB body, then waits `waitMs` for an answer. */
    const partial = (headers: Record<string, string>, waitMs: number) =>
      new Promise<{ status: number; ms: number }>((resolve) => {
        const started = performance.now();
        const socket = connect({ host: "127.0.0.1", port: server.port });
        const chunks: Buffer[] = [];
        const done = () => {
          clearTimeout(timer);
          socket.destroy();
          const answer = parseAnswer(Buffer.concat(chunks).toString("latin1"), performance.now() - started);
          resolve({ status: answer.status, ms: answer.ms });
        };
        const timer = setTimeout(done, waitMs);
        socket.on("error", () => undefined);
        socket.on("data", (chunk: Buffer) => {
          chunks.push(chunk);
          if (Buffer.concat(chunks).includes("\r\n\r\n{")) done();
        });
        const lines = [`POST ${CHECK} HTTP/1.1`, "Host: 127.0.0.1", "Content-Type: application/json"];
        for (const [name, value] of Object.entries(headers)) lines.push(`${name}: ${value}`);
        lines.push(`Content-Length: ${Buffer.byteLength(BODY)}`);
        socket.write(`${lines.join("\r\n")}\r\n\r\n${BODY.slice(0, 1_000)}`);
      });
    const cases: Array<[string, Record<string, string>]> = [
      ["unknown key", badlySigned("no-such-key-0000")],
      ["a 15 KB key id", badlySigned("k".repeat(15_000))],
      ["no signature", { "API-KEY-ID": KEYS.acme.keyId, "API-TIMESTAMP": String(Date.now()) }],
      ["stale timestamp", { ...badlySigned(), "API-TIMESTAMP": String(Date.now() - 3_600_000) }],
    ];
    hmacs.count = 0;
    for (const [name, headers] of cases) {
      const answer = await partial(headers, 3_000);
      expect(answer.status, name).toBe(401);
      expect(answer.ms, `${name}: answered while the body is still unsent`).toBeLessThan(2_000);
    }
    expect(hmacs.count).toBe(0);
    const known = await partial(badlySigned(), 500);
    expect(known.status, "a known key's signature needs the whole body: no answer yet").toBe(0);
    expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
  });
});

describe("the budget of failed authentications", () => {
  let world: SecurityWorld;
  let server: HttpServer;
  const clock = manualClock(Date.now());
  beforeAll(async () => {
    world = await createSecurityWorld();
    const app = createHttpApp({
      engine: world.h.engine,
      clock,
      limits: { ratePerKey: null, failedAuth: { perSecond: 10, burst: 20 } },
    });
    server = await serveHttp(app, { port: 0 });
  });
  afterAll(async () => {
    await server.close();
    await world.close();
  });

  it("20 bad signatures from one address are 401s; then 429 with Retry-After and no HMAC, for any key", async () => {
    const from = (localAddress: string, headers: Record<string, string>) =>
      post(server.port, CHECK, headers, { localAddress });
    // Signed here, before counting: the test's own signing is an HMAC too.
    const signed = signatureHeaders({ method: "POST", target: CHECK, body: BODY });
    hmacs.count = 0;
    for (let i = 0; i < 20; i += 1) expect((await from("127.0.0.2", badlySigned())).status).toBe(401);
    expect(hmacs.count).toBe(60);
    hmacs.count = 0;
    const cpu = process.cpuUsage();
    for (let i = 0; i < 30; i += 1) {
      const answer = await from("127.0.0.2", badlySigned());
      expect(answer.status).toBe(429);
      expect(JSON.parse(answer.body)).toMatchObject({ code: "RATE_LIMITED" });
      expect(Number(answer.headers["retry-after"])).toBeGreaterThanOrEqual(1);
    }
    const used = process.cpuUsage(cpu);
    console.info(
      `past the failure budget: 429 in ${((used.user + used.system) / 30).toFixed(0)} µs CPU per refusal of a ${Buffer.byteLength(BODY)}-byte body, 0 HMACs`,
    );
    expect((await from("127.0.0.2", signed)).status, "even a good signature, from this address").toBe(429);
    expect((await from("127.0.0.2", badlySigned("no-such-key-0000"))).status).toBe(429);
    expect(hmacs.count, "nothing past the budget is checked").toBe(0);

    // The key's budget is spent too, but its owner (another address, no failures) gets through.
    expect((await from("127.0.0.3", signed)).status, "the key's owner from a clean address").toBe(400);
    expect((await from("127.0.0.3", badlySigned())).status).toBe(401);
    hmacs.count = 0;
    expect((await from("127.0.0.3", badlySigned())).status, "a failing address on a spent key").toBe(429);
    expect((await from("127.0.0.3", signed)).status).toBe(429);
    expect(hmacs.count).toBe(0);

    // Unknown key ids spend the address's budget only.
    for (let i = 0; i < 20; i += 1) {
      expect((await from("127.0.0.4", badlySigned(`no-such-key-${i}`))).status).toBe(401);
    }
    expect((await from("127.0.0.4", badlySigned("no-such-key-x"))).status).toBe(429);
    expect(
      (
        await from(
          "127.0.0.5",
          signatureHeaders({ method: "POST", target: CHECK, body: BODY, key: KEYS.other }),
        )
      ).status,
    ).toBe(400);

    clock.advance(2_000);
    expect((await from("127.0.0.2", badlySigned())).status, "the budget refills at 10/s").toBe(401);
    const again = signatureHeaders({
      method: "POST",
      target: CHECK,
      body: BODY,
      timestamp: String(clock.now()),
    });
    expect(
      (await from("127.0.0.2", again)).status,
      "signed anew (the first was admitted, a replay now)",
    ).toBe(400);
  });
});
