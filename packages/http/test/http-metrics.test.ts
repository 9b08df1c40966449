/**
 * /metrics, /readyz and the request observer of a real server: after a known sequence of
 * requests the counters are exact, by route template (never the id in the path), method,
 * status, refusal reason and limit; the exposition parses strictly.
 */
import { createMetrics, exposition, httpRequestCounter } from "@openkyt/metrics";
import { afterEach, describe, expect, it } from "vitest";
import { parsePrometheusText, promValue } from "../../testkit/src/prometheus-text.js";
import { createOpsApp, createReadiness, type OpsOptions, serveHttp } from "../src/index.js";
import { KEYS, type Served, serve } from "./http-harness.js";
import { rawRequest } from "./raw-request.js";

let served: Served | null = null;
afterEach(async () => {
  await served?.close();
  served = null;
});

function opsOf(metrics: ReturnType<typeof createMetrics>): OpsOptions {
  const readiness = createReadiness({ steps: [] });
  return { readiness, observe: httpRequestCounter(metrics), metrics: () => exposition(metrics) };
}

async function scrape(url: string) {
  const response = await fetch(`${url}/metrics`);
  expect(response.status).toBe(200);
  expect(response.headers.get("content-type")).toMatch(/^text\/plain; version=0\.0\.4/);
  return parsePrometheusText(await response.text());
}

describe("request metrics", () => {
  it("count a known sequence of requests exactly, by template, method, status and reason", async () => {
    const metrics = createMetrics({ processMetrics: false });
    served = await serve({ http: { ops: opsOf(metrics) } });
    const { acme, server } = served;
    const url = server.url;
    await acme.listTransfers();
    await acme.listTransfers();
    const body = JSON.stringify({
      direction: "incoming",
      network: "ETH",
      tx_hash: `0x${"ab".repeat(32)}`,
      output_address: `0x${"cd".repeat(20)}`,
    });
    const timestamp = String(Date.now());
    const register = { method: "POST", path: "/v1/transfers/register/", body, timestamp };
    const created = await rawRequest(url, register);
    expect(created.status).toBe(201);
    expect((await rawRequest(url, register)).status).toBe(401); // replay
    const id = created.json.id as string;
    expect((await rawRequest(url, { method: "GET", path: `/v1/transfers/${id}/` })).status).toBe(200);
    expect((await rawRequest(url, { method: "GET", path: "/v1/transfers/no-such-id/" })).status).toBe(404);
    expect((await fetch(`${url}/v1/transfers/${id}/`)).status).toBe(401); // no headers
    expect(
      (
        await rawRequest(url, {
          method: "GET",
          path: "/v1/transfers/",
          signed: { secret: "wrong-secret-0123456789" },
        })
      ).status,
    ).toBe(401);
    expect((await rawRequest(url, { method: "GET", path: "/v1/transfers/", timestamp: "1000" })).status).toBe(
      401,
    );
    expect((await rawRequest(url, { method: "GET", path: "/v1/transfers/", timestamp: "soon" })).status).toBe(
      401,
    );
    expect((await fetch(`${url}/no/such/path/0x${"ab".repeat(20)}`)).status).toBe(404);
    expect((await fetch(`${url}/v1/transfers/register/`, { method: "DELETE" })).status).toBe(405);
    expect((await fetch(`${url}/healthz`)).status).toBe(200);
    expect((await fetch(`${url}/readyz`)).status).toBe(200);

    const m = await scrape(url);
    const requests = (route: string, method: string, status: number) =>
      promValue(m, "openkyt_http_requests_total", { route, method, status: String(status) });
    expect(requests("/v1/transfers/", "GET", 200)).toBe(2);
    expect(requests("/v1/transfers/register/", "POST", 201)).toBe(1);
    expect(requests("/v1/transfers/register/", "POST", 401)).toBe(1);
    expect(requests("/v1/transfers/{id}/", "GET", 200)).toBe(1);
    expect(requests("/v1/transfers/{id}/", "GET", 404)).toBe(1);
    expect(requests("/v1/transfers/{id}/", "GET", 401)).toBe(1);
    expect(requests("/v1/transfers/", "GET", 401)).toBe(3);
    expect(requests("unmatched", "GET", 404)).toBe(1);
    expect(requests("/v1/transfers/register/", "DELETE", 405)).toBe(1);
    expect(requests("/healthz", "GET", 200)).toBe(1);
    expect(requests("/readyz", "GET", 200)).toBe(1);
    const total = m.get("openkyt_http_requests_total")?.samples.reduce((sum, s) => sum + s.value, 0);
    expect(total).toBe(14);
    expect(
      promValue(m, "openkyt_http_request_duration_seconds_count", { route: "/v1/transfers/", method: "GET" }),
    ).toBe(5);
    const reasons = Object.fromEntries(
      (m.get("openkyt_http_auth_refusals_total")?.samples ?? []).map((s) => [s.labels.reason, s.value]),
    );
    expect(reasons).toEqual({
      replay: 1,
      missing_headers: 1,
      bad_signature: 1,
      timestamp_window: 1,
      bad_timestamp: 1,
    });
    // No id, hash or address became a label value.
    const values = [...m.values()].flatMap((f) => f.samples.flatMap((s) => Object.values(s.labels)));
    expect(values.filter((v) => v.includes(id) || /0x[0-9a-f]{8}/i.test(v) || v.includes("no-such"))).toEqual(
      [],
    );
  });

  it("count refusals by the limit that refused them", async () => {
    const metrics = createMetrics({ processMetrics: false });
    served = await serve({
      http: {
        ops: opsOf(metrics),
        limits: { ratePerKey: { perSecond: 0.001, burst: 2 }, failedAuth: { perSecond: 0.001, burst: 1 } },
      },
    });
    const { acme, server } = served;
    await acme.listTransfers();
    await acme.listTransfers();
    expect(await acme.listTransfers().catch((e) => e.status)).toBe(429);
    // A bad key spends the budget of failed authentications: 401, then 429.
    const bad = {
      method: "GET",
      path: "/v1/transfers/",
      keyId: "nobody-0001",
      signed: { secret: KEYS.other.secret },
    };
    expect((await rawRequest(server.url, bad)).status).toBe(401);
    expect((await rawRequest(server.url, bad)).status).toBe(429);
    const m = await scrape(server.url);
    expect(promValue(m, "openkyt_http_rate_limited_total", { limit: "requests" })).toBe(1);
    expect(promValue(m, "openkyt_http_rate_limited_total", { limit: "failed_auth" })).toBe(1);
    expect(promValue(m, "openkyt_http_requests_total", { route: "/v1/transfers/", status: "429" })).toBe(2);
  });
});

