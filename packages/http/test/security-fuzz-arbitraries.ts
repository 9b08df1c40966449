/**
 * fast-check arbitraries of hostile requests to every endpoint of the table: the path (the
 * endpoint's, with the id of either account, a random or a junk id, or a path that does not
 * exist), the method, the query (the endpoint's parameters with valid and invalid values, unknown
 * and repeated ones, raw junk), the body (built from the endpoint's own schema, mutated, or not
 * JSON at all, or not UTF-8), the signature (correct, so the request reaches validation, or
 * wrong in one of many ways) and extra headers.
 */
import fc from "fast-check";
import { ENDPOINTS, type Endpoint } from "../src/index.js";
import type { AccountData } from "./security-fixture.js";
import {
  bodyArbitrary,
  type FuzzBody,
  fieldsOf,
  knownValues,
  OVERLONG_ESCAPES,
  percentEncode,
  strangeBody,
  text,
  unstorableBody,
  unstorableText,
  valueFor,
} from "./security-fuzz-bodies.js";

export type { FuzzBody } from "./security-fuzz-bodies.js";

/** How a generated request is authenticated. */
export type AuthMode =
  | "valid"
  | "other-account"
  | "wrong-secret"
  | "missing-header"
  | "stale"
  | "future"
  | "seconds"
  | "garbage-signature"
  | "unknown-key"
  | "unsigned"
  | "signed-other-target";

/** One generated request. */
export interface FuzzCase {
  /** The endpoint's operation id, or "junk-path". */
  readonly target: string;
  readonly method: string;
  /** Path and query as sent. */
  readonly path: string;
  readonly body: FuzzBody;
  readonly auth: AuthMode;
  readonly headers: ReadonlyArray<readonly [string, string]>;
  /** The statuses the request must get, when the generator knows (otherwise: any but 5xx). */
  readonly expect?: ReadonlyArray<number>;
}

/** An id for a `{id}` path: the caller's own, the other account's, random, junk or long. */
function idArbitrary(mine: AccountData, theirs: AccountData) {
  const ids = (d: AccountData) => [
    ...d.transferIds,
    ...d.checkIds,
    ...d.alertIds,
    d.riskModelId,
    d.webhookId,
  ];
  return fc.oneof(
    { weight: 4, arbitrary: fc.constantFrom(...ids(mine)) },
    { weight: 3, arbitrary: fc.constantFrom(...ids(theirs)) },
    { weight: 1, arbitrary: fc.uuid() },
    { weight: 1, arbitrary: fc.string({ maxLength: 40 }).map(encodeURIComponent) },
    { weight: 1, arbitrary: fc.constantFrom("..", "%2e%2e", "%2F", "%00", "%", "default", "1 OR 1=1", "'") },
    { weight: 1, arbitrary: fc.string({ minLength: 200, maxLength: 400 }).map(encodeURIComponent) },
    // NUL, unpaired surrogates (as a lax encoder writes them) and overlong forms, inside real ids too.
    { weight: 2, arbitrary: unstorableText.map(percentEncode) },
    {
      weight: 1,
      arbitrary: fc
        .tuple(fc.constantFrom(...ids(mine)), fc.constantFrom("%00", ...OVERLONG_ESCAPES), fc.boolean())
        .map(([id, bad, first]) => (first ? `${bad}${id}` : `${id}${bad}`)),
    },
  );
}

