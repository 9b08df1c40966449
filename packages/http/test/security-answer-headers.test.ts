/**
 * Every JSON answer of the interface says `Cache-Control: no-store` and
 * `X-Content-Type-Options: nosniff`: signed answers (the fast path), errors, the console's
 * session and API-key list, and the operations routes.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createUserDirectory } from "../src/index.js";
import { type Served, serve } from "./http-harness.js";

const PASSWORD = "correct horse battery staple";

describe("answers that no cache keeps and no browser sniffs", () => {
  let s: Served;
  let cookie = "";
  beforeAll(async () => {
    s = await serve();
    const users = createUserDirectory({ store: s.h.store, cost: { N: 1024, r: 8, p: 1 } });
    await users.create({ accountId: "acme", email: "admin@acme.test", role: "admin", password: PASSWORD });
    const signed = await fetch(`${s.server.url}/v1/session`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: s.server.url },
      body: JSON.stringify({ email: "admin@acme.test", password: PASSWORD }),
    });
    expect(signed.status).toBe(200);
    cookie = (signed.headers.get("set-cookie") ?? "").split(";")[0] ?? "";
  });
  afterAll(() => s.close());

  function expectSafe(response: Response, what: string): void {
    expect(response.headers.get("cache-control"), what).toBe("no-store");
    expect(response.headers.get("x-content-type-options"), what).toBe("nosniff");
  }

  it("marks signed answers, errors and unknown paths", async () => {
    // A signed answer from the endpoint runner, through the client's fetch.
    let seen: Response | undefined;
    const client = s.client({
      fetch: async (input, init) => {
        seen = await fetch(input, init);
        return seen;
      },
    });
    await client.listAlerts({ page_size: 1 });
    expect(seen?.status).toBe(200);
    expectSafe(seen as Response, "signed list");
    expectSafe(await fetch(`${s.server.url}/v1/alerts/`), "401 without signature");
    expectSafe(await fetch(`${s.server.url}/v1/nothing-here`), "404");
    expectSafe(await fetch(`${s.server.url}/healthz`), "healthz");
  });

  it("marks the console's session and its list of API keys", async () => {
    for (const path of ["/v1/session", "/v1/session/api-keys"]) {
      const response = await fetch(`${s.server.url}${path}`, { headers: { cookie } });
      expect(response.status, path).toBe(200);
      expectSafe(response, path);
    }
  });
});
