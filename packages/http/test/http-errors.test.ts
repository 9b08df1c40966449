import { type KytHttpError, signRequest } from "@openkyt/client";
import { errorBodySchema } from "@openkyt/core";
import { TX, W } from "@openkyt/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { KEYS, rejection, type Served, serve } from "./http-harness.js";
import { type RawAnswer, rawRequest } from "./raw-request.js";
import { expectWire } from "./wire-expect.js";

const register = { direction: "incoming", network: "ETH", tx_hash: TX.deposit, output_address: W.client };
const attempt = { direction: "incoming", network: "ETH", input_address: W.b } as const;
const checkTransfer = {
  network: "ETH",
  tx_hash: TX.deposit,
  output_address: W.client,
  direction: "incoming",
};

function expectError(answer: RawAnswer, status: number, code: string, field?: string): void {
  expect(answer.status).toBe(status);
  expectWire(errorBodySchema, answer.json);
  expect(answer.json.code).toBe(code);
  if (field) expect(Object.keys(answer.json.errors), JSON.stringify(answer.json)).toContain(field);
}

describe("request errors over HTTP: each answers its status and code and changes nothing", () => {
  let s: Served;
  let attemptId: string;
  const counts = async () => [
    (await s.acme.listTransfers()).total_items,
    (await s.acme.listManualChecks()).total_items,
  ];
  const post = (path: string, body: string) => rawRequest(s.server.url, { method: "POST", path, body });

  beforeAll(async () => {
    s = await serve();
    attemptId = (await s.acme.registerAttempt(attempt)).id;
  });
  afterAll(async () => {
    await s.close();
  });

  it("malformed JSON is 400 naming the body", async () => {
    const before = await counts();
    const answer = await post("/v1/transfers/register/", '{"direction": "incoming",');
    expectError(answer, 400, "VALIDATION_ERROR", "non_field_errors");
    expect(answer.json.detail).toMatch(/request body is not valid JSON/);
    expectError(await post("/v1/manual-checks/check-address/", "network=ETH"), 400, "VALIDATION_ERROR");
    expect(await counts()).toEqual(before);
  });

  it("a body that is not an object, or none at all, is 400", async () => {
    const before = await counts();
    expectError(await post("/v1/transfers/register/", "[1,2]"), 400, "VALIDATION_ERROR", "non_field_errors");
    const empty = await rawRequest(s.server.url, { method: "POST", path: "/v1/transfers/register-attempt/" });
    expectError(empty, 400, "VALIDATION_ERROR");
    expect(empty.json.detail).toMatch(/JSON object/);
    expect(await counts()).toEqual(before);
  });

  it("wrong types and unknown fields are 400 naming every field", async () => {
    const before = await counts();
    const wrong = await post(
      "/v1/transfers/register/",
      JSON.stringify({ ...register, direction: 5, disable_auto_check: "yes", client_id: 7 }),
    );
    expectError(wrong, 400, "VALIDATION_ERROR");
    expect(Object.keys(wrong.json.errors).sort()).toEqual(["client_id", "direction", "disable_auto_check"]);
    const unknown = await post(
      "/v1/transfers/register/",
      JSON.stringify({ ...register, colour: "red", memo: 1 }),
    );
    expectError(unknown, 400, "VALIDATION_ERROR");
    expect(unknown.json.errors).toEqual({ colour: ["unknown field"], memo: ["unknown field"] });
    expect(await counts()).toEqual(before);
  });

  it("every validation rule: a sample of each, 400 naming the field, nothing stored", async () => {
    const samples: Array<[string, object, string]> = [
      ["/v1/transfers/register/", { ...register, direction: undefined }, "direction"],
      ["/v1/transfers/register/", { ...register, direction: "sideways" }, "direction"],
      ["/v1/transfers/register/", { ...register, network: "DOGE" }, "network"],
      ["/v1/transfers/register/", { ...register, tx_hash: undefined }, "tx_hash"],
      ["/v1/transfers/register/", { ...register, tx_hash: "0xabc" }, "tx_hash"],
      ["/v1/transfers/register/", { ...register, output_address: "0x12" }, "output_address"],
      [
        "/v1/transfers/register/",
        { ...register, network: "TRX", output_address: W.client },
        "output_address",
      ],
      ["/v1/transfers/register/", { ...register, client_id: "c".repeat(41) }, "client_id"],
      ["/v1/transfers/register/", { ...register, token_id: "NOSUCHTOKEN" }, "token_id"],
      ["/v1/transfers/register/", { ...register, force_recheck: "true" }, "force_recheck"],
      ["/v1/transfers/register/", { ...register, risk_model: "m".repeat(101) }, "risk_model"],
      ["/v1/transfers/register-attempt/", { ...attempt, attempt_id: "a".repeat(101) }, "attempt_id"],
      ["/v1/transfers/register-attempt/", { ...attempt, input_address: null }, "input_address"],
      ["/v1/transfers/register-attempt/", { direction: "outgoing", network: "ETH" }, "output_address"],
      ["/v1/transfers/register-attempt/", { ...attempt, amount: -1 }, "amount"],
      ["/v1/transfers/register-attempt/", { ...attempt, amount: "ten" }, "amount"],
      ["/v1/manual-checks/check-transfer/", { ...checkTransfer, direction: undefined }, "direction"],
      ["/v1/manual-checks/check-transfer/", { ...checkTransfer, tx_hash: "nothex" }, "tx_hash"],
      ["/v1/manual-checks/check-transfer/", { ...checkTransfer, output_address: "" }, "output_address"],
      ["/v1/manual-checks/check-address/", { network: "TRX", address: "T1" }, "address"],
      ["/v1/manual-checks/check-address/", { network: "ETH" }, "address"],
      ["/v1/manual-checks/check-address/", { address: W.client }, "network"],
      [`/v1/transfers/${"ID"}/bind-transaction/`, {}, "tx_hash"],
      [`/v1/transfers/${"ID"}/bind-transaction/`, { tx_hash: "0x1" }, "tx_hash"],
      [
        `/v1/transfers/${"ID"}/bind-transaction/`,
        { tx_hash: TX.deposit, output_address: "0xnope" },
        "output_address",
      ],
    ];
    const before = await counts();
    for (const [path, body, field] of samples) {
      const answer = await post(path.replace("ID", attemptId), JSON.stringify(body));
      expect(answer.status, `${path} ${JSON.stringify(body)}`).toBe(400);
      expectError(answer, 400, "VALIDATION_ERROR", field);
    }
    expect(await counts()).toEqual(before);
    expect((await s.acme.getTransfer(attemptId)).tx_status).toBe("none");
  });

  it("unknown routes are 404 and wrong methods 405, with the error body", async () => {
    expectError(await rawRequest(s.server.url, { method: "GET", path: "/v1/nothing/" }), 404, "NOT_FOUND");
    expectError(
      await rawRequest(s.server.url, { method: "GET", path: `/v1/transfers/${attemptId}/history/` }),
      404,
      "NOT_FOUND",
    );
    const wrong = await rawRequest(s.server.url, { method: "DELETE", path: `/v1/transfers/${attemptId}/` });
    expectError(wrong, 405, "METHOD_NOT_ALLOWED");
    expect(wrong.headers.get("allow")).toBe("GET");
    const getRegister = await rawRequest(s.server.url, { method: "GET", path: "/v1/transfers/register/" });
    expectError(getRegister, 405, "METHOD_NOT_ALLOWED");
    expect(getRegister.headers.get("allow")).toBe("POST");
    expect((await s.acme.getTransfer(attemptId)).id).toBe(attemptId);
  });

  it("another account's resources are 404 everywhere and never listed; nothing changes", async () => {
    const t = await s.acme.registerTransfer({ ...register, tx_hash: TX.mixerDeposit } as never);
    const check = await s.acme.checkAddress({ network: "ETH", address: W.mixer });
    await s.h.engine.drain();
    const alertId = (await s.acme.listAlerts()).items[0]?.id ?? "";
    expect(alertId).not.toBe("");
    const o = s.other;
    const calls = [
      () => o.getTransfer(t.id),
      () => o.getTransferExposure(t.id),
      () => o.getTransferCounterparty(t.id),
      () => o.getTransferRisks(t.id),
      () => o.recheckCounterparty(t.id),
      () => o.recheckExposure(t.id),
      () => o.bindTransaction(attemptId, { tx_hash: TX.deposit, output_address: W.client }),
      () => o.getManualCheck(check.id),
      () => o.getManualCheckRisks(check.id),
      () => o.getManualCheckAddressExposure(check.id),
      () => o.getManualCheckTransferExposure(check.id),
      () => o.getAlert(alertId),
    ];
    for (const call of calls) {
      const error = (await rejection(call())) as KytHttpError;
      expect(error.status).toBe(404);
      expect(error.code).toBe("NOT_FOUND");
    }
    expect((await o.listTransfers()).total_items).toBe(0);
    expect((await o.listManualChecks()).total_items).toBe(0);
    expect((await o.listAlerts()).total_items).toBe(0);
    expect((await s.acme.getTransfer(attemptId)).tx_status).toBe("none");
    expect((await s.acme.getTransfer(t.id)).check_state.counterparty).toBe("checked");
  });
});