/** A query string: the endpoint's parameters (valid and invalid values), unknown, repeated, raw junk. */
function queryArbitrary(fields: Map<string, unknown[]>, known: Record<string, fc.Arbitrary<unknown>>) {
  const names = [...fields.keys()];
  const param = fc.tuple(
    names.length > 0 ? fc.oneof(fc.constantFrom(...names), text) : text,
    fc.oneof(text, fc.constant("")),
  );
  const known1 =
    names.length > 0
      ? fc
          .constantFrom(...names)
          .chain((name) =>
            valueFor(name, fields.get(name) ?? [], known).map((v) => [
              name,
              typeof v === "string" ? v : JSON.stringify(v),
            ]),
          )
      : param;
  const pairs = fc.array(fc.oneof(known1, known1, param), { maxLength: 6 }).map((list) => {
    const params = new URLSearchParams();
    for (const [name, value] of list) params.append(String(name), String(value ?? ""));
    return params.toString();
  });
  // A parameter (the endpoint's, or any) whose value holds NUL, a surrogate or an overlong form.
  const unstorable = fc
    .tuple(
      names.length > 0 ? fc.constantFrom(...names) : fc.constant("client_id"),
      fc.oneof(unstorableText.map(percentEncode), fc.constantFrom("%00", ...OVERLONG_ESCAPES)),
    )
    .map(([name, value]) => `${encodeURIComponent(name)}=${value}`);
  const raw = fc.oneof(
    fc.constantFrom("%", "%zz", "a=%E0%A4%A", "&&&", "=", "page=1&page=2", "page_size=1000000", "a[b]=1"),
    fc.string({ maxLength: 40 }).map(encodeURI),
  );
  return fc.oneof(
    { weight: 2, arbitrary: fc.constant("") },
    { weight: 6, arbitrary: pairs },
    { weight: 1, arbitrary: raw },
    { weight: 2, arbitrary: unstorable },
    { weight: 1, arbitrary: fc.tuple(pairs, unstorable).map(([a, b]) => (a ? `${a}&${b}` : b)) },
  );
}

const METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE", "OPTIONS", "HEAD"];

/** The request to one endpoint of the table. */
function endpointCase(endpoint: Endpoint, mine: AccountData, theirs: AccountData): fc.Arbitrary<FuzzCase> {
  const known = knownValues(mine, theirs);
  const path = endpoint.path.includes("{id}")
    ? idArbitrary(mine, theirs).map((id) => endpoint.path.replace("{id}", id))
    : fc.constant(endpoint.path);
  return fc.record({
    target: fc.constant(endpoint.operationId),
    method: fc.oneof(
      { weight: 9, arbitrary: fc.constant(endpoint.method) },
      { weight: 1, arbitrary: fc.constantFrom(...METHODS) },
    ),
    path: fc
      .tuple(path, fc.boolean(), queryArbitrary(fieldsOf(endpoint.query), known))
      .map(([p, slash, query]) => `${slash ? p : p.replace(/\/$/, "")}${query ? `?${query}` : ""}`),
    body: bodyArbitrary(endpoint, mine, theirs),
    auth: authArbitrary,
    headers: headersArbitrary,
  });
}

const authArbitrary: fc.Arbitrary<AuthMode> = fc.oneof(
  { weight: 14, arbitrary: fc.constant("valid" as const) },
  { weight: 2, arbitrary: fc.constant("other-account" as const) },
  {
    weight: 9,
    arbitrary: fc.constantFrom<AuthMode>(
      "wrong-secret",
      "missing-header",
      "stale",
      "future",
      "seconds",
      "garbage-signature",
      "unknown-key",
      "unsigned",
      "signed-other-target",
    ),
  },
);

/** Extra headers with values a Request accepts (CR/LF and raw bytes are sent over sockets elsewhere). */
const headerValue = fc.string({
  unit: fc.constantFrom(..."abcXYZ019 -_.:;,/=+*\"'()<>[]{}\\%$#@!?~`|^&"),
  maxLength: 60,
});
const headersArbitrary = fc.array(
  fc.oneof(
    fc.tuple(fc.constant("X-Request-Id"), headerValue),
    fc.tuple(
      fc.constant("Content-Type"),
      fc.constantFrom(
        "text/plain",
        "application/xml",
        "multipart/form-data",
        "application/json; charset=utf-16",
      ),
    ),
    fc.tuple(
      fc.constantFrom("X-Forwarded-For", "Host", "Origin", "Cookie", "X-API-KEY-SECRET", "Accept"),
      headerValue,
    ),
    fc.tuple(fc.stringMatching(/^[a-z][a-z0-9-]{0,20}$/), headerValue),
  ),
  { maxLength: 3 },
);

