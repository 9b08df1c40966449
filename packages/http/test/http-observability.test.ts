import { W } from "@openkyt/testkit";
import { pino } from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ENDPOINTS } from "../src/index.js";
import { KEYS, rejection, type Served, serve } from "./http-harness.js";
import { rawRequest } from "./raw-request.js";

describe("request ids, logs, health, OpenAPI and unexpected failures", () => {
  let s: Served;
  const lines: string[] = [];
  beforeAll(async () => {
    const logger = pino({ level: "info" }, { write: (line: string) => lines.push(line) });
    s = await serve({ http: { logger } });
  });
  afterAll(async () => {
    await s.close();
  });

  it("keeps a client's request id of up to 128 letters, digits and . _ : - =, on answers of every kind", async () => {
    const idOf = async (id: string) =>
      (await s.acme.send("GET", "/v1/basics/networks/", { headers: { "X-Request-Id": id } })).headers.get(
        "x-request-id",
      );
    for (const kept of ["svc.api:42", "a_b-c", "YWJj=", "x".repeat(128)]) expect(await idOf(kept)).toBe(kept);
    for (const refused of ["x".repeat(129), "a/b", "a b", "é", "<script>", "a,b"]) {
      const answered = await idOf(refused);
      expect(answered, refused).toMatch(/^[0-9a-f-]{36}$/);
    }
    // A 404 (no route), a 405 and a refused request carry the id too.
    const noRoute = await fetch(`${s.server.url}/v1/nothing/`, { headers: { "X-Request-Id": "on-404" } });
    expect([noRoute.status, noRoute.headers.get("x-request-id")]).toEqual([404, "on-404"]);
    const wrongMethod = await fetch(`${s.server.url}/v1/basics/networks/`, {
      method: "DELETE",
      headers: { "X-Request-Id": "on-405" },
    });
    expect([wrongMethod.status, wrongMethod.headers.get("x-request-id")]).toEqual([405, "on-405"]);
    const refused = await rawRequest(s.server.url, {
      method: "GET",
      path: "/v1/transfers/",
      keyId: "nobody-key-0000",
      headers: { "X-Request-Id": "on-401" },
    });
    expect([refused.status, refused.headers.get("x-request-id")]).toEqual([401, "on-401"]);
  });

  it("echoes a client's X-Request-Id, generates one otherwise, and logs one line per request with it", async () => {
    const echoed = await s.acme.send("GET", "/v1/basics/networks/", {
      headers: { "X-Request-Id": "trace-42" },
    });
    expect(echoed.headers.get("x-request-id")).toBe("trace-42");
    const generated = await s.acme.send("GET", "/v1/basics/networks/");
    expect(generated.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
    const junk = await s.acme.send("GET", "/v1/basics/networks/", {
      headers: { "X-Request-Id": "bad id\twith tab" },
    });
    expect(junk.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
    await s.acme.checkAddress({ network: "ETH", address: W.exchange });
    await rawRequest(s.server.url, { method: "GET", path: "/v1/transfers/", keyId: "nobody-key-0000" });
    const parsed = lines.map((l) => JSON.parse(l));
    const traced = parsed.find((l) => l.requestId === "trace-42" && l.msg === "request");
    expect(traced).toMatchObject({
      method: "GET",
      path: "/v1/basics/networks/",
      status: 200,
      keyId: KEYS.acme.keyId,
      account: "acme",
    });
    expect(parsed.some((l) => l.msg === "authentication refused" && l.keyId === "nobody-key-0000")).toBe(
      true,
    );
    const all = lines.join("\n");
    expect(all).not.toContain(KEYS.acme.secret);
    expect(all.toLowerCase()).not.toContain("api-signature");
  });

  it("serves /healthz and /v1/openapi.json without authentication", async () => {
    const health = await fetch(`${s.server.url}/healthz`);
    expect(health.status).toBe(200);
    expect(await health.json()).toEqual({ status: "ok" });
    // biome-ignore lint/suspicious/noExplicitAny: reading a JSON document
    const doc: any = await (await fetch(`${s.server.url}/v1/openapi.json`)).json();
    expect(doc.openapi).toBe("3.1.0");
    for (const e of ENDPOINTS)
      expect(doc.paths[e.path]?.[e.method.toLowerCase()]?.operationId).toBe(e.operationId);
    const register = doc.paths["/v1/transfers/register/"].post;
    const body = register.requestBody.content["application/json"].schema;
    expect(body.additionalProperties).toBe(false);
    expect(body.required).toEqual(
      expect.arrayContaining(["direction", "network", "tx_hash", "output_address"]),
    );
    expect(Object.keys(body.properties)).toContain("force_recheck");
    expect(register.responses["201"].content["application/json"].schema.properties.check_state).toBeDefined();
    expect(register.responses["401"].content["application/json"].schema.$ref).toBe(
      "#/components/schemas/ErrorBody",
    );
    const list = doc.paths["/v1/transfers/"].get;
    expect(list.parameters.map((p: { name: string }) => p.name)).toEqual(
      expect.arrayContaining(["page", "page_size", "registered_from", "counterparty_category"]),
    );
    expect(
      doc.paths["/v1/transfers/{id}/pdf-report/"].get.responses["200"].content["application/pdf"],
    ).toBeDefined();
    expect(doc.components.securitySchemes.ApiSignature.name).toBe("API-SIGNATURE");
  });

  it("an unexpected failure is a generic 500 naming the request id, with the error logged", async () => {
    lines.length = 0;
    await s.h.store.close();
    const error = await rejection(s.acme.listTransfers());
    expect(error).toMatchObject({ status: 500, code: "INTERNAL_ERROR" });
    const { detail, requestId } = error as { detail: string; requestId: string };
    expect(detail).toBe(`internal error (request id ${requestId})`);
    const logged = lines.map((l) => JSON.parse(l)).find((l) => l.msg === "request failed");
    expect(logged?.requestId).toBe(requestId);
    expect(logged?.err).toBeDefined();
  });
});
