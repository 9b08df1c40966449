/**
 * Console sessions over a real server: sign-in with e-mail and password (cookie HttpOnly,
 * SameSite=Strict), the same /v1 handlers with the same account scoping, a CSRF token on every
 * write, roles, the user named as the actor of alert changes, sign-out, disabling, expiry and the
 * sign-in rate limit.
 */
import { TX, W } from "@openkyt/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createUserDirectory, type HttpAppOptions } from "../src/index.js";
import { type Served, serve } from "./http-harness.js";

const PASSWORD = "correct horse battery";
const FAST = { N: 1024, r: 8, p: 1 };

interface Session {
  readonly cookie: string;
  readonly csrf: string;
  readonly setCookie: string;
}

async function started(http: Partial<HttpAppOptions> = {}): Promise<Served> {
  const s = await serve({ http });
  const users = createUserDirectory({ store: s.h.store, cost: FAST });
  await users.create({ accountId: "acme", email: "Admin@Acme.test", role: "admin", password: PASSWORD });
  await users.create({ accountId: "acme", email: "analyst@acme.test", role: "analyst", password: PASSWORD });
  await users.create({ accountId: "other", email: "someone@other.test", role: "admin", password: PASSWORD });
  await s.acme.registerTransfer({
    direction: "incoming",
    network: "ETH",
    tx_hash: TX.deposit,
    output_address: W.client,
  });
  await s.other.registerTransfer({
    direction: "incoming",
    network: "ETH",
    tx_hash: TX.mixerDeposit,
    output_address: W.client,
  });
  await s.h.engine.drain();
  return s;
}

async function signIn(s: Served, email: string, password = PASSWORD): Promise<Response> {
  return fetch(`${s.server.url}/v1/session`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ email, password }),
  });
}

async function session(s: Served, email: string): Promise<Session> {
  const response = await signIn(s, email);
  expect(response.status).toBe(200);
  const setCookie = response.headers.get("set-cookie") ?? "";
  const body = (await response.json()) as { csrf_token: string };
  return { cookie: setCookie.split(";")[0] ?? "", csrf: body.csrf_token, setCookie };
}

