import { alertListQuerySchema, tokenListQuerySchema, transferListQuerySchema } from "@openkyt/core";
import { describe, expect, it } from "vitest";
import {
  ALERT_FILTERS,
  createKytClient,
  eachItem,
  KytHttpError,
  KytWaitTimeoutError,
  pollUntil,
  requestTarget,
  signRequest,
  stringToSign,
  TOKEN_FILTERS,
  TRANSFER_FILTERS,
} from "../src/index.js";

describe("signing", () => {
  it("computes the interface's published example", () => {
    expect(
      signRequest({
        secret: "CXOlYKZgeSM3TpIyPwjSM84Ews2hARKi2m1MlLpnbI7UrF5bqtB2WQ3nW6Qh4vSJ",
        method: "POST",
        path: "/v1/transfers/register/",
        timestamp: 1713449845309,
        body: '{"client_id":null,"direction":"incoming","network":"ETH","tx_hash":"0x28138cd586826bbad08d1d0e64b566795b5907790ad30ebb0722948c2ba21d09","token_id":"usdt","output_address":"0x016606acc6b0cfe537acc221e3bf1bb44b4049ee"}',
      }),
    ).toBe("2dJYm8qkR8fCO3s7ZsSVBo1xKpLgx/eYAkewE82pyIs=");
    expect(
      signRequest({
        secret: "secret",
        method: "GET",
        path: "/v1/manual-checks/42/",
        timestamp: "1713449845309",
      }),
    ).toBe("ruDQnT7jwsC3LoHUQGPTiAlQzTDK1QXobL7lMG1SDZw=");
  });

  it("appends no body line when there is no body", () => {
    expect(stringToSign({ method: "GET", path: "/v1/x/", timestamp: 1 })).toBe("GET\n/v1/x/\n1");
    expect(stringToSign({ method: "POST", path: "/v1/x/", timestamp: 1, body: "" })).toBe("POST\n/v1/x/\n1");
    expect(stringToSign({ method: "POST", path: "/v1/x/", timestamp: 1, body: "{}" })).toBe(
      "POST\n/v1/x/\n1\n{}",
    );
  });
});

describe("request targets", () => {
  it("keeps the query in the order given, drops undefined and null, keeps a base path prefix", () => {
    expect(
      requestTarget("http://h:1", "/v1/transfers/", {
        page: 2,
        client_id: undefined,
        network: "ETH",
        x: null,
      }),
    ).toBe("/v1/transfers/?page=2&network=ETH");
    expect(requestTarget("http://h:1/kyt/", "/v1/alerts/", {})).toBe("/kyt/v1/alerts/");
    expect(requestTarget("http://h", "/v1/transfers/", { occurred_from: "2024-01-01T00:00:00+01:00" })).toBe(
      "/v1/transfers/?occurred_from=2024-01-01T00%3A00%3A00%2B01%3A00",
    );
  });
});

describe("typed queries", () => {
  const serverNames = (schema: { toJSONSchema(p: { io: "input" }): unknown }) =>
    Object.keys((schema.toJSONSchema({ io: "input" }) as { properties: object }).properties)
      .filter((k) => k !== "page" && k !== "page_size")
      .sort();

  it("name exactly the server's list filters", () => {
    expect([...TRANSFER_FILTERS].sort()).toEqual(serverNames(transferListQuerySchema));
    expect([...ALERT_FILTERS].sort()).toEqual(serverNames(alertListQuerySchema));
    expect([...TOKEN_FILTERS].sort()).toEqual(serverNames(tokenListQuerySchema));
  });
});

describe("errors", () => {
  it("turn an error answer into a KytHttpError with code, detail, field errors and Retry-After", async () => {
    const sent: Array<{ url: string; init: RequestInit }> = [];
    const client = createKytClient({
      baseUrl: "http://127.0.0.1:9",
      keyId: "key-000001",
      secret: "s".repeat(20),
      clock: { now: () => 1_000 },
      fetch: async (url, init) => {
        sent.push({ url, init });
        return new Response(
          JSON.stringify({ detail: "slow down", code: "RATE_LIMITED", errors: { a: ["b"] } }),
          {
            status: 429,
            headers: { "Retry-After": "3", "X-Request-Id": "r-1" },
          },
        );
      },
    });
    const error = await client.checkAddress({ network: "ETH", address: "0x00" }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(KytHttpError);
    expect(error).toMatchObject({
      status: 429,
      code: "RATE_LIMITED",
      detail: "slow down",
      errors: { a: ["b"] },
      requestId: "r-1",
      retryAfterSeconds: 3,
    });
    const { url, init } = sent[0] ?? expect.fail("nothing sent");
    expect(url).toBe("http://127.0.0.1:9/v1/manual-checks/check-address/");
    const headers = init.headers as Record<string, string>;
    expect(init.body).toBe('{"network":"ETH","address":"0x00"}');
    expect(headers["API-SIGNATURE"]).toBe(
      signRequest({
        secret: "s".repeat(20),
        method: "POST",
        path: "/v1/manual-checks/check-address/",
        timestamp: 1_000,
        body: init.body as string,
      }),
    );
    expect(headers["Content-Type"]).toBe("application/json");
  });

  it("keep the status when the answer has no JSON body", async () => {
    const client = createKytClient({
      baseUrl: "http://127.0.0.1:9",
      keyId: "key-000001",
      secret: "s".repeat(20),
      fetch: async () => new Response("Bad Gateway", { status: 502 }),
    });
    expect(await client.listAlerts().catch((e: unknown) => e)).toMatchObject({
      status: 502,
      code: "HTTP_502",
    });
  });
});

describe("helpers", () => {
  it("eachItem walks every page and stops at a short page", async () => {
    const items = Array.from({ length: 7 }, (_, i) => i);
    const asked: number[] = [];
    const list = async (q: { page?: number; page_size?: number }) => {
      const page = q.page ?? 1;
      const size = q.page_size ?? 20;
      asked.push(page);
      return {
        page,
        page_size: size,
        total_items: items.length,
        total_pages: Math.ceil(items.length / size),
        items: items.slice((page - 1) * size, page * size),
      };
    };
    const seen: number[] = [];
    for await (const item of eachItem(list, { page_size: 3 })) seen.push(item);
    expect(seen).toEqual(items);
    expect(asked).toEqual([1, 2, 3]);
  });

  it("pollUntil returns once done, or throws KytWaitTimeoutError with the last value", async () => {
    let n = 0;
    expect(
      await pollUntil(
        "n",
        async () => ++n,
        (v) => v >= 3,
        { intervalMs: 1 },
      ),
    ).toBe(3);
    const error = await pollUntil(
      "never",
      async () => "busy",
      () => false,
      { timeoutMs: 20, intervalMs: 5 },
    ).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(KytWaitTimeoutError);
    expect((error as KytWaitTimeoutError<string>).last).toBe("busy");
  });
});
