/**
 * OpenTelemetry traces of `openkyt serve`, exported over OTLP/HTTP to a receiver in this test:
 * a server span per request (continuing the caller's traceparent), a span per job batch linked
 * to the requests its jobs came from, the job a request queued in that request's trace with its
 * chain lookup and store calls as children; and off unless the OTEL_* variables ask.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createEngine } from "@openkyt/core";
import { createSqliteStore } from "@openkyt/store-sqlite";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createKytClient } from "../../client/src/index.js";
import { loadWorld, TX, W } from "../../testkit/src/engine-world.js";
import { tracingConfigured } from "../src/otel-setup.js";
import { exited, firstLine, start } from "./cli-process.js";

const KEY = { keyId: "trace-key-0001", secret: "trace-secret-0123456789abcdef", account: "acme" };

interface OtlpSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  attributes: Array<{ key: string; value: { stringValue?: string; intValue?: string | number } }>;
  links?: Array<{ traceId: string; spanId: string }>;
}

/** An OTLP/HTTP receiver: every span posted to /v1/traces, and the resources' service names. */
async function receiver(): Promise<{
  server: Server;
  url: string;
  spans: OtlpSpan[];
  services: string[];
  types: string[];
}> {
  const spans: OtlpSpan[] = [];
  const services: string[] = [];
  const types: string[] = [];
  const server = createServer((req, res) => {
    let body = "";
    req.on("data", (chunk) => {
      body += chunk;
    });
    req.on("end", () => {
      types.push(`${req.method} ${req.url} ${req.headers["content-type"]}`);
      const parsed = JSON.parse(body) as {
        resourceSpans: Array<{
          resource: { attributes: OtlpSpan["attributes"] };
          scopeSpans: Array<{ spans: OtlpSpan[] }>;
        }>;
      };
      for (const rs of parsed.resourceSpans) {
        const name = rs.resource.attributes.find((a) => a.key === "service.name")?.value.stringValue;
        if (name) services.push(name);
        for (const ss of rs.scopeSpans) spans.push(...ss.spans);
      }
      res.writeHead(200, { "content-type": "application/json" });
      res.end("{}");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    server,
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    spans,
    services,
    types,
  };
}

const attr = (span: OtlpSpan, key: string) => {
  const value = span.attributes.find((a) => a.key === key)?.value;
  return value?.stringValue ?? (value?.intValue === undefined ? undefined : Number(value.intValue));
};

describe("traces", () => {
  let dir: string;
  let db: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "openkyt-traces-"));
    db = join(dir, "world.db");
    const store = await createSqliteStore({ filename: db });
    await loadWorld(createEngine({ store }));
    await store.close();
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it("are off unless the OTEL_* variables ask for an OTLP exporter", () => {
    expect(tracingConfigured({})).toBe(false);
    expect(tracingConfigured({ OTEL_SERVICE_NAME: "x" })).toBe(false);
    expect(tracingConfigured({ OTEL_EXPORTER_OTLP_ENDPOINT: "http://collector:4318" })).toBe(true);
    expect(tracingConfigured({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: "http://c:4318/v1/traces" })).toBe(true);
    expect(tracingConfigured({ OTEL_TRACES_EXPORTER: "otlp" })).toBe(true);
    expect(
      tracingConfigured({ OTEL_EXPORTER_OTLP_ENDPOINT: "http://c:4318", OTEL_TRACES_EXPORTER: "none" }),
    ).toBe(false);
    expect(
      tracingConfigured({ OTEL_EXPORTER_OTLP_ENDPOINT: "http://c:4318", OTEL_SDK_DISABLED: "true" }),
    ).toBe(false);
  });

  it("a request span continues the caller's trace; the job it queued joins it, with its chain lookup and store calls", {
    timeout: 60_000,
  }, async () => {
    const otlp = await receiver();
    let transferId = "";
    const server = start(["serve", "--db", db, "--port", "0", "--json"], {
      OPENKYT_API_KEYS: `${KEY.keyId}:${KEY.secret}:${KEY.account}`,
      OTEL_EXPORTER_OTLP_ENDPOINT: otlp.url,
      OTEL_SERVICE_NAME: "openkyt-under-test",
      OTEL_BSP_SCHEDULE_DELAY: "50",
    });
    try {
      const { url } = JSON.parse(await firstLine(server)) as { url: string };
      const client = createKytClient({ baseUrl: url, keyId: KEY.keyId, secret: KEY.secret });
      const answer = await client.send<{ id: string; tx_status: string }>("POST", "/v1/transfers/register/", {
        body: { direction: "incoming", network: "ETH", tx_hash: TX.deposit, output_address: W.client },
        query: { wait: 20 },
        headers: { "X-Request-Id": "traced-register-1" },
      });
      const registered = answer.body;
      expect(registered.tx_status).toBe("bound");
      transferId = registered.id;
      const traceId = "0af7651916cd43dd8448eb211c80319c";
      const parentId = "b7ad6b7169203331";
      const refused = await fetch(`${url}/v1/transfers/${registered.id}/`, {
        headers: { traceparent: `00-${traceId}-${parentId}-01` },
      });
      expect(refused.status).toBe(401);
      server.kill("SIGTERM");
      expect(await exited(server)).toBe(0);
    } finally {
      server.kill("SIGKILL");
      otlp.server.close();
    }
    const { spans } = otlp;
    expect(otlp.types.every((t) => t.startsWith("POST /v1/traces"))).toBe(true);
    expect(new Set(otlp.services)).toEqual(new Set(["openkyt-under-test"]));
    const childrenOf = (span: OtlpSpan) => spans.filter((s) => s.parentSpanId === span.spanId);

    const register = spans.find((s) => s.name === "POST /v1/transfers/register/");
    expect(register).toBeDefined();
    if (!register) return;
    expect(register.kind).toBe(2); // SERVER
    expect(attr(register, "http.route")).toBe("/v1/transfers/register/");
    expect(attr(register, "http.response.status_code")).toBe(201);
    expect(attr(register, "openkyt.request_id")).toBe("traced-register-1");
    expect(childrenOf(register).filter((s) => s.name.startsWith("store ")).length).toBeGreaterThan(0);

    const refusedSpan = spans.find((s) => s.name === "GET /v1/transfers/{id}/");
    expect(refusedSpan).toMatchObject({
      traceId: "0af7651916cd43dd8448eb211c80319c",
      parentSpanId: "b7ad6b7169203331",
    });
    // Span names are route templates, never a path with its id.
    expect(spans.filter((s) => s.name.includes(transferId))).toEqual([]);

    // The bind job the registration queued is a span of the request's trace, a child of its span.
    const bindJob = spans.find(
      (s) => s.name === "openkyt.job" && attr(s, "openkyt.kind") === "transfer.bind",
    );
    expect(bindJob).toMatchObject({ traceId: register.traceId, parentSpanId: register.spanId });
    if (!bindJob) return;
    expect(attr(bindJob, "openkyt.request_id")).toBe("traced-register-1");
    expect(attr(bindJob, "openkyt.lane")).toBe("checks");
    const children = childrenOf(bindJob);
    expect(children.some((s) => s.name === "openkyt.chain.lookup")).toBe(true);
    expect(children.some((s) => s.name === "store transaction")).toBe(true);
    // The batch that ran it is linked to the request, and holds the job's span.
    const batches = spans.filter((s) => s.name === "openkyt.jobs.batch");
    const bindBatch = batches.find((b) => String(attr(b, "openkyt.kinds")).includes("transfer.bind"));
    expect(bindBatch).toBeDefined();
    if (!bindBatch) return;
    expect(attr(bindBatch, "openkyt.lane")).toBe("checks");
    expect(bindBatch.links).toContainEqual(
      expect.objectContaining({ traceId: register.traceId, spanId: register.spanId }),
    );
    // The idle poll for due jobs outside a batch is not traced.
    const roots = spans.filter((s) => !s.parentSpanId);
    expect(roots.length).toBeGreaterThan(0);
    expect(roots.filter((s) => s.name.startsWith("store "))).toEqual([]);
  });
});
