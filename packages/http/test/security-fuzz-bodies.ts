/**
 * Request bodies for the fuzzer: valid bodies of each operation (so requests get past
 * validation and change the store), the same with one field replaced by a hostile value or left
 * out, objects built from the endpoint's own schema with values valid and not, and bodies that
 * are no JSON object at all (other JSON, broken JSON, bytes that are not UTF-8, nesting bombs).
 */
import { TX, USDT, W } from "@openkyt/testkit";
import fc from "fast-check";
import { z } from "zod";
import type { Endpoint } from "../src/index.js";
import type { AccountData } from "./security-fixture.js";

/** A body as sent. */
export type FuzzBody =
  | { readonly kind: "none" }
  | { readonly kind: "json"; readonly value: unknown }
  | { readonly kind: "text"; readonly text: string }
  | { readonly kind: "bytes"; readonly bytes: Uint8Array };

type JsonSchema = { properties?: Record<string, JsonProp>; anyOf?: JsonSchema[] };
type JsonProp = { enum?: unknown[]; anyOf?: JsonProp[]; type?: unknown };

/** The property names and enum values of a zod schema's input side. */
export function fieldsOf(schema: z.ZodType | undefined): Map<string, unknown[]> {
  const out = new Map<string, unknown[]>();
  if (!schema) return out;
  const walk = (s: JsonSchema) => {
    for (const [name, prop] of Object.entries(s.properties ?? {})) {
      const enums = [...(prop.enum ?? []), ...(prop.anyOf ?? []).flatMap((p) => p.enum ?? [])];
      out.set(name, [...(out.get(name) ?? []), ...enums]);
    }
    for (const branch of s.anyOf ?? []) walk(branch);
  };
  walk(z.toJSONSchema(schema, { io: "input", unrepresentable: "any" }) as JsonSchema);
  return out;
}

/** Lower-case hex strings of a length. */
export const hex = (length: number) =>
  fc.string({ unit: fc.constantFrom(..."0123456789abcdef"), minLength: length, maxLength: length });

/** The characters no store can hold or that are no text: NUL and unpaired surrogates. */
const UNSTORABLE = ["\0", "\uD800", "\uDBFF", "\uDC00", "\uDFFF", "\uDC00\uD800", "\0\0"];

/** Text with a NUL or an unpaired surrogate somewhere in it (alone, first, inside, last). */
export const unstorableText = fc
  .tuple(fc.string({ maxLength: 12 }), fc.constantFrom(...UNSTORABLE), fc.string({ maxLength: 12 }))
  .map(([before, bad, after]) => `${before}${bad}${after}`);

/**
 * Percent-encodes `s` as UTF-8, and an unpaired surrogate as the three bytes a lax encoder
 * writes for it (ED A0 80 for U+D800: not UTF-8), where encodeURIComponent would throw.
 */
export function percentEncode(s: string): string {
  let out = "";
  for (const ch of s) {
    const cp = ch.codePointAt(0) ?? 0;
    if (cp < 0xd800 || cp > 0xdfff) out += encodeURIComponent(ch);
    else
      for (const byte of [0xe0 | (cp >> 12), 0x80 | ((cp >> 6) & 0x3f), 0x80 | (cp & 0x3f)])
        out += `%${byte.toString(16).toUpperCase()}`;
  }
  return out;
}

/** Percent-encoded bytes that are not UTF-8 but decode to NUL or a surrogate in a lax decoder. */
export const OVERLONG_ESCAPES = ["%C0%80", "%E0%80%80", "%F0%80%80%80", "%ED%A0%80", "%ED%BF%BF", "%C0%AF"];

/** The raw bytes of those sequences, for bodies. */
const OVERLONG_BYTES: ReadonlyArray<ReadonlyArray<number>> = [
  [0xc0, 0x80],
  [0xe0, 0x80, 0x80],
  [0xf0, 0x80, 0x80, 0x80],
  [0xed, 0xa0, 0x80],
  [0xed, 0xbf, 0xbf],
  [0xc0, 0xaf],
  [0x00],
];