describe("limits", () => {
  it("a body over the limit is 413 and stores nothing, with or without Content-Length", async () => {
    const s = await serve({ http: { limits: { bodyBytes: 1024, ratePerKey: null } } });
    try {
      const body = JSON.stringify({ ...attempt, client_id: "x".repeat(2000) });
      const big = await rawRequest(s.server.url, {
        method: "POST",
        path: "/v1/transfers/register-attempt/",
        body,
      });
      expectError(big, 413, "PAYLOAD_TOO_LARGE");
      const chunks = new TextEncoder().encode(body);
      const timestamp = String(Date.now());
      const path = "/v1/transfers/register-attempt/";
      // Signed: an unsigned body is refused (401) before it is read, whatever its size.
      const signature = signRequest({ secret: KEYS.acme.secret, method: "POST", path, timestamp, body });
      const streamed = await fetch(`${s.server.url}${path}`, {
        method: "POST",
        headers: {
          "Content-Type": "application/json",
          "API-KEY-ID": KEYS.acme.keyId,
          "API-TIMESTAMP": timestamp,
          "API-SIGNATURE": signature,
        },
        body: new ReadableStream({
          start(controller) {
            controller.enqueue(chunks);
            controller.close();
          },
        }),
        duplex: "half",
      } as RequestInit);
      expect(streamed.status).toBe(413);
      expect(((await streamed.json()) as { code: string }).code).toBe("PAYLOAD_TOO_LARGE");
      expect((await s.acme.listTransfers()).total_items).toBe(0);
      const small = await rawRequest(s.server.url, {
        method: "POST",
        path: "/v1/transfers/register-attempt/",
        body: JSON.stringify(attempt),
      });
      expect(small.status).toBe(201);
    } finally {
      await s.close();
    }
  });

  it("the per-key rate limit answers 429 with Retry-After; another key is not affected", async () => {
    let now = Date.now();
    const clock = { now: () => now };
    const s = await serve({
      http: { clock, limits: { ratePerKey: { perSecond: 1, burst: 3 } } },
      clientClock: clock,
    });
    try {
      for (let i = 0; i < 3; i += 1) {
        now += 1;
        expect((await s.acme.listNetworks()).page).toBe(1);
      }
      now += 1;
      const limited = (await rejection(s.acme.listNetworks())) as KytHttpError;
      expect(limited).toMatchObject({ status: 429, code: "RATE_LIMITED", retryAfterSeconds: 1 });
      // A refused POST changes nothing and may be sent again, as is, once a token is back.
      const request = {
        method: "POST",
        path: "/v1/manual-checks/check-address/",
        body: JSON.stringify({ network: "ETH", address: W.exchange }),
        timestamp: String(now),
      };
      const refused = await rawRequest(s.server.url, request);
      expectError(refused, 429, "RATE_LIMITED");
      expect(refused.headers.get("retry-after")).toBe("1");
      expect((await s.other.listManualChecks()).total_items).toBe(0);
      now += 1_000;
      expect((await rawRequest(s.server.url, request)).status).toBe(200);
      now += 1_000;
      expect((await s.acme.listManualChecks()).total_items).toBe(1);
    } finally {
      await s.close();
    }
  });
});
