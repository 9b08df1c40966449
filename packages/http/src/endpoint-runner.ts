/**
 * Runs one endpoint for a request: refuse a source or key past its budget of failed
 * authentications (429), check the headers, timestamp and key before reading the body, read
 * the body (size limit), check the signature, rate-limit, admit against replay, then parse the
 * JSON and query and call the account operation. A console session (cookie, CSRF token on
 * writes, role) takes the place of the signature and leads to the same operation. Every failure is a KytError the app's error
 * handler answers; nothing runs before authentication succeeds, so a refused request changes
 * nothing. A body left unread by a refusal is drained (bounded) or cut by @hono/node-server.
 */

import type { IncomingMessage } from "node:http";
import {
  type AccountApi,
  type Clock,
  type Engine,
  isStorableText,
  type JobOrigin,
  KytError,
} from "@openkyt/core";
import type { Context } from "hono";
import type { AppEnv } from "./app-env.js";
import { auditOperation } from "./audited-operations.js";
import type { Authenticator, Refused } from "./auth-check.js";
import type { AuthFailureBudget, FailureSubject } from "./auth-failures.js";
import { parseBody } from "./body-forms.js";
import { checkDeclaredLength } from "./body-reader.js";
import type { ConsoleSessions } from "./console-sessions.js";
import type { Endpoint, EndpointResult } from "./endpoint-types.js";
import { logValue } from "./log-fields.js";
import { nodeIncoming, readHeader } from "./node-incoming.js";
import type { RateLimiter, RateVerdict } from "./rate-limiter.js";
import { socketLimitAddress } from "./remote-address.js";
import type { ReportSettings } from "./report-settings.js";
import { type Caller, type CallerRequest, readBody, takeRate } from "./request-caller.js";
import { REQUEST_ID_HEADER } from "./request-context.js";
import { API_ANSWER_HEADERS } from "./response-headers.js";
import { sessionCaller } from "./session-check.js";
import { sessionTokenOf } from "./session-cookie.js";

/** What the runner needs. */
export interface EndpointRunnerDeps {
  /** The engine's operations for an account, made once per account (see {@link accountApis}). */
  readonly accounts: (accountId: string) => AccountApi;
  readonly auth: Authenticator;
  readonly limiter: RateLimiter | null;
  /** The budget of failed authentications per source and key; null: none. */
  readonly failures: AuthFailureBudget | null;
  readonly clock: Clock;
  readonly bodyBytes: number;
  /** Largest body of a batch endpoint (`bodyLimit: "batch"`). */
  readonly batchBodyBytes: number;
  /** Console sessions (cookie and CSRF token); null: only signed requests are accepted. */
  readonly sessions: ConsoleSessions | null;
  /** The server's report settings, given to every endpoint. */
  readonly settings: ReportSettings;
}

/**
 * The engine's account APIs made once per account and reused (at most `maxAccounts`; past
 * that the memo starts over). An account API is a stateless set of operations over the engine;
 * the request a call serves (whose jobs carry its request id and span) goes with the call
 * (`EndpointInput.origin`), so no request builds an API of its own.
 */
export function accountApis(engine: Engine, maxAccounts = 1_000): (accountId: string) => AccountApi {
  const made = new Map<string, AccountApi>();
  return (accountId) => {
    let api = made.get(accountId);
    if (api === undefined) {
      if (made.size >= maxAccounts) made.clear();
      api = engine.forAccount(accountId);
      made.set(accountId, api);
    }
    return api;
  };
}

/** A `.` or `..` path segment, also percent-encoded (the URL parser resolves both). */
const DOT_SEGMENT = /(?:^|\/)(?:\.|%2e){1,2}(?:\/|$)/i;

/**
 * A target the URL parser leaves as it is: `/`-led segments of unreserved characters, none
 * empty or starting with a dot (so no dot segment), no percent sign, no query.
 */
const PLAIN_TARGET = /^\/(?:[A-Za-z0-9_~-][A-Za-z0-9._~-]*(?:\/|$))*$/;

/** Whether `raw` (a request line's target) is one the URL parser gives back as it is. */
export function isPlainTarget(raw: string): boolean {
  return PLAIN_TARGET.test(raw);
}

/**
 * The request target as sent (node's raw request line when available) and as the URL parser saw
 * it. A raw path with dot segments is refused (400) before authentication: no client of the
 * interface sends one, and each extra form of the target multiplies the signatures to check.
 */
function requestTargets(incoming: IncomingMessage | undefined, url: () => URL): string[] {
  const raw = incoming?.url;
  // The common target, which the URL parser would give back unchanged: no need to parse it.
  if (typeof raw === "string" && isPlainTarget(raw)) return [raw];
  const { pathname, search } = url();
  const parsed = `${pathname}${search}`;
  if (typeof raw !== "string" || !raw.startsWith("/") || raw === parsed) return [parsed];
  const q = raw.indexOf("?");
  if (DOT_SEGMENT.test(q === -1 ? raw : raw.slice(0, q))) {
    throw new KytError("VALIDATION_ERROR", "the request path must not contain '.' or '..' segments", {
      errors: { path: ["must not contain '.' or '..' segments"] },
    });
  }
  return [raw, parsed];
}

