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
  strangeBody,
  text,
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
  const raw = fc.oneof(
    fc.constantFrom("%", "%zz", "a=%E0%A4%A", "&&&", "=", "page=1&page=2", "page_size=1000000", "a[b]=1"),
    fc.string({ maxLength: 40 }).map(encodeURI),
  );
  return fc.oneof(
    { weight: 2, arbitrary: fc.constant("") },
    { weight: 6, arbitrary: pairs },
    { weight: 1, arbitrary: raw },
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

/** Every kind of generated request: each endpoint of the table equally, and paths that match none. */
export function fuzzCaseArbitrary(mine: AccountData, theirs: AccountData): fc.Arbitrary<FuzzCase> {
  return fc.oneof(
    ...ENDPOINTS.map((endpoint) => ({ weight: 4, arbitrary: endpointCase(endpoint, mine, theirs) })),
    { weight: 4, arbitrary: junkPath },
  );
}