/** Printable text, and some that is not (control characters, unicode, NUL, lone surrogates, long). */
export const text = fc.oneof(
  { weight: 2, arbitrary: unstorableText },
  { weight: 4, arbitrary: fc.string({ maxLength: 30 }) },
  { weight: 1, arbitrary: fc.string({ unit: "grapheme", maxLength: 20 }) },
  { weight: 1, arbitrary: fc.string({ unit: "binary", maxLength: 20 }) },
  { weight: 1, arbitrary: fc.string({ minLength: 190, maxLength: 260 }) },
  {
    weight: 1,
    arbitrary: fc.constantFrom("null", "undefined", "NaN", "-1", "0", "1e400", "__proto__", "%00"),
  },
);

/** Values of well-known fields, valid and invalid, from the data of both accounts. */
export function knownValues(mine: AccountData, theirs: AccountData): Record<string, fc.Arbitrary<unknown>> {
  const hashes = fc.oneof(
    fc.constantFrom(...mine.txHashes, ...theirs.txHashes, TX.deposit, TX.unknown),
    hex(64).map((h) => `0x${h}`),
    hex(64),
    text,
  );
  const addresses = fc.oneof(
    fc.constantFrom(mine.address, theirs.address, W.sanctioned, W.exchange, W.client, W.mixer),
    hex(40).map((h) => `0x${h}`),
    fc.constantFrom("TQn9Y2khEsLJW1ChVWFMSMeRDow5KcbLSE", "bc1qxy2kgdygjrsqtzq2n0yrf2493p83kkfjhx0wlh"),
    text,
  );
  const date = fc.oneof(
    fc.constantFrom("2024-01-01", "2024-01-02T03:04:05Z", "2024-01-02T03:04:05+01:00", "2024-01-02 03:04:05"),
    fc.constantFrom("2024-13-45", "0000-00-00", "9999-12-31", "2024-02-30", "yesterday", "1704067200000"),
    text,
  );
  const integerish = fc.oneof(
    fc.integer({ min: -5, max: 150 }).map(String),
    fc.constantFrom("1", "20", "100", "101", "0", "-1", "1.5", "1e3", "abc", "", "9007199254740993", " 1"),
    text,
  );
  return {
    network: fc.oneof(fc.constantFrom("ETH", "eth", "TRX", "BTC", "POLYGON", "", "XYZ"), text, fc.integer()),
    tx_hash: hashes,
    address: addresses,
    input_address: addresses,
    output_address: addresses,
    direction: fc.oneof(fc.constantFrom("incoming", "outgoing", "INCOMING", "in", ""), text),
    token_id: fc.oneof(fc.constantFrom("native", "usdt", "USDT", USDT, "", "null", null), text),
    token_symbol: fc.oneof(fc.constantFrom("ETH", "USDT", "usdt"), text),
    client_id: fc.oneof(fc.constantFrom(...mine.clientIds, ...theirs.clientIds, null), text),
    attempt_id: fc.oneof(fc.constantFrom(...mine.attemptIds, ...theirs.attemptIds, null), text),
    amount: fc.oneof(fc.double(), fc.constantFrom("1.5", "-1", "1e400", "abc", "0x10", null), fc.integer()),
    risk_model: fc.oneof(fc.constantFrom("default", mine.riskModelId, theirs.riskModelId, null), text),
    copy_from: fc.oneof(fc.constantFrom("default", mine.riskModelId, theirs.riskModelId), text),
    ids: fc.array(fc.oneof(fc.constantFrom(...mine.alertIds, ...theirs.alertIds), text), { maxLength: 4 }),
    url: fc.oneof(fc.webUrl(), fc.constantFrom("javascript:alert(1)", "file:///etc/passwd", "ftp://x"), text),
    page: integerish,
    page_size: integerish,
    // Only waits that end at once: a valid wait holds the request while no job runner works.
    wait: fc.constantFrom("0", "", "0.001", "-1", "31", "abc", "1e9", "NaN"),
    registered_from: date,
    registered_to: date,
    occurred_from: date,
    occurred_to: date,
    created_from: date,
    created_to: date,
  };
}