describe("readiness", () => {
  it("answers 503 until every step is done, 200 while the store answers, 503 once draining", async () => {
    let storeUp = true;
    const readiness = createReadiness({
      steps: ["store", "warm_sources"],
      probe: async () => {
        if (!storeUp) throw new Error("connection refused");
      },
      probeCacheMs: 0,
    });
    const server = await serveHttp(createOpsApp({ readiness, starting: true }), { port: 0 });
    try {
      const ready = async () => {
        const response = await fetch(`${server.url}/readyz`);
        return { status: response.status, body: (await response.json()) as { waiting?: string[] } };
      };
      expect(await ready()).toEqual({
        status: 503,
        body: { ready: false, status: "starting", waiting: ["store", "warm_sources"] },
      });
      readiness.done("store");
      expect((await ready()).body.waiting).toEqual(["warm_sources"]);
      const starting = await fetch(`${server.url}/v1/transfers/`);
      expect(starting.status).toBe(503);
      expect(starting.headers.get("retry-after")).toBe("1");
      expect(((await starting.json()) as { code: string }).code).toBe("NOT_READY");
      readiness.done("warm_sources");
      expect(await ready()).toEqual({ status: 200, body: { ready: true, status: "ready" } });
      storeUp = false;
      expect(await ready()).toEqual({
        status: 503,
        body: { ready: false, status: "store_unreachable", detail: "the store failed: connection refused" },
      });
      storeUp = true;
      expect((await ready()).status).toBe(200);
      readiness.drain();
      expect(await ready()).toEqual({ status: 503, body: { ready: false, status: "draining" } });
      expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
      expect(() => readiness.done("nope")).toThrow(/unknown step/);
    } finally {
      await server.close();
    }
  });

  it("counts a store that does not answer in time as unreachable", async () => {
    const readiness = createReadiness({ steps: [], probe: () => new Promise(() => {}), probeTimeoutMs: 20 });
    expect(await readiness.check()).toEqual({
      ready: false,
      status: "store_unreachable",
      detail: "the store did not answer within 20 ms",
    });
  });
});
