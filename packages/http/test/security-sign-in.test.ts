/**
 * Console sign-in that another site cannot force (login CSRF) and that an outsider cannot turn
 * into a lockout of the real user. Over a real server on 127.0.0.1.
 */
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