async function call(s: Served, who: Session, method: string, path: string, body?: unknown, csrf = true) {
  const response = await fetch(`${s.server.url}${path}`, {
    method,
    headers: {
      cookie: who.cookie,
      ...(csrf && method !== "GET" ? { "x-csrf-token": who.csrf } : {}),
      ...(body === undefined ? {} : { "content-type": "application/json" }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  return {
    status: response.status,
    body: text === "" ? null : (JSON.parse(text) as Record<string, unknown>),
  };
}

describe("console sessions", () => {
  let s: Served;
  beforeAll(async () => {
    s = await started();
  });
  afterAll(async () => {
    await s.close();
  });

  it("signs in with the e-mail in any case and sets an HttpOnly, SameSite=Strict cookie", async () => {
    const admin = await session(s, "admin@acme.TEST");
    expect(admin.setCookie).toMatch(
      /^openkyt_session=[A-Za-z0-9_-]{43}; Path=\/; HttpOnly; SameSite=Strict; Max-Age=43200$/,
    );
    const me = await call(s, admin, "GET", "/v1/session");
    expect(me.body).toMatchObject({ user: { email: "admin@acme.test", role: "admin", account: "acme" } });
    expect(me.body?.csrf_token).toBe(admin.csrf);
  });

  it("refuses a wrong password and an unknown e-mail alike, setting no cookie", async () => {
    for (const response of [
      await signIn(s, "analyst@acme.test", "wrong password!"),
      await signIn(s, "nobody@acme.test"),
    ]) {
      expect(response.status).toBe(401);
      expect(response.headers.get("set-cookie")).toBeNull();
      expect(((await response.json()) as { detail: string }).detail).toBe(
        "wrong e-mail or password, or the user is disabled",
      );
    }
  });

  it("reads through the same /v1 handlers, scoped to the user's account", async () => {
    const admin = await session(s, "admin@acme.test");
    const mine = await call(s, admin, "GET", "/v1/alerts/?page_size=100");
    expect(mine.status).toBe(200);
    const viaKey = await s.acme.listAlerts({ page_size: 100 });
    expect(mine.body?.items).toEqual(JSON.parse(JSON.stringify(viaKey.items)));
    const theirs = (await s.other.listAlerts({ page_size: 1 })).items[0]?.id ?? "";
    expect((await call(s, admin, "GET", `/v1/alerts/${theirs}/`)).status).toBe(404);
  });

  it("needs the session's CSRF token on every write, and names the user in the alert history", async () => {
    const analyst = await session(s, "analyst@acme.test");
    const alert = (await s.acme.listAlerts({ page_size: 1 })).items[0]?.id ?? "";
    const without = await call(
      s,
      analyst,
      "PATCH",
      `/v1/alerts/${alert}/`,
      { alert_status: "in_progress" },
      false,
    );
    expect(without.status).toBe(403);
    expect(without.body?.code).toBe("FORBIDDEN");
    const forged = await call(s, { ...analyst, csrf: "x".repeat(32) }, "PATCH", `/v1/alerts/${alert}/`, {
      alert_status: "in_progress",
    });
    expect(forged.status).toBe(403);
    expect((await s.acme.getAlert(alert)).alert_status).toBe("open");
    const moved = await call(s, analyst, "PATCH", `/v1/alerts/${alert}/`, {
      alert_status: "in_progress",
      comment: "looking",
    });
    expect(moved.status).toBe(200);
    const history = await call(s, analyst, "GET", `/v1/alerts/${alert}/history/`);
    expect(
      (history.body as unknown as Array<{ actor: string; comment: string | null }>).at(-1),
    ).toMatchObject({
      actor: "user:analyst@acme.test",
      comment: "looking",
    });
    const illegal = await call(s, analyst, "PATCH", `/v1/alerts/${alert}/`, { alert_status: "open" });
    expect(illegal.status).toBe(409);
    expect(illegal.body?.allowed).toEqual(["awaiting_response", "done"]);
  });

  it("lets analysts read risk models but only admins change them or manage webhooks", async () => {
    const analyst = await session(s, "analyst@acme.test");
    const admin = await session(s, "admin@acme.test");
    expect((await call(s, analyst, "GET", "/v1/risk-models/")).status).toBe(200);
    const copy = { name: "Strict", copy_from: "default" };
    const refused = await call(s, analyst, "POST", "/v1/risk-models/", copy);
    expect(refused.status).toBe(403);
    expect(refused.body?.detail).toBe("this needs the admin role; analyst@acme.test is analyst");
    expect((await call(s, analyst, "GET", "/v1/webhooks/")).status).toBe(403);
    expect((await call(s, admin, "POST", "/v1/risk-models/", copy)).status).toBe(201);
    expect((await call(s, admin, "GET", "/v1/webhooks/")).status).toBe(200);
  });

  it("lets analysts recheck transfers but only admins register them (one, a batch, an attempt, a binding)", async () => {
    const analyst = await session(s, "analyst@acme.test");
    const admin = await session(s, "admin@acme.test");
    const transfer = (await s.acme.listTransfers({ page_size: 1 })).items[0]?.id ?? "";
    const before = (await s.acme.listTransfers({ page_size: 100 })).items.length;
    const one = {
      direction: "incoming",
      network: "ETH",
      tx_hash: `0x${"ab".repeat(32)}`,
      output_address: W.client,
    };
    const writes: Array<[string, unknown]> = [
      ["/v1/transfers/register/", one],
      ["/v1/transfers/register-batch/", { transfers: [one] }],
      [
        "/v1/transfers/register-attempt/",
        { direction: "outgoing", network: "ETH", output_address: W.client },
      ],
      [`/v1/transfers/${transfer}/bind-transaction/`, { tx_hash: `0x${"cd".repeat(32)}` }],
    ];
    for (const [path, body] of writes) {
      const refused = await call(s, analyst, "POST", path, body);
      expect(refused.status, path).toBe(403);
      expect(refused.body?.detail, path).toBe("this needs the admin role; analyst@acme.test is analyst");
    }
    expect((await s.acme.listTransfers({ page_size: 100 })).items.length).toBe(before);
    expect((await call(s, analyst, "POST", `/v1/transfers/${transfer}/recheck-exposure/`)).status).toBe(200);
    expect((await call(s, admin, "POST", "/v1/transfers/register/", one)).status).toBe(201);
  });

  it("ends a session at sign-out (with the CSRF token) and every session of a disabled user", async () => {
    const first = await session(s, "someone@other.test");
    const second = await session(s, "someone@other.test");
    expect((await call(s, first, "DELETE", "/v1/session", undefined, false)).status).toBe(403);
    const out = await fetch(`${s.server.url}/v1/session`, {
      method: "DELETE",
      headers: { cookie: first.cookie, "x-csrf-token": first.csrf },
    });
    expect(out.status).toBe(200);
    expect(out.headers.get("set-cookie")).toMatch(/^openkyt_session=; .*Max-Age=0/);
    expect((await call(s, first, "GET", "/v1/alerts/")).status).toBe(401);
    expect((await call(s, second, "GET", "/v1/alerts/")).status).toBe(200);
    expect(await createUserDirectory({ store: s.h.store }).disable("someone@other.test")).toBe(true);
    expect((await call(s, second, "GET", "/v1/alerts/")).status).toBe(401);
    expect((await signIn(s, "someone@other.test")).status).toBe(401);
  });
});

describe("API keys from the console", () => {
  let s: Served;
  beforeAll(async () => {
    s = await started();
  });
  afterAll(async () => {
    await s.close();
  });

  it("lets an admin create a key (its secret once) that signs requests, and revoke it at once", async () => {
    const admin = await session(s, "admin@acme.test");
    const listed = await call(s, admin, "GET", "/v1/session/api-keys");
    expect((listed.body as unknown as Array<{ id: string }>).map((k) => k.id)).toEqual(["acme-key-0001"]);
    const made = await call(s, admin, "POST", "/v1/session/api-keys");
    expect(made.status).toBe(201);
    const { id, secret } = made.body as { id: string; secret: string };
    const client = s.client({ keyId: id, secret });
    expect((await client.listAlerts({ page_size: 1 })).items).toHaveLength(1);
    const again = await call(s, admin, "GET", "/v1/session/api-keys");
    expect(JSON.stringify(again.body)).not.toContain(secret);
    expect((await call(s, admin, "DELETE", `/v1/session/api-keys/${id}`)).status).toBe(200);
    await expect(client.listAlerts({ page_size: 1 })).rejects.toMatchObject({ status: 401 });
    expect((await call(s, admin, "DELETE", `/v1/session/api-keys/${id}`)).status).toBe(404);
  });

  it("refuses analysts, writes without the CSRF token, and another account's keys", async () => {
    const analyst = await session(s, "analyst@acme.test");
    expect((await call(s, analyst, "GET", "/v1/session/api-keys")).status).toBe(403);
    const admin = await session(s, "admin@acme.test");
    expect((await call(s, admin, "POST", "/v1/session/api-keys", undefined, false)).status).toBe(403);
    expect((await call(s, admin, "DELETE", "/v1/session/api-keys/other-key-0001")).status).toBe(404);
    expect((await s.other.listAlerts({ page_size: 1 })).items).toHaveLength(1);
  });
});

describe("console sessions: lifetime, limits and options", () => {
  it("expires a session after its lifetime", async () => {
    const s = await started({ console: { sessionTtlMs: 200 } });
    try {
      const admin = await session(s, "admin@acme.test");
      expect((await call(s, admin, "GET", "/v1/alerts/")).status).toBe(200);
      await new Promise((done) => setTimeout(done, 300));
      const expired = await call(s, admin, "GET", "/v1/alerts/");
      expect(expired.status).toBe(401);
      expect(expired.body?.detail).toMatch(/sign in again/);
    } finally {
      await s.close();
    }
  });

  it("rate-limits sign-in per e-mail: the sixth quick attempt is refused with 429 even with the right password", async () => {
    const s = await started();
    try {
      for (let i = 0; i < 5; i++)
        expect((await signIn(s, "analyst@acme.test", "wrong password!")).status).toBe(401);
      const limited = await signIn(s, "analyst@acme.test");
      expect(limited.status).toBe(429);
      expect(limited.headers.get("retry-after")).toBe("10");
      expect((await signIn(s, "admin@acme.test")).status).toBe(200);
    } finally {
      await s.close();
    }
  });

  it("marks the cookie Secure when asked, and accepts no session at all when the console is off", async () => {
    const secure = await started({ console: { secureCookie: true } });
    try {
      expect((await session(secure, "admin@acme.test")).setCookie).toMatch(/; Secure$/);
    } finally {
      await secure.close();
    }
    const off = await started({ console: null });
    try {
      expect((await signIn(off, "admin@acme.test")).status).toBe(404);
    } finally {
      await off.close();
    }
  });
});
