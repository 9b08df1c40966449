import { W } from "@openkyt/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type HttpServer, serveHttp } from "../src/index.js";
import { KEYS } from "./http-harness.js";
import {
  createSecurityWorld,
  type HandRequest,
  type SecurityWorld,
  signatureHeaders,
} from "./security-fixture.js";
import { requestBytes, wireExchange } from "./security-wire.js";

const CHECK = "/v1/manual-checks/check-address/";
const BODY = JSON.stringify({ network: "ETH", address: W.sanctioned });
const WINDOW = 5 * 60_000;

describe("authentication attacks: each refused with 401 and no side effect", () => {
  let world: SecurityWorld;
  let server: HttpServer;
  let attacks = 0;
  /** A signed check-address request (a write when accepted), with `change` applied. */
  const check = (change: Partial<HandRequest> = {}): HandRequest => ({
    method: "POST",
    target: CHECK,
    body: BODY,
    ...change,
  });
  /** Sends `r` in-process and asserts a 401 that changed nothing. */
  async function refused(r: HandRequest, detail?: RegExp): Promise<void> {
    const digest = await world.digest();
    const writes = world.store.writeCount();
    const response = await world.send(r);
    const body = (await response.json()) as { detail: string };
    expect(response.status, JSON.stringify(body)).toBe(401);
    expect(body).toMatchObject({ code: "UNAUTHORIZED", errors: {} });
    if (detail) expect(body.detail).toMatch(detail);
    expect(world.store.writeCount()).toBe(writes);
    expect(await world.digest()).toBe(digest);
    attacks += 1;
  }
  /** The signature headers of `r` with API-SIGNATURE replaced. */
  const withSignature = (r: HandRequest, signature: string): HandRequest => ({
    ...r,
    headers: { ...r.headers, "API-SIGNATURE": signature },
  });

  beforeAll(async () => {
    world = await createSecurityWorld();
    server = await serveHttp(world.app, { port: 0 });
  });
  afterAll(async () => {
    console.info(`authentication attacks: ${attacks} refused requests, each without side effect`);
    await server.close();
    await world.close();
  });

  it("a correctly signed request is accepted (the baseline the attacks vary)", async () => {
    const response = await world.send(check());
    expect(response.status).toBe(200);
  });

  it("wrong secret, truncated and padded signatures", async () => {
    await refused(check({ key: { keyId: KEYS.acme.keyId, secret: KEYS.other.secret } }), /signature/);
    await refused(check({ key: { keyId: KEYS.acme.keyId, secret: `${KEYS.acme.secret} ` } }), /signature/);
    const r = check({ timestamp: String(Date.now()) });
    const good = signatureHeaders(r)["API-SIGNATURE"] as string;
    for (const bad of [
      good.slice(0, -2),
      good.slice(0, 22),
      "",
      `${good}=`,
      `${good}AAAA`,
      `${good.slice(0, -1)}A=`,
      `${good}${good}`,
      Buffer.from(good, "base64").toString("hex"),
      good.replaceAll("+", "-").replaceAll("/", "_"),
      `${"A".repeat(43)}=`,
    ]) {
      if (bad === good) continue;
      await refused(withSignature(r, bad));
    }
  });

  it("a signature of another path, method, body or key", async () => {
    const timestamp = String(Date.now());
    const sigOf = (r: HandRequest) => signatureHeaders({ ...r, timestamp })["API-SIGNATURE"] as string;
    const r = check({ timestamp });
    await refused(withSignature(r, sigOf(check({ target: "/v1/manual-checks/check-transfer/" }))));
    await refused(withSignature(r, sigOf(check({ method: "PUT" }))));
    await refused(
      withSignature(r, sigOf(check({ body: JSON.stringify({ network: "ETH", address: W.exchange }) }))),
    );
    await refused(withSignature(r, sigOf(check({ body: "" }))));
    await refused(withSignature(r, sigOf(check({ key: KEYS.other }))));
    // Another account's key id with this account's signature, and the reverse.
    await refused({ ...r, headers: { "API-KEY-ID": KEYS.other.keyId } });
  });

  it("the query string changed, added or removed after signing", async () => {
    const timestamp = String(Date.now());
    const signed = (target: string) =>
      signatureHeaders({ method: "GET", target, timestamp })["API-SIGNATURE"] as string;
    const get = (target: string, signedTarget: string): HandRequest => ({
      method: "GET",
      target,
      timestamp,
      headers: { "API-SIGNATURE": signed(signedTarget) },
    });
    await refused(get("/v1/transfers/?client_id=acme-client-2", "/v1/transfers/?client_id=acme-client-1"));
    await refused(get("/v1/transfers/?client_id=acme-client-1", "/v1/transfers/"));
    await refused(get("/v1/transfers/", "/v1/transfers/?client_id=acme-client-1"));
    await refused(get("/v1/transfers/?page=1&page_size=5", "/v1/transfers/?page_size=5&page=1"));
    await refused(get("/v1/transfers/?page_size=5", "/v1/transfers?page_size=6"));
  });

  it("a timestamp outside the window either way, or not in milliseconds", async () => {
    const now = Date.now();
    for (const at of [now - WINDOW - 5_000, now + WINDOW + 5_000, 0, now - 24 * 3_600_000]) {
      await refused(check({ timestamp: String(at) }), /window/);
    }
    await refused(check({ timestamp: String(Math.floor(now / 1000)) }), /window|milliseconds/);
    for (const stamp of ["", "-1", "1e12", `${now}.5`, "0x1", " ", `${now}${now}`, "12\u00b3"]) {
      await refused(check({ timestamp: stamp }));
    }
  });

  it("a captured signed POST replayed: accepted once, refused after, also over HTTP", async () => {
    const captured = check({ timestamp: String(Date.now()) });
    expect((await world.send(captured)).status).toBe(200);
    await refused(captured, /replay/);
    await refused(captured, /replay/);
    // The same bytes over a real connection.
    const headers = Object.entries(signatureHeaders(captured));
    const digest = await world.digest();
    const answer = await wireExchange(server.port, [requestBytes("POST", CHECK, headers, BODY)]);
    expect(answer.status).toBe(401);
    expect(JSON.parse(answer.body)).toMatchObject({ code: "UNAUTHORIZED" });
    expect(await world.digest()).toBe(digest);
    attacks += 1;
  });

  it("a replay spelled differently (no padding, other unused bits) is still a replay", async () => {
    const captured = check({ timestamp: String(Date.now()) });
    const good = signatureHeaders(captured)["API-SIGNATURE"] as string;
    // 32 bytes are 43 Base64 characters and "=": the 43rd carries 2 bits that decoding drops.
    const last = good.charAt(42);
    const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    const base = alphabet.indexOf(last) & ~3;
    const spellings = [0, 1, 2, 3].map((bits) => `${good.slice(0, 42)}${alphabet[base + bits]}`);
    expect(spellings.map((s) => Buffer.from(s, "base64").equals(Buffer.from(good, "base64")))).toEqual([
      true,
      true,
      true,
      true,
    ]);
    expect((await world.send(captured)).status).toBe(200);
    for (const spelling of spellings) {
      await refused(withSignature(captured, spelling), /replay/);
      await refused(withSignature(captured, `${spelling}=`), /replay/);
    }
  });

  it("header injection over a raw connection: CR/LF, NUL, folding, duplicates", async () => {
    const r = check({ timestamp: String(Date.now()) });
    const good = Object.entries(signatureHeaders(r)) as Array<[string, string]>;
    const [id, stamp, sig] = good as [[string, string], [string, string], [string, string]];
    const variants: Array<Array<readonly [string, string]>> = [
      [id, stamp, sig, ["API-KEY-ID", KEYS.other.keyId]],
      [["API-KEY-ID", KEYS.other.keyId], id, stamp, sig],
      [id, stamp, sig, sig],
      [id, stamp, stamp, sig],
      [[id[0], `${id[1]}\rX-Evil: 1`], stamp, sig],
      [[id[0], `${id[1]}\nX-Evil: 1`], stamp, sig],
      [[id[0], `${id[1]}\u0000`], stamp, sig],
      [id, stamp, [sig[0], `${sig[1].slice(0, 20)}\r\n ${sig[1].slice(20)}`]],
      [
        [id[0].toLowerCase(), id[1]],
        ["Api-Timestamp", stamp[1]],
        [sig[0], `\t${sig[1]}\t`],
        ["api-signature", "x"],
      ],
    ];
    const digest = await world.digest();
    for (const headers of variants) {
      const answer = await wireExchange(server.port, [requestBytes("POST", CHECK, headers, BODY)]);
      // 401 from the app, or 400 from Node's HTTP parser for bytes a header may not hold.
      expect([400, 401], JSON.stringify(headers)).toContain(answer.status);
      if (answer.status === 401) expect(JSON.parse(answer.body)).toMatchObject({ code: "UNAUTHORIZED" });
      attacks += 1;
    }
    expect(await world.digest()).toBe(digest);
  });

  it("absurdly long headers: 401 up to Node's 16 KiB header limit, 431 past it, the server unharmed", async () => {
    const digest = await world.digest();
    const r = check({ timestamp: String(Date.now()) });
    const headers = Object.entries(signatureHeaders(r));
    for (const [name, size, expected] of [
      ["API-KEY-ID", 8_000, 401],
      ["API-SIGNATURE", 8_000, 401],
      ["API-TIMESTAMP", 8_000, 401],
      ["API-KEY-ID", 100_000, 431],
      ["X-Padding", 1_000_000, 431],
    ] as const) {
      const long = headers.map(([n, v]) => [n, n === name ? "9".repeat(size) : v] as const);
      const padded = name === "X-Padding" ? [...headers, [name, "x".repeat(size)] as const] : long;
      const answer = await wireExchange(server.port, [requestBytes("POST", CHECK, padded, BODY)]);
      expect(answer.status, `${name} of ${size}`).toBe(expected);
      attacks += 1;
    }
    const many = Array.from({ length: 3_000 }, (_, i) => [`X-H${i}`, "1"] as const);
    const answer = await wireExchange(server.port, [
      requestBytes("POST", CHECK, [...many, ...headers], BODY),
    ]);
    expect([401, 431]).toContain(answer.status);
    expect(await world.digest()).toBe(digest);
    const healthy = await fetch(`${server.url}/healthz`);
    expect(healthy.status).toBe(200);
  });
});