/** A value for a field: the known values, the schema's enum values, or anything. */
export function valueFor(name: string, enums: unknown[], known: Record<string, fc.Arbitrary<unknown>>) {
  const options: fc.Arbitrary<unknown>[] = [text, fc.jsonValue({ maxDepth: 2 })];
  const own = known[name];
  if (own) options.push(own, own);
  if (enums.length > 0) options.push(fc.constantFrom(...enums), fc.constantFrom(...enums));
  return fc.oneof(...options);
}

/** A JSON object built from the endpoint's body fields, with some left out and some unknown added. */
function objectBody(fields: Map<string, unknown[]>, known: Record<string, fc.Arbitrary<unknown>>) {
  const entries = [...fields].map(([name, enums]) =>
    fc.option(
      valueFor(name, enums, known).map((v) => [name, v] as const),
      { freq: 4 },
    ),
  );
  const extra = fc.array(fc.tuple(fc.oneof(text, fc.constantFrom("__proto__", "constructor", "id")), text), {
    maxLength: 2,
  });
  return fc.tuple(fc.tuple(...entries), fc.option(extra, { freq: 3 })).map(([chosen, more]) => {
    const out: Record<string, unknown> = {};
    for (const entry of [...chosen, ...(more ?? [])]) {
      if (entry) Object.defineProperty(out, entry[0], { value: entry[1], enumerable: true, writable: true });
    }
    return out;
  });
}

/** Bodies that are not a JSON object: JSON of other shapes, broken JSON, bytes, nesting bombs. */
export const strangeBody: fc.Arbitrary<FuzzBody> = fc.oneof(
  fc.jsonValue({ maxDepth: 3 }).map((value) => ({ kind: "json" as const, value })),
  fc.string({ maxLength: 60 }).map((t) => ({ kind: "text" as const, text: t })),
  fc
    .constantFrom('{"network":', "{'a':1}", "[1,2", "\ufeff{}", "{}{}", "nul", '{"a":1e99999}', "  ")
    .map((t) => ({
      kind: "text" as const,
      text: t,
    })),
  fc.uint8Array({ maxLength: 40 }).map((bytes) => ({ kind: "bytes" as const, bytes })),
  fc
    .constantFrom(
      new Uint8Array([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x3a, 0x31, 0x7d]),
      new Uint8Array([0xc0, 0xaf]),
      new Uint8Array([0xed, 0xa0, 0x80]),
    )
    .map((bytes) => ({ kind: "bytes" as const, bytes })),
  fc.integer({ min: 1_000, max: 30_000 }).map((depth) => ({
    kind: "text" as const,
    text: `${"[".repeat(depth)}${"]".repeat(depth)}`,
  })),
  fc.integer({ min: 1_000, max: 5_000 }).map((depth) => ({
    kind: "text" as const,
    text: `${'{"a":'.repeat(depth)}1${"}".repeat(depth)}`,
  })),
);

const address = hex(40).map((h) => `0x${h}`);
const txHash = hex(64).map((h) => `0x${h}`);
const shortText = fc.string({ minLength: 1, maxLength: 20 });
const alertStatus = fc.constantFrom("open", "in_progress", "awaiting_response", "done");
const rule = fc.record({
  rule_type: fc.constantFrom("origin_of_funds", "destination_of_funds", "address_exposure", "entity"),
  rule_sub_type: fc.constantFrom("direct", "indirect", "all"),
  entity_category: fc.constantFrom("sanctions", "mixer", "exchange", "gambling"),
  risk_level: fc.constantFrom("low", "medium", "high", "severe"),
});

