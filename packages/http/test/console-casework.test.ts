/**
 * Casework from the console over a real server: the users page (roles, disabling, never
 * yourself), assignees that must be users, a case decided in the user's name, the audit log
 * (admins only, CSV export with formula cells made text), saved views per user, named API keys.
 */
import { TX, W } from "@openkyt/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createUserDirectory } from "../src/index.js";
import { type Served, serve } from "./http-harness.js";

const PASSWORD = "correct horse battery";
const FAST = { N: 1024, r: 8, p: 1 };

interface Session {
  readonly cookie: string;
  readonly csrf: string;
}

async function session(s: Served, email: string, password = PASSWORD): Promise<Session> {
  const response = await fetch(`${s.server.url}/v1/session`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ email, password }),
  });
  expect(response.status, `sign-in of ${email}`).toBe(200);
  const body = (await response.json()) as { csrf_token: string };
  return { cookie: (response.headers.get("set-cookie") ?? "").split(";")[0] ?? "", csrf: body.csrf_token };
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
  const json = response.headers.get("content-type")?.includes("json") && text !== "";
  return {
    status: response.status,
    // biome-ignore lint/suspicious/noExplicitAny: test answers are read field by field
    body: (json ? JSON.parse(text) : text) as any,
    headers: response.headers,
  };
}

