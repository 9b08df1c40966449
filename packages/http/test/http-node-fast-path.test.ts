/**
 * Served by node-server, the endpoints read headers and body from node's request directly
 * (no fetch Request is built) and write their JSON answers with plain headers. These tests
 * check, over a real socket, that what the app sees and answers is what it was before.
 */
import { TX, W } from "@openkyt/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { accountApis } from "../src/endpoint-runner.js";
import { KEYS, type Served, serve } from "./http-harness.js";
import { signatureHeaders } from "./security-fixture.js";
import { requestBytes, wireExchange } from "./security-wire.js";

const REGISTER = "/v1/transfers/register/";

function registration(n: number): string {
  return JSON.stringify({
    direction: "incoming",
    network: "ETH",
    tx_hash: `0x${(0xfa57 + n).toString(16).padStart(64, "0")}`,
    output_address: W.client,
    disable_auto_check: true,
  });
}

describe("the app served by node-server reads node's request directly", () => {
  let s: Served;
  beforeAll(async () => {
    s = await serve();
  });
  afterAll(() => s.close());

  it("reads a body written in pieces whole, authenticates it and answers with plain headers", async () => {
    const body = registration(1);
    const signed = Object.entries(signatureHeaders({ method: "POST", target: REGISTER, body }));
    const bytes = requestBytes(
      "POST",
      REGISTER,
      [...signed, ["Content-Type", "application/json"], ["X-Request-Id", "fast-path-1"]],
      body,
    );
    const cut = bytes.length - 20;
    const answer = await wireExchange(s.server.port, [bytes.slice(0, cut), bytes.slice(cut)], { gapMs: 20 });
    expect(answer.status).toBe(201);
    expect(answer.headers["content-type"]).toBe("application/json");
    expect(answer.headers["x-request-id"]).toBe("fast-path-1");
    expect(answer.headers["openkyt-created"]).toBe("true");
    expect(answer.headers["content-length"]).toBe(String(Buffer.byteLength(answer.body)));
    expect(JSON.parse(answer.body).tx_hash).toBe(`0x${(0xfa57 + 1).toString(16).padStart(64, "0")}`);
  });

  it("refuses a GET declaring a body past the limit (413), as the fetch path does", async () => {
    const target = "/v1/transfers/";
    const signed = Object.entries(signatureHeaders({ method: "GET", target }));
    const answer = await wireExchange(s.server.port, [
      requestBytes("GET", target, [...signed, ["Content-Length", String(64 * 1024 + 1)]]),
    ]);
    expect(answer.status).toBe(413);
    expect(JSON.parse(answer.body).code).toBe("PAYLOAD_TOO_LARGE");
    expect(answer.headers["x-request-id"]).toMatch(/^[0-9a-f-]{36}$/);
  });

  it("joins a repeated header with ', ' as fetch's Headers does: two key ids are no key id", async () => {
    const target = "/v1/transfers/";
    const signed = signatureHeaders({ method: "GET", target });
    const answer = await wireExchange(s.server.port, [
      requestBytes("GET", target, [
        ...Object.entries(signed),
        ["api-key-id", KEYS.acme.keyId],
        ["X-Request-Id", "twice-1"],
        ["X-Request-Id", "twice-2"],
      ]),
    ]);
    expect(answer.status).toBe(401);
    expect(JSON.parse(answer.body).detail).toBe("the request signature is not valid for this API key");
    expect(answer.headers["x-request-id"], "an id with ', ' in it is not a plain token").toMatch(
      /^[0-9a-f-]{36}$/,
    );
  });

  it("answers a signed GET of a transfer with its JSON and the request id, and a HEAD without the JSON", async () => {
    const { transfer } = await s.h.engine.forAccount("acme").registerTransfer({
      direction: "incoming",
      network: "ETH",
      tx_hash: TX.deposit,
      output_address: W.client,
    });
    const target = `/v1/transfers/${transfer.id}/`;
    const answer = await wireExchange(s.server.port, [
      requestBytes("GET", target, [
        ...Object.entries(signatureHeaders({ method: "GET", target })),
        ["X-Request-Id", "get-1"],
      ]),
    ]);
    expect(answer.status).toBe(200);
    expect(answer.headers["x-request-id"]).toBe("get-1");
    expect(JSON.parse(answer.body).id).toBe(transfer.id);

    const head = await wireExchange(s.server.port, [
      requestBytes("HEAD", target, [
        ...Object.entries(signatureHeaders({ method: "HEAD", target })),
        ["X-Request-Id", "head-1"],
      ]),
    ]);
    expect(head.status).toBe(200);
    expect(head.headers["x-request-id"]).toBe("head-1");
    expect(head.headers["content-type"]).toBe("application/json");
    expect(head.body).toBe("");
  });

  it("makes one account API per account and reuses it", () => {
    const accounts = accountApis(s.h.engine, 2);
    const acme = accounts("acme");
    expect(accounts("acme")).toBe(acme);
    expect(accounts("other")).not.toBe(acme);
    accounts("third");
    expect(accounts("acme"), "past the bound the memo starts over").not.toBe(acme);
  });
});
