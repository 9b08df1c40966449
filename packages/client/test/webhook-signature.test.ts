import { createHmac } from "node:crypto";
import { describe, expect, it } from "vitest";
import {
  createKytClient,
  KytHttpError,
  signRequest,
  verifyWebhookSignature,
  WEBHOOK_TOLERANCE_MS,
} from "../src/index.js";

const secret = "whsec_test_0123456789";
const t = 1_713_449_845_309;
const body = '{"id":"e1","type":"alert.updated","created_at":"2024-04-18T14:17:25.309Z","data":{"n":"é"}}';
/** The header as the server computes it, written out independently of the helper. */
const header = (s = secret, ts = t, b = body) =>
  `t=${ts},v1=${createHmac("sha256", s).update(`${ts}.${b}`).digest("hex")}`;

describe("verifyWebhookSignature", () => {
  it("accepts the server's header over the raw body, as text or bytes", () => {
    expect(verifyWebhookSignature(secret, header(), body, { now: t + 1_000 })).toEqual({
      ok: true,
      timestamp: t,
    });
    expect(verifyWebhookSignature(secret, header(), Buffer.from(body, "utf8"), { now: t })).toMatchObject({
      ok: true,
    });
    // A second v1 (e.g. while rotating) is accepted when either matches; spaces are tolerated.
    const rotated = `t=${t}, v1=${"0".repeat(64)}, v1=${header().split("v1=")[1]}`;
    expect(verifyWebhookSignature(secret, rotated, body, { now: t })).toMatchObject({ ok: true });
  });

  it("refuses a wrong secret, a changed body, a re-serialised body and a changed timestamp", () => {
    expect(verifyWebhookSignature("whsec_other", header(), body, { now: t })).toEqual({
      ok: false,
      reason: "signature mismatch",
    });
    expect(verifyWebhookSignature(secret, header(), body.replace("e1", "e2"), { now: t }).ok).toBe(false);
    expect(
      verifyWebhookSignature(secret, header(), JSON.stringify(JSON.parse(body), null, 1), { now: t }).ok,
    ).toBe(false);
    const moved = header().replace(`t=${t}`, `t=${t + 1}`);
    expect(verifyWebhookSignature(secret, moved, body, { now: t }).ok).toBe(false);
  });

  it("refuses stale and future timestamps outside the tolerance (default 5 minutes)", () => {
    expect(verifyWebhookSignature(secret, header(), body, { now: t + WEBHOOK_TOLERANCE_MS }).ok).toBe(true);
    expect(verifyWebhookSignature(secret, header(), body, { now: t + WEBHOOK_TOLERANCE_MS + 1 })).toEqual({
      ok: false,
      reason: "timestamp outside the tolerance",
    });
    expect(verifyWebhookSignature(secret, header(), body, { now: t - 2_000, toleranceMs: 1_000 }).ok).toBe(
      false,
    );
    expect(verifyWebhookSignature(secret, header(), body, { now: t - 500, toleranceMs: 1_000 }).ok).toBe(
      true,
    );
  });

  it("refuses malformed headers without throwing", () => {
    for (const bad of [
      undefined,
      null,
      "",
      "v1=abc",
      `t=soon,v1=${"a".repeat(64)}`,
      `t=${t}`,
      `t=${t},v1=zz`,
    ]) {
      expect(verifyWebhookSignature(secret, bad, body, { now: t }).ok, String(bad)).toBe(false);
    }
  });
});

describe("the additions' requests", () => {
  it("send wait in the signed query, PATCH and DELETE with their bodies, and read `allowed` from a 409", async () => {
    const sent: Array<{ url: string; init: RequestInit }> = [];
    const client = createKytClient({
      baseUrl: "http://127.0.0.1:9",
      keyId: "key-000001",
      secret: "s".repeat(20),
      clock: { now: () => 1_000 },
      fetch: async (url, init) => {
        sent.push({ url, init });
        if (init.method === "PATCH") {
          return new Response(
            JSON.stringify({
              detail: "no",
              code: "ILLEGAL_TRANSITION",
              errors: { alert_status: ["no"] },
              allowed: ["in_progress"],
            }),
            { status: 409 },
          );
        }
        return new Response("{}", { status: 200 });
      },
    });
    await client.checkAddress({ network: "ETH", address: "0x00" }, { wait: 2.5 });
    await client.registerTransfer(
      { direction: "incoming", network: "ETH", tx_hash: "0x00", output_address: "0x01" },
      {},
    );
    await client.deleteRiskModel("m/1");
    const refused = await client.updateAlert("a1", { alert_status: "done" }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(KytHttpError);
    expect(refused).toMatchObject({ status: 409, code: "ILLEGAL_TRANSITION", allowed: ["in_progress"] });
    expect(sent.map((s) => `${s.init.method} ${s.url}`)).toEqual([
      "POST http://127.0.0.1:9/v1/manual-checks/check-address/?wait=2.5",
      "POST http://127.0.0.1:9/v1/transfers/register/",
      "DELETE http://127.0.0.1:9/v1/risk-models/m%2F1/",
      "PATCH http://127.0.0.1:9/v1/alerts/a1/",
    ]);
    const first = sent[0] ?? expect.fail("nothing sent");
    expect((first.init.headers as Record<string, string>)["API-SIGNATURE"]).toBe(
      signRequest({
        secret: "s".repeat(20),
        method: "POST",
        path: "/v1/manual-checks/check-address/?wait=2.5",
        timestamp: 1_000,
        body: first.init.body as string,
      }),
    );
    expect(sent[3]?.init.body).toBe('{"alert_status":"done"}');
  });
});