describe("casework from the console", () => {
  let s: Served;
  let admin: Session;
  let analyst: Session;
  let analystId: string;
  beforeAll(async () => {
    s = await serve({});
    const users = createUserDirectory({ store: s.h.store, cost: FAST });
    await users.create({ accountId: "acme", email: "admin@acme.test", role: "admin", password: PASSWORD });
    analystId = (
      await users.create({ accountId: "acme", email: "ana@acme.test", role: "analyst", password: PASSWORD })
    ).id;
    await users.create({ accountId: "other", email: "boss@other.test", role: "admin", password: PASSWORD });
    await s.acme.registerTransfer({
      direction: "incoming",
      network: "ETH",
      tx_hash: TX.mixerDeposit,
      output_address: W.client,
    });
    await s.h.engine.drain();
    admin = await session(s, "admin@acme.test");
    analyst = await session(s, "ana@acme.test");
  }, 60_000);
  afterAll(async () => {
    await s?.close();
  });

  it("lists the account's users to everyone; only admins change them, never themselves", async () => {
    const listed = await call(s, analyst, "GET", "/v1/session/users");
    expect(listed.status).toBe(200);
    expect(listed.body.map((u: { email: string }) => u.email)).toEqual(["admin@acme.test", "ana@acme.test"]);
    expect(JSON.stringify(listed.body)).not.toMatch(/scrypt|password/);
    const byAnalyst = await call(s, analyst, "POST", "/v1/session/users", {
      email: "new@acme.test",
      role: "analyst",
      password: "another long passphrase",
    });
    expect(byAnalyst.status).toBe(403);
    const noCsrf = await call(s, admin, "POST", "/v1/session/users", {}, false);
    expect(noCsrf.status).toBe(403);
    const created = await call(s, admin, "POST", "/v1/session/users", {
      email: "New@Acme.test",
      role: "analyst",
      password: "another long passphrase",
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ email: "new@acme.test", role: "analyst", disabled_at: null });
    const promoted = await call(s, admin, "PATCH", `/v1/session/users/${created.body.id}`, { role: "admin" });
    expect(promoted.body.role).toBe("admin");
    const disabled = await call(s, admin, "PATCH", `/v1/session/users/${created.body.id}`, {
      disabled: true,
    });
    expect(disabled.body.disabled_at).not.toBeNull();
    const me = (await call(s, admin, "GET", "/v1/session")).body.user.id;
    expect((await call(s, admin, "PATCH", `/v1/session/users/${me}`, { role: "analyst" })).status).toBe(409);
    const boss = await session(s, "boss@other.test");
    expect((await call(s, boss, "PATCH", `/v1/session/users/${analystId}`, { disabled: true })).status).toBe(
      404,
    );
    const log = await call(s, admin, "GET", "/v1/session/audit?actor=user:admin@acme.test");
    const actions = log.body.items.map((e: { action: string }) => e.action);
    expect(actions).toEqual(
      expect.arrayContaining(["user.created", "user.role_changed", "user.disabled", "session.signed_in"]),
    );
  });

  it("assigns only to users, decides a case in the user's name, and audits it", async () => {
    const queue = await call(s, analyst, "GET", "/v1/queue/?sort=level");
    expect(queue.status).toBe(200);
    const alert = queue.body.items[0];
    expect(alert).toMatchObject({ assignee: null, breached: false });
    const typo = await call(s, analyst, "PATCH", `/v1/alerts/${alert.id}/`, { assignee: "ana@acme.tset" });
    expect(typo.status).toBe(400);
    expect(typo.body.errors.assignee).toBeDefined();
    expect(
      (await call(s, analyst, "PATCH", `/v1/alerts/${alert.id}/`, { assignee: "ana@acme.test" })).status,
    ).toBe(200);
    const mine = await call(s, analyst, "GET", "/v1/queue/?assignee=ana@acme.test");
    expect(mine.body.items.map((a: { id: string }) => a.id)).toEqual([alert.id]);
    const caseId = alert.transfer.id;
    const noComment = await call(s, analyst, "POST", `/v1/cases/${caseId}/decision/`, {
      outcome: "true_positive",
    });
    expect(noComment.status).toBe(400);
    const decided = await call(s, analyst, "POST", `/v1/cases/${caseId}/decision/`, {
      outcome: "reported_to_fiu",
      comment: "=cmd|' /C calc'!A0 reported",
    });
    expect(decided.status).toBe(200);
    expect(decided.body).toMatchObject({ status: "closed", outcome: "reported_to_fiu" });
    expect(decided.body.decisions[0].actor).toBe("user:ana@acme.test");
    // The alerts' CSV export carries the stored decision's outcome.
    const exported = await call(s, analyst, "GET", "/v1/alerts/export/");
    expect(exported.status).toBe(200);
    const row = (exported.body as string).split("\r\n").find((line) => line.includes(alert.id));
    expect(row).toContain("reported_to_fiu");
    // The audit log is for admins; its CSV export makes a formula a text cell.
    expect((await call(s, analyst, "GET", "/v1/session/audit")).status).toBe(403);
    const csv = await call(s, admin, "GET", "/v1/session/audit.csv?action=case.decided");
    expect(csv.status).toBe(200);
    expect(csv.headers.get("content-type")).toMatch(/text\/csv/);
    const lines = (csv.body as string).trim().split("\r\n");
    expect(lines[0]).toBe("at,actor,action,subject,details,id");
    expect(lines).toHaveLength(2);
    expect(lines[1]).toContain("user:ana@acme.test,case.decided");
    expect(lines[1]).not.toMatch(/,=cmd/);
  });

  it("keeps saved views per user and names API keys, with revocation audited", async () => {
    const saved = await call(s, analyst, "POST", "/v1/session/views", {
      name: "severe open",
      query: "risk_level=severe&alert_status=open",
    });
    expect(saved.status).toBe(201);
    expect(
      (await call(s, analyst, "POST", "/v1/session/views", { name: "severe open", query: "" })).status,
    ).toBe(409);
    expect(
      (await call(s, analyst, "POST", "/v1/session/views", { name: "bad", query: "a=<b>" })).status,
    ).toBe(400);
    expect((await call(s, admin, "GET", "/v1/session/views")).body).toEqual([]);
    expect((await call(s, admin, "DELETE", `/v1/session/views/${saved.body.id}`)).status).toBe(404);
    expect((await call(s, analyst, "DELETE", `/v1/session/views/${saved.body.id}`)).status).toBe(200);
    const key = await call(s, admin, "POST", "/v1/session/api-keys", { name: "payments service" });
    expect(key.status).toBe(201);
    expect(key.body.name).toBe("payments service");
    const keys = await call(s, admin, "GET", "/v1/session/api-keys");
    expect(keys.body.find((k: { id: string }) => k.id === key.body.id).name).toBe("payments service");
    expect((await call(s, admin, "DELETE", `/v1/session/api-keys/${key.body.id}`)).status).toBe(200);
    const log = await call(s, admin, "GET", `/v1/session/audit?subject=${key.body.id}`);
    // Both may fall in the same millisecond: compared as a set.
    expect(log.body.items.map((e: { action: string }) => e.action).sort()).toEqual([
      "api_key.created",
      "api_key.revoked",
    ]);
  });
});