/** A valid body of each operation that takes one, built from the caller's own data. */
function validBodies(mine: AccountData): Readonly<Record<string, fc.Arbitrary<Record<string, unknown>>>> {
  const network = fc.constantFrom("ETH", "eth");
  const direction = fc.constantFrom("incoming", "outgoing");
  const hashes = fc.oneof(fc.constantFrom(...mine.txHashes, TX.deposit), txHash);
  return {
    registerTransfer: fc.record(
      {
        direction,
        network,
        tx_hash: hashes,
        output_address: fc.oneof(fc.constant(mine.address), address),
        token_id: fc.constantFrom("native", "usdt", USDT),
        client_id: shortText,
        disable_auto_check: fc.boolean(),
        force_recheck: fc.boolean(),
      },
      { requiredKeys: ["direction", "network", "tx_hash", "output_address"] },
    ),
    registerAttempt: fc.record(
      {
        direction: fc.constant("incoming"),
        network,
        input_address: fc.constantFrom(W.exchange, W.mixer),
        output_address: fc.oneof(fc.constant(mine.address), address),
        amount: fc.double({ min: 0, max: 1e6, noNaN: true }),
        attempt_id: shortText,
      },
      { requiredKeys: ["direction", "network", "input_address"] },
    ),
    bindTransaction: fc.record({ tx_hash: hashes }),
    checkTransfer: fc.record({
      network,
      tx_hash: hashes,
      output_address: fc.constant(mine.address),
      direction: fc.constant("incoming"),
    }),
    checkAddress: fc.record({
      network,
      address: fc.oneof(fc.constantFrom(W.sanctioned, mine.address), address),
    }),
    updateAlert: fc.record(
      { alert_status: alertStatus, comment: shortText, assignee: shortText },
      { requiredKeys: ["alert_status"] },
    ),
    bulkUpdateAlerts: fc.record({
      ids: fc.subarray([...mine.alertIds], { minLength: 1 }),
      alert_status: alertStatus,
    }),
    createRiskModel: fc.oneof(
      fc.record({ name: shortText, copy_from: fc.constantFrom("default", mine.riskModelId) }),
      fc.record({ name: shortText, rules: fc.array(rule, { minLength: 1, maxLength: 3 }) }),
    ),
    replaceRiskModel: fc.record({
      name: shortText,
      rules: fc.array(rule, { minLength: 1, maxLength: 3 }),
      change_reason: shortText,
    }),
    createWebhook: fc.record({
      url: fc.constantFrom("https://hooks.example/a", "http://127.0.0.1:9/x"),
      events: fc.subarray(["alert.created", "transfer.checked", "manual_check.completed"], { minLength: 1 }),
    }),
  };
}

/** The paths of every string inside `value` (object keys and array indexes). */
function stringPaths(value: unknown, path: ReadonlyArray<string | number> = []): (string | number)[][] {
  if (typeof value === "string") return [[...path]];
  if (Array.isArray(value)) return value.flatMap((v, i) => stringPaths(v, [...path, i]));
  if (value !== null && typeof value === "object")
    return Object.entries(value).flatMap(([k, v]) => stringPaths(v, [...path, k]));
  return [];
}

/** A copy of `value` with `edit` applied to the string at `path`. */
function editAt(value: unknown, path: ReadonlyArray<string | number>, edit: (s: string) => string): unknown {
  const [head, ...rest] = path;
  if (head === undefined) return edit(value as string);
  if (Array.isArray(value)) return value.map((v, i) => (i === head ? editAt(v, rest, edit) : v));
  const record = value as Record<string, unknown>;
  return { ...record, [head]: editAt(record[head], rest, edit) };
}

/** A valid body with a NUL or an unpaired surrogate inserted into one of its strings (nested ones too). */
function tainted(valid: fc.Arbitrary<Record<string, unknown>>) {
  return fc.tuple(valid, fc.nat(), fc.nat(), fc.constantFrom(...UNSTORABLE)).map(([body, pick, at, bad]) => {
    const paths = stringPaths(body);
    const path = paths[pick % Math.max(1, paths.length)];
    if (path === undefined) return body;
    return editAt(
      body,
      path,
      (s) => `${s.slice(0, at % (s.length + 1))}${bad}${s.slice(at % (s.length + 1))}`,
    );
  });
}

