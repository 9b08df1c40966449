import { manualClock } from "@openkyt/core";
import { W } from "@openkyt/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { KEYS, type Served, serve } from "./http-harness.js";
import { type RawAnswer, type RawRequest, rawRequest } from "./raw-request.js";
import { VECTORS } from "./signing-vector-fixtures.js";

const checkAddressBody = JSON.stringify({ network: "ETH", address: W.exchange });

function expectUnauthorized(answer: RawAnswer, detail?: RegExp): void {
  expect(answer.status).toBe(401);
  expect(answer.json).toMatchObject({ code: "UNAUTHORIZED", errors: {} });
  expect(typeof answer.json.detail).toBe("string");
  if (detail) expect(answer.json.detail).toMatch(detail);
}

describe("authentication over HTTP", () => {
  let s: Served;
  const send = (r: RawRequest) => rawRequest(s.server.url, r);
  const checks = async () => (await s.acme.listManualChecks()).total_items;
  /** Sends a check-address request that must be refused, and asserts nothing was created. */
  async function refused(r: Partial<RawRequest>, detail?: RegExp): Promise<void> {
    const before = await checks();
    expectUnauthorized(
      await send({ method: "POST", path: "/v1/manual-checks/check-address/", body: checkAddressBody, ...r }),
      detail,
    );
    expect(await checks()).toBe(before);
  }

  beforeAll(async () => {
    s = await serve();
  });
  afterAll(async () => {
    await s.close();
  });

  it("accepts a correctly signed request (200 for manual check creation)", async () => {
    const before = await checks();
    const ok = await send({
      method: "POST",
      path: "/v1/manual-checks/check-address/",
      body: checkAddressBody,
    });
    expect(ok.status).toBe(200);
    expect(ok.json.check_type).toBe("single_address");
    expect(await checks()).toBe(before + 1);
  });

  it("reads header names case-insensitively", async () => {
    const ts = String(Date.now());
    const good = await send({ method: "GET", path: "/v1/basics/networks/", timestamp: ts });
    expect(good.status).toBe(200);
    const lower = await send({
      method: "GET",
      path: "/v1/basics/networks/",
      timestamp: ts,
      headers: { "api-key-id": KEYS.acme.keyId, "Api-Timestamp": ts },
    });
    expect(lower.status).toBe(200);
  });

  it("refuses a request with a header missing, naming it", async () => {
    await refused({ headers: { "API-KEY-ID": null } }, /API-KEY-ID/);
    await refused({ headers: { "API-TIMESTAMP": null } }, /API-TIMESTAMP/);
    await refused({ headers: { "API-SIGNATURE": null } }, /API-SIGNATURE/);
    expectUnauthorized(
      await send({ method: "GET", path: "/v1/transfers/", headers: { "API-SIGNATURE": null } }),
    );
  });

  it("does not accept X-API-KEY-ID / X-API-KEY-SECRET in place of a signature", async () => {
    await refused(
      {
        headers: {
          "API-KEY-ID": null,
          "API-SIGNATURE": null,
          "X-API-KEY-ID": KEYS.acme.keyId,
          "X-API-KEY-SECRET": KEYS.acme.secret,
        },
      },
      /X-API-KEY-SECRET is not accepted/,
    );
  });

  it("refuses an unknown key and a bad signature", async () => {
    await refused({ keyId: "no-such-key-000" }, /^the request signature is not valid for this API key$/);
    await refused({ signed: { secret: "another-secret-0123456789" } }, /signature/);
    await refused({ headers: { "API-SIGNATURE": "not base64!" } }, /signature/);
    await refused({ headers: { "API-SIGNATURE": Buffer.alloc(32).toString("base64") } }, /signature/);
  });

  it("refuses a signature over another body, path, method or timestamp", async () => {
    await refused({ signed: { body: JSON.stringify({ network: "ETH", address: W.mixer }) } });
    await refused({ signed: { body: null } });
    await refused({ signed: { path: "/v1/manual-checks/check-transfer/" } });
    await refused({ signed: { timestamp: String(Date.now() - 1) } });
    const before = await checks();
    const other = await send({
      method: "PUT",
      path: "/v1/manual-checks/check-address/",
      body: checkAddressBody,
    });
    expect(other.status).toBe(405);
    expect(await checks()).toBe(before);
  });

  it("refuses stale and future timestamps outside the 5-minute window, and accepts inside it", async () => {
    const minute = 60_000;
    await refused({ timestamp: String(Date.now() - 6 * minute) }, /window/);
    await refused({ timestamp: String(Date.now() + 6 * minute) }, /window/);
    await refused({ timestamp: String(Math.floor(Date.now() / 1000)) }, /milliseconds/);
    await refused({ timestamp: "12.5" }, /milliseconds/);
    const inside = await send({
      method: "GET",
      path: "/v1/manual-checks/",
      timestamp: String(Date.now() - 4 * minute),
    });
    expect(inside.status).toBe(200);
    const ahead = await send({
      method: "GET",
      path: "/v1/manual-checks/",
      timestamp: String(Date.now() + 4 * minute),
    });
    expect(ahead.status).toBe(200);
  });

  it("refuses a replayed signed POST inside the window; GETs may repeat", async () => {
    const request: RawRequest = {
      method: "POST",
      path: "/v1/manual-checks/check-address/",
      body: checkAddressBody,
      timestamp: String(Date.now()),
    };
    const before = await checks();
    expect((await send(request)).status).toBe(200);
    expectUnauthorized(await send(request), /replay/);
    expect(await checks()).toBe(before + 1);
    const get: RawRequest = { method: "GET", path: "/v1/manual-checks/", timestamp: String(Date.now()) };
    expect((await send(get)).status).toBe(200);
    expect((await send(get)).status).toBe(200);
  });

  it("serves a path without its trailing slash, signed as sent or with the slash", async () => {
    const asSent = await send({ method: "GET", path: "/v1/manual-checks?page_size=1" });
    expect(asSent.status).toBe(200);
    expect(asSent.json.page_size).toBe(1);
    const withSlash = await send({
      method: "GET",
      path: "/v1/manual-checks?page_size=1",
      signed: { path: "/v1/manual-checks/?page_size=1" },
    });
    expect(withSlash.status).toBe(200);
    const post = await send({
      method: "POST",
      path: "/v1/manual-checks/check-address",
      body: checkAddressBody,
      signed: { path: "/v1/manual-checks/check-address/" },
    });
    expect(post.status).toBe(200);
    // The query is part of what is signed.
    expectUnauthorized(
      await send({
        method: "GET",
        path: "/v1/manual-checks/?page_size=1",
        signed: { path: "/v1/manual-checks/" },
      }),
    );
    // A slash the request had cannot be signed away.
    expectUnauthorized(
      await send({ method: "GET", path: "/v1/manual-checks/", signed: { path: "/v1/manual-checks" } }),
    );
  });

  it("accepts a body sent with whitespace or escapes when the compact form was signed", async () => {
    const compact = JSON.stringify({ network: "ETH", address: W.mixer });
    const spaced = await send({
      method: "POST",
      path: "/v1/manual-checks/check-address/",
      body: `{"network": "ETH", "address": "${W.mixer}"}`,
      signed: { body: compact },
    });
    expect(spaced.status).toBe(200);
    // Python's json.dumps escapes non-ASCII; the body was sent as raw UTF-8.
    const attempt = {
      client_id: "café ✓",
      direction: "incoming",
      network: "ETH",
      input_address: W.b,
      amount: 10.0,
    };
    const escaped = JSON.stringify(attempt).replace(
      /[\u0080-\uffff]/g,
      (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`,
    );
    const sent = await send({
      method: "POST",
      path: "/v1/transfers/register-attempt/",
      body: JSON.stringify(attempt),
      signed: { body: escaped },
    });
    expect(sent.status).toBe(201);
    expect(sent.json.client_id).toBe("café ✓");
    // Numbers as the client wrote them (10.0) survive: whitespace is stripped, tokens kept.
    const python = `{"direction": "incoming", "network": "ETH", "input_address": "${W.b}", "amount": 10.0}`;
    const kept = await send({
      method: "POST",
      path: "/v1/transfers/register-attempt/",
      body: python,
      signed: { body: python.replaceAll(": ", ":").replaceAll(", ", ",") },
    });
    expect(kept.status).toBe(201);
    expect(kept.json.amount).toBe(10);
  });

  it("accepts an empty JSON object signed without a body line (no payload)", async () => {
    const attempt = await s.acme.registerAttempt({
      direction: "incoming",
      network: "ETH",
      input_address: W.b,
    });
    await s.h.engine.drain();
    const path = `/v1/transfers/${attempt.id}/recheck-counterparty/`;
    const answer = await send({ method: "POST", path, body: "{}", signed: { body: null } });
    expect(answer.status).toBe(200);
    expect(answer.json.check_state.counterparty).toBe("queued");
  });

  it("a revoked key fails at once", async () => {
    const created = await s.h.engine.apiKeys.create("acme");
    const client = s.client({ keyId: created.id, secret: created.secret });
    expect((await client.listTransfers()).page).toBe(1);
    expect(await s.h.engine.apiKeys.revoke(created.id)).toBe(true);
    const before = await checks();
    const error = await client.checkAddress({ network: "ETH", address: W.exchange }).catch((e) => e);
    expect(error).toMatchObject({ status: 401, code: "UNAUTHORIZED" });
    expect(await checks()).toBe(before);
  });
});

describe("with auth.keyCacheMs, keys are reused between requests", () => {
  it("a revocation through the engine still fails the key at once; another process's after the lifetime", async () => {
    const s = await serve({ http: { auth: { keyCacheMs: 60_000 } } });
    try {
      const created = await s.h.engine.apiKeys.create("acme");
      const client = s.client({ keyId: created.id, secret: created.secret });
      expect((await client.listTransfers()).page).toBe(1);
      expect(await s.h.engine.apiKeys.revoke(created.id)).toBe(true);
      const error = await client.listTransfers().catch((e) => e);
      expect(error).toMatchObject({ status: 401, code: "UNAUTHORIZED" });

      // Another process revoking through the store directly: the reused key stays valid
      // for up to keyCacheMs (the trade the option makes).
      const spare = await s.h.engine.apiKeys.create("acme");
      const spareClient = s.client({ keyId: spare.id, secret: spare.secret });
      expect((await spareClient.listTransfers()).page).toBe(1);
      expect(await s.h.engine.store.revokeApiKey(spare.id, Date.now())).toBe(true);
      expect((await spareClient.listTransfers()).page).toBe(1);
    } finally {
      await s.close();
    }
  });
});

describe("the published signing example, sent as is", () => {
  it("registers the transfer of the first signing vector (201)", async () => {
    const v = VECTORS[0];
    const s = await serve({ http: { clock: manualClock(Number(v.timestamp)) } });
    try {
      await s.h.engine.apiKeys.provision("qgbtA4OrsHIx67APkTFGfUSctuEEwOYm", v.secret, "acme");
      const answer = await rawRequest(s.server.url, {
        method: v.method,
        path: v.path,
        body: v.body,
        keyId: "qgbtA4OrsHIx67APkTFGfUSctuEEwOYm",
        timestamp: v.timestamp,
        headers: { "API-SIGNATURE": v.signature },
      });
      expect(answer.status).toBe(201);
      expect(answer.json).toMatchObject({
        tx_status: "binding",
        network: "ETH",
        token_symbol: "USDT",
        token_id: "0xdac17f958d2ee523a2206206994597c13d831ec7",
        output_address: "0x016606acc6b0cfe537acc221e3bf1bb44b4049ee",
      });
      // The same request again is a replay.
      const again = await rawRequest(s.server.url, {
        method: v.method,
        path: v.path,
        body: v.body,
        keyId: "qgbtA4OrsHIx67APkTFGfUSctuEEwOYm",
        timestamp: v.timestamp,
        headers: { "API-SIGNATURE": v.signature },
      });
      expect(again.status).toBe(401);
    } finally {
      await s.close();
    }
  });
});
