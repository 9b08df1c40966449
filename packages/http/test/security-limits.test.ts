import { connect } from "node:net";
import { W } from "@openkyt/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MAX_JSON_DEPTH } from "../src/body-forms.js";
import { type HttpServer, serveHttp } from "../src/index.js";
import {
  createSecurityWorld,
  type HandRequest,
  type SecurityWorld,
  signatureHeaders,
} from "./security-fixture.js";
import { requestBytes, wireExchange } from "./security-wire.js";

const CHECK = "/v1/manual-checks/check-address/";

describe("resource limits: bodies, headers, queries, slow clients and bursts", () => {
  let world: SecurityWorld;
  let server: HttpServer;
  /** Sends `r` over a raw connection (signed as the server sees it) and returns the answer. */
  const wire = (r: HandRequest, extra: Array<readonly [string, string]> = []) => {
    const headers = [...Object.entries(signatureHeaders(r)), ...extra];
    const body = typeof r.body === "string" ? r.body : "";
    return wireExchange(server.port, [requestBytes(r.method, r.target, headers, body)]);
  };
  /** Asserts the JSON error body of a refusal. */
  const expectError = (body: string, code: string) => expect(JSON.parse(body)).toMatchObject({ code });

  beforeAll(async () => {
    world = await createSecurityWorld();
    server = await serveHttp(world.app, {
      port: 0,
      headersTimeoutMs: 600,
      requestTimeoutMs: 1_200,
      timeoutCheckIntervalMs: 100,
      // The burst below opens 600 connections from 127.0.0.1 at once (security-connections.test.ts
      // tests the per-address cap).
      maxConnectionsPerAddress: 2_000,
    });
  });
  afterAll(async () => {
    await server.close();
    await world.close();
  });

  it("a body past 64 KiB is 413, whether Content-Length says so or it is streamed", async () => {
    const digest = await world.digest();
    const big = JSON.stringify({ network: "ETH", address: W.sanctioned, pad: "x".repeat(64 * 1024) });
    const declared = await wire({ method: "POST", target: CHECK, body: big });
    expect(declared.status).toBe(413);
    expectError(declared.body, "PAYLOAD_TOO_LARGE");
    const head = requestBytes("POST", CHECK, [
      ...Object.entries(signatureHeaders({ method: "POST", target: CHECK, body: big })),
      ["Transfer-Encoding", "chunked"],
    ]);
    const chunks = [
      head,
      ...Array.from({ length: 20 }, () => `1000\r\n${"x".repeat(0x1000)}\r\n`),
      "0\r\n\r\n",
    ];
    const streamed = await wireExchange(server.port, chunks, { gapMs: 2 });
    expect(streamed.status).toBe(413);
    const exact = await world.send({ method: "POST", target: CHECK, body: " ".repeat(64 * 1024) });
    expect(exact.status, "64 KiB itself is allowed (here: an empty body)").toBe(400);
    expect(await world.digest()).toBe(digest);
  });

  it("page_size above 100 or below 1 is a 400, never clamped or served", async () => {
    for (const list of ["/v1/transfers/", "/v1/manual-checks/", "/v1/alerts/", "/v1/basics/networks/"]) {
      for (const size of ["101", "1000000", "0", "-1", "1.5", "1e3"]) {
        const response = await world.send({ method: "GET", target: `${list}?page_size=${size}` });
        expect(response.status, `${list} page_size=${size}`).toBe(400);
        expect(((await response.json()) as { errors: object }).errors).toHaveProperty("page_size");
      }
      const last = await world.send({ method: "GET", target: `${list}?page=9007199254740991&page_size=100` });
      expect(last.status).toBe(200);
      expect(await last.json()).toMatchObject({ items: [] });
    }
  });

  it("query strings: long values and many filters are 400s; past Node's 16 KiB header limit, 431", async () => {
    const long = await world.send({
      method: "GET",
      target: `/v1/transfers/?client_id=${"a".repeat(10_000)}`,
    });
    expect(long.status).toBe(400);
    const unknown = Array.from({ length: 1_000 }, (_, i) => `f${i}=1`).join("&");
    const many = await world.send({ method: "GET", target: `/v1/transfers/?${unknown}` });
    expect(many.status).toBe(400);
    const repeated = Array.from({ length: 1_000 }, () => "network=ETH").join("&");
    const twice = await world.send({ method: "GET", target: `/v1/transfers/?${repeated}` });
    expect(twice.status).toBe(400);
    expectError(await twice.text(), "VALIDATION_ERROR");
    const proto = await world.send({ method: "GET", target: "/v1/transfers/?__proto__=x" });
    expect(proto.status, "__proto__ is an unknown parameter like any other").toBe(400);
    const huge = await wire({ method: "GET", target: `/v1/transfers/?client_id=${"a".repeat(20_000)}` });
    expect(huge.status).toBe(431);
  });

  it(`bodies nested deeper than ${MAX_JSON_DEPTH} levels are 400s after authentication, not stack overflows`, async () => {
    const digest = await world.digest();
    for (const body of [
      `${"[".repeat(30_000)}${"]".repeat(30_000)}`,
      `${'{"a":'.repeat(6_000)}1${"}".repeat(6_000)}`,
      `{"network":"ETH","address":${"[".repeat(MAX_JSON_DEPTH)}${"]".repeat(MAX_JSON_DEPTH)}}`,
    ]) {
      const response = await world.send({ method: "POST", target: CHECK, body });
      expect(response.status).toBe(400);
      expect(await response.json()).toMatchObject({
        code: "VALIDATION_ERROR",
        detail: expect.stringMatching(/deeper/),
      });
      const unsigned = await world.send({ method: "POST", target: CHECK, body, sign: false });
      expect(unsigned.status).toBe(401);
    }
    const proto = await world.send({
      method: "POST",
      target: CHECK,
      body: '{"__proto__":{"x":1},"constructor":1}',
    });
    expect(proto.status).toBe(400);
    expect(await proto.json()).toMatchObject({
      errors: { ["__proto__"]: ["unknown field"], constructor: ["unknown field"] },
    });
    expect(await world.digest()).toBe(digest);
  });

  it("a client that trickles its headers or its body is cut off by the server's timeouts", async () => {
    const started = performance.now();
    const headerBytes = [..."GET /v1/basics/networks/ HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: "];
    const slowHeaders = await wireExchange(server.port, [...headerBytes, ..."a".repeat(200)], {
      gapMs: 50,
      timeoutMs: 8_000,
    });
    expect(
      slowHeaders.ms,
      "cut at the 600 ms headers timeout, long before the 200 x 50 ms trickle ends",
    ).toBeLessThan(3_000);
    expect([0, 408]).toContain(slowHeaders.status);
    const head = requestBytes(
      "POST",
      CHECK,
      Object.entries(signatureHeaders({ method: "POST", target: CHECK, body: "{}" })),
    );
    const withLength = head.replace("\r\n\r\n", "\r\nContent-Length: 1000\r\n\r\n");
    const slowBody = await wireExchange(
      server.port,
      [withLength, ...Array.from({ length: 200 }, () => " ")],
      {
        gapMs: 50,
        timeoutMs: 8_000,
      },
    );
    expect(slowBody.ms, "cut at the 1.2 s request timeout").toBeLessThan(4_000);
    console.info(
      `slow clients: headers trickle cut after ${slowHeaders.ms.toFixed(0)} ms (status ${slowHeaders.status}), ` +
        `body trickle after ${slowBody.ms.toFixed(0)} ms (status ${slowBody.status}); ${(performance.now() - started).toFixed(0)} ms in all`,
    );
    expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
  });

  it("bursts: 600 concurrent requests and 600 idle connections, memory bounded, still serving", {
    timeout: 60_000,
  }, async () => {
    global.gc?.();
    const rssBefore = process.memoryUsage().rss;
    const target = "/v1/transfers/?page_size=5";
    const burst = await Promise.all(
      Array.from({ length: 600 }, async () => {
        const response = await fetch(`${server.url}${target}`, {
          headers: signatureHeaders({ method: "GET", target }),
        });
        await response.arrayBuffer();
        return response.status;
      }),
    );
    expect(burst.filter((s) => s !== 200)).toEqual([]);
    const ended = new Set<number>();
    const idle = await Promise.all(
      Array.from(
        { length: 600 },
        (_, i) =>
          new Promise<ReturnType<typeof connect>>((resolve, reject) => {
            const socket = connect({ host: "127.0.0.1", port: server.port }, () => resolve(socket));
            socket.on("error", reject);
            socket.on("close", () => ended.add(i));
            socket.resume();
          }),
      ),
    );
    const during = await fetch(`${server.url}${target}`, {
      headers: signatureHeaders({ method: "GET", target }),
    });
    expect(during.status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    const stillOpen = idle.length - ended.size;
    for (const socket of idle) socket.destroy();
    const grown = (process.memoryUsage().rss - rssBefore) / 1e6;
    console.info(
      `bursts: 600 concurrent requests all 200, 600 idle connections (${stillOpen} still open after the headers timeout), RSS grew ${grown.toFixed(1)} MB`,
    );
    expect(stillOpen, "idle connections are closed by the headers timeout").toBe(0);
    expect(grown).toBeLessThan(200);
    expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
  });
});