/** The 429 of a source or key past its budget of failed authentications. */
function tooManyFailures(verdict: RateVerdict, what: string): void {
  if (verdict.ok) return;
  throw new KytError("RATE_LIMITED", `too many failed authentications ${what}; retry later`, {
    details: { retryAfterMs: verdict.retryAfterMs },
  });
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

/**
 * The `{id}` of the path. An id no store can hold (a NUL, an unpaired surrogate: see
 * `isStorableText`) names nothing: NOT_FOUND like any unknown id, before the store is asked.
 */
function pathId(c: Context<AppEnv>): string {
  const id = c.req.param("id") ?? "";
  if (!isStorableText(id)) throw new KytError("NOT_FOUND", `no such id: ${JSON.stringify(id)}`);
  return id;
}

/**
 * The request as the origin of the jobs an endpoint enqueues (its request id, its span when
 * traced); none for a GET, which enqueues nothing.
 */
function requestOrigin(c: Context<AppEnv>, endpoint: Endpoint): JobOrigin | undefined {
  if (endpoint.method === "GET") return undefined;
  const traceparent = c.get("traceparent");
  return traceparent === undefined
    ? { requestId: c.get("requestId") }
    : { requestId: c.get("requestId"), traceparent };
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
  if (result.kind === "file") {
    const bytes = new TextEncoder().encode(result.text);
    return c.body(bytes as Uint8Array<ArrayBuffer>, 200, {
      "Content-Type": result.contentType,
      "Content-Disposition": `attachment; filename="${result.fileName.replace(/["\\\r\n]/g, "_")}"`,
      "Content-Length": String(bytes.byteLength),
    });
  }
  // A Response with plain headers (the request id included): node-server writes it as it is,
  // without building a Headers object or having the middleware add the request id afterwards.
  c.set("requestIdSent", true);
  return new Response(JSON.stringify(result.body), {
    status: result.status,
    headers: {
      "content-type": "application/json",
      [REQUEST_ID_HEADER.toLowerCase()]: c.get("requestId"),
      ...API_ANSWER_HEADERS,
      ...result.headers,
    },
  });
}

/** Authenticates a signed request (HMAC): headers, key, body, signature, then replay. */
async function signedCaller(
  req: CallerRequest,
  targets: string[],
  deps: EndpointRunnerDeps,
): Promise<Caller> {
  const { c, header, now, source } = req;
  const pre = await deps.auth.precheck(header, now);
  if (!pre.ok) return req.refuse(pre, source);
  c.set("keyId", pre.keyId);
  const keyed: FailureSubject = { address: source.address, keyId: pre.keyId };
  if (deps.failures) tooManyFailures(deps.failures.checkKey(keyed, now), "for this API key");
  const raw = await readBody(c, req.incoming, req.bodyBytes);
  const parsed = parseBody(raw);
  const verified = deps.auth.checkSignature(pre, { method: c.req.method, targets, raw, parsed });
  if (!verified.ok) return req.refuse(verified, keyed);
  c.set("keyId", verified.keyId);
  c.set("accountId", verified.accountId);
  takeRate(deps, verified.keyId, now, "API key");
  const replayed = await deps.auth.admit(verified, now);
  if (replayed) return req.refuse(replayed, keyed);
  return { actor: verified.keyId, accountId: verified.accountId, parsed };
}

/**
 * The Hono handler of one endpoint. A request that carries a console session cookie and no
 * API-KEY-ID is authenticated by its session (see session-check.ts); every other one by its
 * signature. Both then run the same endpoint for the caller's account.
 */
export function endpointHandler(endpoint: Endpoint, deps: EndpointRunnerDeps) {
  return async (c: Context<AppEnv>): Promise<Response> => {
    const log = c.get("log");
    const incoming = nodeIncoming(c);
    // Parsed only when needed: a target that is not plain, or a query to read.
    let parsedUrl: URL | undefined;
    const url = () => {
      parsedUrl ??= new URL(c.req.url);
      return parsedUrl;
    };
    const targets = requestTargets(incoming, url);
    const now = deps.clock.now();
    const header = (name: string) => readHeader(c, incoming, name);
    const bodyBytes = endpoint.bodyLimit === "batch" ? deps.batchBodyBytes : deps.bodyBytes;
    checkDeclaredLength(header("content-length"), bodyBytes);
    const source: FailureSubject = {
      address: incoming ? socketLimitAddress(incoming.socket) : undefined,
    };
    const refuse = (refused: Refused, subject: FailureSubject): never => {
      deps.failures?.record(subject, now);
      c.set("keyId", refused.keyId);
      c.set("authRefusal", refused.reason);
      log.warn({ keyId: logValue(refused.keyId), reason: refused.detail }, "authentication refused");
      throw new KytError("UNAUTHORIZED", refused.detail);
    };
    if (deps.failures) tooManyFailures(deps.failures.checkSource(source, now), "from this address");
    const req: CallerRequest = { c, incoming, header, now, bodyBytes, source, refuse };
    const token =
      deps.sessions && header("api-key-id") === undefined ? sessionTokenOf(header("cookie")) : undefined;
    const caller =
      deps.sessions && token !== undefined
        ? await sessionCaller(req, endpoint, token, { ...deps, sessions: deps.sessions })
        : await signedCaller(req, targets, deps);
    const { parsed } = caller;
    if (parsed.kind === "malformed") {
      throw new KytError("VALIDATION_ERROR", parsed.problem, {
        errors: { non_field_errors: [parsed.problem] },
      });
    }
    const input = {
      id: pathId(c),
      body: parsed.kind === "json" ? parsed.value : undefined,
      query: endpoint.query ? queryRecord(url()) : {},
      keyId: caller.actor,
      settings: deps.settings,
      origin: requestOrigin(c, endpoint),
    };
    const api = deps.accounts(caller.accountId);
    const result = await endpoint.run(api, input);
    await auditOperation(api, endpoint.operationId, input, result);
    return respond(c, result);
  };
}
