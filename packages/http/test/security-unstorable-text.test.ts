/**
 * Strings no store can hold (NUL) or that are no text (an unpaired surrogate) are refused at the
 * validation layer on every store: 400 VALIDATION_ERROR naming the field for every string of
 * every body and query, 404 for a path id, and never a 5xx. Overlong UTF-8 (C0 80 for NUL) is
 * refused as not UTF-8, never decoded; header values with NUL are refused by Node's parser.
 * Run on SQLite and on Postgres (which answered 500 `invalid byte sequence for encoding "UTF8"`).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { placed, stringLeaves } from "../../core/test/schemas/schema-strings.js";
import { withTestPostgres } from "../../store-postgres/test/pg-test-suite.js";
import { ENDPOINTS, type Endpoint, type HttpServer, serveHttp } from "../src/index.js";
import {
  type AccountData,
  createSecurityWorld,
  type HandRequest,
  type SecurityWorld,
  SQLITE_WORLD_STORE,
  type WorldStore,
} from "./security-fixture.js";
import { requestBytes, wireExchange } from "./security-wire.js";

const NUL = "must not contain NUL (U+0000)";
const SURROGATE = "must not contain an unpaired UTF-16 surrogate (not well-formed Unicode)";

/** An own id for an endpoint's `{id}`. */
function ownId(endpoint: Endpoint, d: AccountData): string {
  const p = endpoint.path;
  if (p.includes("bind-transaction")) return d.openAttemptId;
  if (p.startsWith("/v1/manual-checks/")) return d.checkIds[0] as string;
  if (p.startsWith("/v1/alerts/")) return d.alertIds[0] as string;
  if (p.startsWith("/v1/risk-models/")) return d.riskModelId;
  if (p.startsWith("/v1/webhooks/")) return d.webhookId;
  return d.transferIds[0] as string;
}

/** The reproductions: each answered 500 on Postgres. */
function reproductions(
  d: AccountData,
): { what: string; request: HandRequest; status: number; field?: string }[] {
  const post = (target: string, body: unknown, field: string) => ({
    what: `${target} ${field}`,
    request: { method: "POST", target, body: JSON.stringify(body) },
    status: 400,
    field,
  });
  const attempt = { direction: "incoming", network: "ETH", input_address: `0x${"33".repeat(20)}` };
  const register = { direction: "incoming", network: "ETH", tx_hash: `0x${"ab".repeat(32)}` };
  return [
    post(
      "/v1/transfers/register/",
      { ...register, output_address: d.address, client_id: "a\0" },
      "client_id",
    ),
    post("/v1/transfers/register-attempt/", { ...attempt, attempt_id: "\0" }, "attempt_id"),
    post("/v1/transfers/register-attempt/", { ...attempt, client_id: "x\uD800" }, "client_id"),
    post("/v1/transfers/register-attempt/", { ...attempt, risk_model: "\0" }, "risk_model"),
    post("/v1/risk-models/", { name: "n\0", copy_from: "default" }, "name"),
    post("/v1/webhooks/", { url: "https://hooks.example/\0", events: ["alert.created"] }, "url"),
    post("/v1/alerts/bulk-update/", { ids: [d.alertIds[0], "\0"], alert_status: "done" }, "ids.1"),
    ...["transfers", "alerts", "webhooks", "risk-models", "manual-checks"].map((kind) => ({
      what: `/v1/${kind}/%00/`,
      request: { method: "GET", target: `/v1/${kind}/%00/` },
      status: 404,
    })),
    ...["client_id", "counterparty_name"].map((field) => ({
      what: `?${field}=%00`,
      request: { method: "GET", target: `/v1/transfers/?${field}=%00` },
      status: 400,
      field,
    })),
  ];
}

