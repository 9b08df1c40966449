/**
 * Runs one endpoint for a request: read the body (size limit), authenticate, rate-limit,
 * admit against replay, then parse the JSON and query and call the account operation. Every
 * failure is a KytError the app's error handler answers; nothing runs before authentication
 * succeeds, so a refused request changes nothing.
 */
import { type Clock, type Engine, KytError } from "@openkyt/core";
import type { Context } from "hono";
import type { AppEnv } from "./app-env.js";
import type { Authenticator } from "./auth-check.js";
import { parseBody } from "./body-forms.js";
import { readBodyBytes } from "./body-reader.js";
import type { Endpoint, EndpointResult } from "./endpoint-types.js";
import type { RateLimiter } from "./rate-limiter.js";

/** What the runner needs. */
export interface EndpointRunnerDeps {
  readonly engine: Engine;
  readonly auth: Authenticator;
  readonly limiter: RateLimiter | null;
  readonly clock: Clock;
  readonly bodyBytes: number;
}

/** The request target as sent (node's raw request line when available) and as the URL parser saw it. */
function requestTargets(c: Context<AppEnv>, url: URL): string[] {
  const env = c.env as { incoming?: { url?: unknown } } | undefined;
  const raw = env?.incoming?.url;
  const parsed = `${url.pathname}${url.search}`;
  return typeof raw === "string" && raw.startsWith("/") && raw !== parsed ? [raw, parsed] : [parsed];
}

/**
 * The query string as a record; a parameter given twice is a validation error naming it. Names
 * are collected in a Map, so `__proto__` is a parameter like any other (an unknown one).
 */
export function queryRecord(url: URL): Record<string, string> {
  const params = new Map<string, string>();
  const repeated = new Map<string, string[]>();
  for (const [name, value] of url.searchParams) {
    if (params.has(name)) repeated.set(name, ["given more than once"]);
    else params.set(name, value);
  }
  if (repeated.size > 0) {
    throw new KytError(
      "VALIDATION_ERROR",
      `query parameter given more than once: ${[...repeated.keys()].join(", ")}`,
      { errors: Object.fromEntries(repeated) },
    );
  }
  return Object.fromEntries(params);
}

function respond(c: Context<AppEnv>, result: EndpointResult): Response {
  if (result.kind === "pdf") {
    const { bytes, fileName } = result.report;
    return c.body(bytes as Uint8Array<ArrayBuffer>, 200, {
      "Content-Type": "application/pdf",
      "Content-Disposition": `attachment; filename="${fileName.replace(/["\\\r\n]/g, "_")}"`,
      "Content-Length": String(bytes.byteLength),
    });
  }
  return c.json(result.body as object, result.status, result.headers);
}

/** The Hono handler of one endpoint. */
export function endpointHandler(endpoint: Endpoint, deps: EndpointRunnerDeps) {
  return async (c: Context<AppEnv>): Promise<Response> => {
    const log = c.get("log");
    const raw = await readBodyBytes(c.req.raw, deps.bodyBytes);
    const parsed = parseBody(raw);
    const url = new URL(c.req.url);
    const now = deps.clock.now();
    const request = {
      method: c.req.method,
      targets: requestTargets(c, url),
      header: c.req.header.bind(c.req),
      raw,
      parsed,
    };
    const verified = await deps.auth.verify(request, now);
    if (!verified.ok) {
      c.set("keyId", verified.keyId);
      log.warn({ keyId: verified.keyId, reason: verified.detail }, "authentication refused");
      throw new KytError("UNAUTHORIZED", verified.detail);
    }
    c.set("keyId", verified.keyId);
    c.set("accountId", verified.accountId);
    const rate = deps.limiter?.take(verified.keyId, now) ?? { ok: true as const };
    if (!rate.ok) {
      throw new KytError("RATE_LIMITED", "too many requests for this API key; retry later", {
        details: { retryAfterMs: rate.retryAfterMs },
      });
    }
    const admission = deps.auth.admit(verified, now);
    if (admission.evicted > 0)
      log.warn({ evicted: admission.evicted }, "replay cache full: evicted live entries");
    if (admission.refused) {
      log.warn({ keyId: verified.keyId, reason: admission.refused.detail }, "authentication refused");
      throw new KytError("UNAUTHORIZED", admission.refused.detail);
    }
    if (parsed.kind === "malformed") {
      throw new KytError("VALIDATION_ERROR", parsed.problem, {
        errors: { non_field_errors: [parsed.problem] },
      });
    }
    const input = {
      id: c.req.param("id") ?? "",
      body: parsed.kind === "json" ? parsed.value : undefined,
      query: endpoint.query ? queryRecord(url) : {},
      keyId: verified.keyId,
    };
    return respond(c, await endpoint.run(deps.engine.forAccount(verified.accountId), input));
  };
}