/** Paths that match no endpoint. */
const junkPath: fc.Arbitrary<FuzzCase> = fc.record({
  target: fc.constant("junk-path"),
  method: fc.constantFrom(...METHODS),
  path: fc.oneof(
    fc.constantFrom(
      "/",
      "/v1",
      "/v1/",
      "/v2/transfers/",
      "/v1/transfers/register/extra/",
      "/V1/TRANSFERS/",
      "//v1//transfers//",
    ),
    fc.constantFrom(
      "/v1/%2e%2e/%2e%2e/etc/passwd",
      "/v1/transfers/%00/",
      "/v1/transfers/..%2F..%2F/",
      "/.env",
      "/v1/openapi.json/x",
    ),
    fc
      .array(fc.string({ maxLength: 12 }).map(encodeURIComponent), { maxLength: 6 })
      .map((s) => `/v1/${s.join("/")}`),
  ),
  body: fc.oneof(fc.constant({ kind: "none" as const }), strangeBody),
  auth: authArbitrary,
  headers: headersArbitrary,
});

/** The ids of an account that an endpoint's `{id}` names (its own kind first). */
function ownIds(endpoint: Endpoint, d: AccountData): ReadonlyArray<string> {
  const p = endpoint.path;
  if (p.includes("bind-transaction")) return [d.openAttemptId];
  if (p.startsWith("/v1/transfers/")) return d.transferIds;
  if (p.startsWith("/v1/manual-checks/")) return d.checkIds;
  if (p.startsWith("/v1/alerts/")) return d.alertIds;
  if (p.startsWith("/v1/risk-models/")) return [d.riskModelId];
  if (p.startsWith("/v1/webhooks/")) return [d.webhookId];
  return [...d.transferIds];
}

/**
 * Requests of the caller's own account, otherwise valid, that each carry one string no store
 * can hold where the endpoint reads it: a NUL or an unpaired surrogate in a body string (or an
 * overlong UTF-8 form in the bytes), a NUL in a query value, or a NUL in the path id (inside a
 * real id). Each must be refused: 400 for the body and query, 404 for the id.
 */
export function unstorableCaseArbitrary(mine: AccountData): fc.Arbitrary<FuzzCase> {
  const cases: fc.Arbitrary<FuzzCase>[] = [];
  for (const endpoint of ENDPOINTS) {
    const hasId = endpoint.path.includes("{id}");
    const ids = ownIds(endpoint, mine);
    const goodPath = hasId
      ? fc.constantFrom(...ids).map((id) => endpoint.path.replace("{id}", id))
      : fc.constant(endpoint.path);
    const base = { target: fc.constant(endpoint.operationId), method: fc.constant(endpoint.method) };
    const common = { auth: fc.constant<AuthMode>("valid"), headers: fc.constant([]) };
    const body = unstorableBody(endpoint, mine);
    if (body) cases.push(fc.record({ ...base, ...common, path: goodPath, body, expect: fc.constant([400]) }));
    if (hasId) {
      const badId = fc
        .tuple(fc.constantFrom(...ids), fc.nat(), fc.constantFrom("%00", "%00%00"))
        .map(
          ([id, at, nul]) => `${id.slice(0, at % (id.length + 1))}${nul}${id.slice(at % (id.length + 1))}`,
        );
      cases.push(
        fc.record({
          ...base,
          ...common,
          path: badId.map((id) => endpoint.path.replace("{id}", id)),
          body: fc.constant({ kind: "none" as const }),
          expect: fc.constant([404]),
        }),
      );
    }
    const names = [...fieldsOf(endpoint.query).keys()];
    if (names.length > 0 && endpoint.method === "GET") {
      const query = fc
        .tuple(fc.constantFrom(...names), fc.string({ maxLength: 8 }), fc.string({ maxLength: 8 }))
        .map(([name, a, b]) => `${name}=${encodeURIComponent(a)}%00${encodeURIComponent(b)}`);
      cases.push(
        fc.record({
          ...base,
          ...common,
          path: fc.tuple(goodPath, query).map(([p, q]) => `${p}?${q}`),
          body: fc.constant({ kind: "none" as const }),
          expect: fc.constant([400]),
        }),
      );
    }
  }
  return fc.oneof(...cases);
}

/** Every kind of generated request: each endpoint of the table equally, and paths that match none. */
export function fuzzCaseArbitrary(mine: AccountData, theirs: AccountData): fc.Arbitrary<FuzzCase> {
  return fc.oneof(
    ...ENDPOINTS.map((endpoint) => ({ weight: 4, arbitrary: endpointCase(endpoint, mine, theirs) })),
    { weight: 4, arbitrary: junkPath },
  );
}