function suite(backing: WorldStore) {
  let world: SecurityWorld;
  let tick = 0;
  // Distinct timestamps: two identical requests in one millisecond would be a replay.
  const send = (r: HandRequest) => world.send({ ...r, timestamp: String(Date.now() - (tick++ % 1000)) });
  const json = async (r: HandRequest) => {
    const response = await send(r);
    const text = await response.text();
    return {
      status: response.status,
      body: JSON.parse(text) as { code: string; errors: Record<string, string[]> },
    };
  };

  beforeAll(async () => {
    world = await createSecurityWorld({}, backing);
  }, 120_000);
  afterAll(async () => {
    await world?.close();
  });

  it("the issue's reproductions: 400 naming the field, or 404 for a path id", async () => {
    for (const { what, request, status, field } of reproductions(world.data.acme)) {
      const answer = await json(request);
      expect(answer.status, what).toBe(status);
      expect(answer.body.code, what).toBe(status === 400 ? "VALIDATION_ERROR" : "NOT_FOUND");
      if (field) expect(Object.keys(answer.body.errors), what).toContain(field);
    }
  });

  it("a batch registration answers each item with a NUL or a lone surrogate 400 naming the field, stores the rest", async () => {
    const item = (n: number, extra: object) => ({
      direction: "incoming",
      network: "ETH",
      tx_hash: `0x${n.toString(16).padStart(64, "e")}`,
      output_address: world.data.acme.address,
      ...extra,
    });
    const transfers = [
      item(1, { client_id: "a\0" }),
      item(2, { risk_model: "\uD800" }),
      item(3, { client_id: "ok" }),
    ];
    const response = await send({
      method: "POST",
      target: "/v1/transfers/register-batch/",
      body: JSON.stringify({ transfers }),
    });
    expect(response.status).toBe(200);
    const { items } = (await response.json()) as {
      items: { status: number; error?: { code: string; errors: Record<string, string[]> } }[];
    };
    expect(items.map((i) => i.status)).toEqual([400, 400, 201]);
    expect(items[0]?.error?.errors.client_id).toEqual([NUL]);
    expect(items[1]?.error?.errors.risk_model).toEqual([SURROGATE]);
  });

  it("every string of every body: NUL and unpaired surrogates are 400 naming the field", async () => {
    let checked = 0;
    // The batch answers 200 with each item's own status: the test above.
    for (const endpoint of ENDPOINTS.filter((e) => e.body && !e.path.includes("register-batch"))) {
      const target = endpoint.path.replace("{id}", ownId(endpoint, world.data.acme));
      for (const leaf of stringLeaves(endpoint.body as z.ZodType)) {
        // A risk model body names a rule's fields as its checks do: rules[3].rule_type.
        const field = leaf.path.join(".").replace(/^rules\.(\d+)(?=\.|$)/, "rules[$1]");
        for (const [value, message] of [
          ["ok\0", NUL],
          ["\uD800ok", SURROGATE],
          ["ok\uDFFF", SURROGATE],
        ] as const) {
          const what = `${endpoint.method} ${endpoint.path} ${field}=${JSON.stringify(value)}`;
          const answer = await json({
            method: endpoint.method,
            target,
            body: JSON.stringify(placed(leaf.path, value)),
          });
          expect(answer.status, what).toBe(400);
          expect(answer.body.code, what).toBe("VALIDATION_ERROR");
          expect(answer.body.errors[field], what).toBeDefined();
          if (!leaf.enumerated) expect(answer.body.errors[field], what).toContain(message);
          checked += 1;
        }
      }
    }
    expect(checked).toBeGreaterThan(60);
  });

  it("every query parameter of every list: a NUL is 400 naming the parameter", async () => {
    let checked = 0;
    for (const endpoint of ENDPOINTS.filter((e) => e.query && e.method === "GET")) {
      const names = Object.keys(
        (
          z.toJSONSchema(endpoint.query as z.ZodType, { io: "input", unrepresentable: "any" }) as {
            properties?: Record<string, unknown>;
          }
        ).properties ?? {},
      );
      for (const name of names) {
        for (const value of ["%00", "a%00", "1%00", "2024-01-01%00"]) {
          const path = endpoint.path.replace("{id}", ownId(endpoint, world.data.acme));
          const answer = await json({ method: "GET", target: `${path}?${name}=${value}` });
          expect(answer.status, `${endpoint.path}?${name}=${value}`).toBe(400);
          expect(Object.keys(answer.body.errors)).toContain(name);
          checked += 1;
        }
      }
    }
    expect(checked).toBeGreaterThan(80);
  });

  it("every path id: a NUL (alone or inside a real id) is 404, never 5xx", async () => {
    for (const endpoint of ENDPOINTS.filter((e) => e.path.includes("{id}"))) {
      const id = ownId(endpoint, world.data.acme);
      for (const bad of ["%00", `${id}%00`, `%00${id}`, `${id.slice(0, 4)}%00${id.slice(4)}`]) {
        const target = endpoint.path.replace("{id}", bad);
        const body = endpoint.body ? JSON.stringify({}) : undefined;
        const answer = await json({ method: endpoint.method, target, ...(body ? { body } : {}) });
        expect(answer.status, `${endpoint.method} ${target}`).toBe(404);
        expect(answer.body.code).toBe("NOT_FOUND");
      }
    }
  });

  it("percent-escapes that are not UTF-8 (overlong NUL, a surrogate's bytes) never become NUL", async () => {
    for (const bytes of ["%C0%80", "%E0%80%80", "%ED%A0%80"]) {
      // In a path: kept as written by the router, so an unknown id.
      const byId = await json({ method: "GET", target: `/v1/transfers/${bytes}/` });
      expect(byId.status, bytes).toBe(404);
      // In a query: decoded as U+FFFD by the URL rules, which is text; an empty page.
      const byQuery = await send({ method: "GET", target: `/v1/transfers/?client_id=${bytes}` });
      expect(byQuery.status, bytes).toBe(200);
      expect(((await byQuery.json()) as { total_items: number }).total_items).toBe(0);
    }
  });

  it("overlong UTF-8 and raw NUL bytes inside a body string are refused as malformed, not decoded", async () => {
    const encoder = new TextEncoder();
    const valid = `{"direction":"incoming","network":"ETH","input_address":"0x${"33".repeat(20)}","attempt_id":"`;
    for (const bytes of [
      [0xc0, 0x80],
      [0xe0, 0x80, 0x80],
      [0xf0, 0x80, 0x80, 0x80],
      [0xed, 0xa0, 0x80],
      [0x00],
    ]) {
      const body = new Uint8Array([...encoder.encode(valid), ...bytes, ...encoder.encode('"}')]);
      const answer = await json({ method: "POST", target: "/v1/transfers/register-attempt/", body });
      expect(answer.status, bytes.join(",")).toBe(400);
      expect(answer.body.code).toBe("VALIDATION_ERROR");
      expect(answer.body.errors.non_field_errors?.[0]).toMatch(/not valid UTF-8|not valid JSON/);
    }
    // The attempt was never made: no transfer holds a NUL.
    const list = await send({ method: "GET", target: "/v1/transfers/?page_size=100" });
    const { items } = (await list.json()) as { items: { attempt_id: string | null }[] };
    expect(items.length).toBeGreaterThan(0);
    for (const t of items) expect(t.attempt_id ?? "").not.toContain("\0");
  });

  describe("over a real socket", () => {
    let server: HttpServer;
    beforeAll(async () => {
      server = await serveHttp(world.app, { port: 0 });
    });
    afterAll(async () => {
      await server?.close();
    });

    it("header values: NUL is refused by Node's parser (400), other bytes reach the app as text (401)", async () => {
      const port = Number(new URL(server.url).port);
      const exchange = (name: string, value: string) =>
        wireExchange(port, [
          Buffer.from(
            requestBytes("GET", "/v1/transfers/", [
              ["API-KEY-ID", name === "API-KEY-ID" ? value : "key"],
              ["API-TIMESTAMP", String(Date.now())],
              ["API-SIGNATURE", "x"],
              ...(name === "API-KEY-ID" ? [] : [[name, value] as const]),
            ]),
            "latin1",
          ),
        ]);
      for (const name of ["API-KEY-ID", "X-Request-Id", "API-TIMESTAMP"]) {
        expect((await exchange(name, "a\0b")).status, name).toBe(400);
      }
      for (const value of ["\xc0\x80", "\xed\xa0\x80", "caf\xe9"]) {
        const answer = await exchange("API-KEY-ID", value);
        expect(answer.status, JSON.stringify(value)).toBe(401);
      }
    });
  });
}

describe("unstorable strings on SQLite", () => suite(SQLITE_WORLD_STORE));

await withTestPostgres("unstorable strings on Postgres", ({ stores }) => {
  describe("unstorable strings on Postgres", () =>
    suite({ name: "postgres", create: () => stores.createStore(), destroy: (s) => stores.destroyStore(s) }));
});