const MARK = "\u0001taint\u0001";
const encoder = new TextEncoder();

/**
 * A valid body sent as bytes with one of its strings holding an overlong or surrogate UTF-8
 * sequence (C0 80 is NUL in a lax decoder) or a raw NUL byte: not UTF-8 or not JSON, so 400.
 */
function overlongBytes(valid: fc.Arbitrary<Record<string, unknown>>): fc.Arbitrary<FuzzBody> {
  return fc.tuple(valid, fc.nat(), fc.constantFrom(...OVERLONG_BYTES)).map(([body, pick, bytes]) => {
    const paths = stringPaths(body);
    const path = paths[pick % Math.max(1, paths.length)];
    const json = JSON.stringify(path === undefined ? body : editAt(body, path, (s) => `${s}${MARK}`));
    const [head = "", tail = ""] = json.split(JSON.stringify(MARK).slice(1, -1));
    return {
      kind: "bytes" as const,
      bytes: new Uint8Array([...encoder.encode(head), ...bytes, ...encoder.encode(tail)]),
    };
  });
}

/** A valid body with one field replaced by a hostile value, or left out. */
function mutated(valid: fc.Arbitrary<Record<string, unknown>>, known: Record<string, fc.Arbitrary<unknown>>) {
  return fc.tuple(valid, fc.nat(), fc.boolean()).chain(([body, pick, drop]) => {
    const keys = Object.keys(body);
    const key = keys[pick % Math.max(1, keys.length)];
    if (key === undefined) return fc.constant(body);
    if (drop) {
      const { [key]: _left, ...rest } = body;
      return fc.constant(rest);
    }
    return valueFor(key, [], known).map((value) => ({ ...body, [key]: value }));
  });
}

/**
 * A body of `endpoint` that validation must refuse for its strings alone: a valid body with a
 * NUL or an unpaired surrogate in one of its strings (as JSON escapes), or with an overlong or
 * surrogate UTF-8 sequence in one (as bytes). Null for endpoints without a valid body here.
 */
export function unstorableBody(endpoint: Endpoint, mine: AccountData): fc.Arbitrary<FuzzBody> | null {
  const valid = validBodies(mine)[endpoint.operationId];
  if (!endpoint.body || !valid) return null;
  return fc.oneof(
    { weight: 3, arbitrary: tainted(valid).map((value) => ({ kind: "json" as const, value })) },
    { weight: 1, arbitrary: overlongBytes(valid) },
  );
}

/** Every kind of body for `endpoint`. */
export function bodyArbitrary(
  endpoint: Endpoint,
  mine: AccountData,
  theirs: AccountData,
): fc.Arbitrary<FuzzBody> {
  if (!endpoint.body) {
    return fc.oneof(
      { weight: 6, arbitrary: fc.constant({ kind: "none" as const }) },
      { weight: 1, arbitrary: strangeBody },
    );
  }
  const known = knownValues(mine, theirs);
  const json = (arbitrary: fc.Arbitrary<unknown>) =>
    arbitrary.map((value) => ({ kind: "json" as const, value }));
  const valid = validBodies(mine)[endpoint.operationId];
  return fc.oneof(
    ...(valid
      ? [
          { weight: 4, arbitrary: json(valid) },
          { weight: 3, arbitrary: json(mutated(valid, known)) },
          { weight: 2, arbitrary: json(tainted(valid)) },
          { weight: 1, arbitrary: overlongBytes(valid) },
        ]
      : []),
    { weight: 2, arbitrary: json(objectBody(fieldsOf(endpoint.body), known)) },
    { weight: 1, arbitrary: fc.constant({ kind: "none" as const }) },
    { weight: 2, arbitrary: strangeBody },
  );
}
