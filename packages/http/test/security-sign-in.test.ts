/**
 * Console sign-in that another site cannot force (login CSRF) and that an outsider cannot turn
 * into a lockout of the real user. Over a real server on 127.0.0.1.
 */
import { request } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createUserDirectory } from "../src/index.js";
import { type Served, serve } from "./http-harness.js";

const PASSWORD = "correct horse battery staple";

async function started(): Promise<Served> {
  const s = await serve();
  const users = createUserDirectory({ store: s.h.store, cost: { N: 1024, r: 8, p: 1 } });
  await users.create({ accountId: "acme", email: "admin@acme.test", role: "admin", password: PASSWORD });
  await users.create({ accountId: "acme", email: "analyst@acme.test", role: "analyst", password: PASSWORD });
  return s;
}

describe("login CSRF: sign-in only as JSON from the console's own origin", () => {
  let s: Served;
  beforeAll(async () => {
    s = await started();
  });
  afterAll(() => s.close());

  const credentials = JSON.stringify({ email: "admin@acme.test", password: PASSWORD });
  const post = (headers: Record<string, string>, body = credentials) =>
    fetch(`${s.server.url}/v1/session`, { method: "POST", headers, body });

  it("refuses a cross-site form's text/plain, urlencoded and multipart bodies (415, no cookie)", async () => {
    for (const type of [
      "text/plain",
      "application/x-www-form-urlencoded",
      "multipart/form-data; boundary=x",
    ]) {
      const response = await post({ "content-type": type });
      expect(response.status, type).toBe(415);
      expect(response.headers.get("set-cookie"), type).toBeNull();
      expect(((await response.json()) as { code: string }).code).toBe("UNSUPPORTED_MEDIA_TYPE");
    }
    const none = await fetch(`${s.server.url}/v1/session`, {
      method: "POST",
      body: new Blob([credentials]),
    });
    expect(none.status).toBe(415);
  });

  it("refuses JSON that a browser marks as coming from another site (403, no cookie)", async () => {
    const json = { "content-type": "application/json" };
    const refused: Array<Record<string, string>> = [
      { ...json, origin: "https://attacker.example" },
      { ...json, origin: "null" },
      { ...json, origin: s.server.url.replace("127.0.0.1", "localhost") },
      { ...json, "sec-fetch-site": "cross-site" },
      { ...json, "sec-fetch-site": "same-site" },
      { ...json, origin: s.server.url, "sec-fetch-site": "cross-site" },
    ];
    for (const headers of refused) {
      const response = await post(headers);
      expect(response.status, JSON.stringify(headers)).toBe(403);
      expect(response.headers.get("set-cookie")).toBeNull();
    }
  });

  it("accepts JSON from the console's own origin, and from a client that is not a browser", async () => {
    const accepted: Array<Record<string, string>> = [
      { "content-type": "application/json", origin: s.server.url, "sec-fetch-site": "same-origin" },
      { "content-type": "application/json; charset=utf-8", origin: s.server.url },
      { "content-type": "application/json" },
    ];
    for (const headers of accepted) {
      const response = await post(headers);
      expect(response.status, JSON.stringify(headers)).toBe(200);
      expect(response.headers.get("set-cookie")).toMatch(/^openkyt_session=/);
    }
  });
});

/** A sign-in POST from `localAddress` (a loopback address of this machine). */
function signInFrom(port: number, localAddress: string, email: string, password: string): Promise<number> {
  const body = JSON.stringify({ email, password });
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: "127.0.0.1",
        port,
        method: "POST",
        path: "/v1/session",
        localAddress,
        agent: false,
        headers: { "content-type": "application/json", "content-length": Buffer.byteLength(body) },
      },
      (res) => {
        res.resume();
        res.on("end", () => resolve(res.statusCode ?? 0));
      },
    );
    req.on("error", reject);
    req.end(body);
  });
}

describe("sign-in limits an outsider cannot turn against the owner", () => {
  let s: Served;
  beforeAll(async () => {
    s = await started();
  });
  afterAll(() => s.close());

  it("locks an e-mail out only from the address that guessed wrong, admins included", async () => {
    const port = s.server.port;
    for (const email of ["admin@acme.test", "analyst@acme.test"]) {
      for (let i = 0; i < 5; i++)
        expect(await signInFrom(port, "127.0.0.2", email, "wrong password!")).toBe(401);
      // The attacker's address is refused, even with the right password.
      expect(await signInFrom(port, "127.0.0.2", email, PASSWORD)).toBe(429);
      // The owner, from another address, signs in.
      expect(await signInFrom(port, "127.0.0.3", email, PASSWORD)).toBe(200);
    }
  });

  it("refuses guesses spread over many addresses only to addresses that failed, never the owner's", async () => {
    const t = await started();
    try {
      // 50 failures per e-mail in all spend its budget: 10 addresses x 5 failures.
      for (let a = 10; a < 20; a++)
        for (let i = 0; i < 5; i++)
          expect(await signInFrom(t.server.port, `127.0.1.${a}`, "admin@acme.test", "wrong password!")).toBe(
            401,
          );
      // A fresh attacker address that failed once is now refused at its second try...
      expect(await signInFrom(t.server.port, "127.0.2.1", "admin@acme.test", "wrong password!")).toBe(401);
      expect(await signInFrom(t.server.port, "127.0.2.1", "admin@acme.test", "wrong password!")).toBe(429);
      // ...while the owner, from an address with no failure, signs in.
      expect(await signInFrom(t.server.port, "127.0.0.3", "admin@acme.test", PASSWORD)).toBe(200);
    } finally {
      await t.close();
    }
  });
});
