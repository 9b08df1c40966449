import { TX } from "@openkyt/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ENDPOINTS } from "../src/index.js";
import { KEYS } from "./http-harness.js";
import { type AccountName, createSecurityWorld, type SecurityWorld } from "./security-fixture.js";

/** A valid body of each operation on an id, so a refusal is about the id and nothing else. */
const BODIES: Readonly<Record<string, unknown>> = {
  bindTransaction: { tx_hash: TX.exchangeDeposit },
  updateAlert: { alert_status: "done", comment: "mine now" },
  replaceRiskModel: { name: "taken over", copy_from: "default", change_reason: "taken over" },
  decideCase: { outcome: "false_positive", comment: "taken over" },
  approveRiskModelVersion: { version: 1 },
  rejectRiskModelVersion: { version: 1, reason: "taken over" },
};

const pairs: ReadonlyArray<readonly [AccountName, AccountName]> = [
  ["other", "acme"],
  ["acme", "other"],
];

describe("access control: every endpoint, called with the other account's ids and values", () => {
  let world: SecurityWorld;
  let cases = 0;
  /** Sends as `caller`; asserts no byte of `owner`'s data comes back but what the request itself named. */
  async function call(
    caller: AccountName,
    owner: AccountName,
    method: string,
    target: string,
    body?: unknown,
  ) {
    const text = body === undefined ? undefined : JSON.stringify(body);
    const response = await world.send({
      method,
      target,
      key: KEYS[caller],
      ...(text === undefined ? {} : { body: text }),
    });
    const answer = new TextDecoder().decode(await response.arrayBuffer());
    const sent = `${target} ${text ?? ""}`;
    const leaked = world.data[owner].secrets.filter((s) => answer.includes(s) && !sent.includes(s));
    expect(leaked, `${caller} ${method} ${target} leaked ${owner}'s data`).toEqual([]);
    cases += 1;
    return { status: response.status, answer };
  }

  beforeAll(async () => {
    world = await createSecurityWorld();
  });
  afterAll(async () => {
    console.info(`access matrix: ${cases} requests across both accounts, none leaked`);
    await world.close();
  });

  it.each(pairs)(
    "%s gets 404 for every endpoint on every id of %s, and changes nothing",
    async (caller, owner) => {
      const before = await world.digest();
      const d = world.data[owner];
      const ids = [...d.transferIds, ...d.checkIds, ...d.alertIds, d.riskModelId, d.webhookId];
      // The address page's {id} is an address, not a resource of an account (a uuid is a 400, not
      // a 404); that another account sees none of its transfers is checked in http-case-reports.
      const onId = ENDPOINTS.filter((e) => e.path.includes("{id}") && e.operationId !== "getAddressProfile");
      expect(onId.length).toBeGreaterThanOrEqual(20);
      for (const endpoint of onId) {
        for (const id of ids) {
          for (const path of [endpoint.path, endpoint.path.slice(0, -1)]) {
            const { status } = await call(
              caller,
              owner,
              endpoint.method,
              path.replace("{id}", id),
              BODIES[endpoint.operationId],
            );
            expect(status, `${caller} ${endpoint.method} ${endpoint.path} with ${owner}'s ${id}`).toBe(404);
          }
        }
      }
      expect(await world.digest()).toBe(before);
    },
  );

  it.each(pairs)("%s cannot name %s's alerts or risk models in a body", async (caller, owner) => {
    const before = await world.digest();
    const d = world.data[owner];
    const bulk = await call(caller, owner, "POST", "/v1/alerts/bulk-update/", {
      ids: [...d.alertIds],
      alert_status: "done",
    });
    expect(bulk.status).toBe(404);
    const mine = world.data[caller].alertIds;
    for (const ids of [
      [...d.alertIds, ...mine],
      [...mine, ...d.alertIds],
    ]) {
      // All or nothing: the caller's own alerts are not changed either (the digest below).
      const mixed = await call(caller, owner, "POST", "/v1/alerts/bulk-update/", {
        ids,
        alert_status: "done",
      });
      expect([404, 409]).toContain(mixed.status);
    }
    // Item by item: each of the owner's alerts is a 404 of its own, and nothing changes.
    const each = await call(caller, owner, "POST", "/v1/alerts/bulk-change/", {
      ids: [...d.alertIds],
      alert_status: "in_progress",
    });
    expect(each.status).toBe(200);
    const items = (JSON.parse(each.answer) as { items: Array<{ status: number }> }).items;
    expect(items.map((i) => i.status)).toEqual(d.alertIds.map(() => 404));
    const copy = await call(caller, owner, "POST", "/v1/risk-models/", {
      name: "copy",
      copy_from: d.riskModelId,
    });
    expect(copy.status).toBe(400);
    const register = await call(caller, owner, "POST", "/v1/transfers/register/", {
      direction: "incoming",
      network: "ETH",
      tx_hash: TX.deposit,
      output_address: world.data[caller].address,
      risk_model: d.riskModelId,
    });
    expect(register.status).toBe(400);
    const check = await call(caller, owner, "POST", "/v1/manual-checks/check-address/", {
      network: "ETH",
      address: d.address,
      risk_model: d.riskModelId,
    });
    expect(check.status).toBe(400);
    expect(await world.digest()).toBe(before);
  });

  it.each(pairs)("%s's lists filtered by %s's values are empty", async (caller, owner) => {
    const d = world.data[owner];
    const filters: Array<[string, string]> = [
      ...d.clientIds.map((v) => ["client_id", v] as [string, string]),
      ...d.txHashes.map((v) => ["tx_hash", v] as [string, string]),
      ["output_address", d.address],
      ["input_address", d.address],
    ];
    for (const list of ["/v1/transfers/", "/v1/alerts/"]) {
      for (const [name, value] of filters) {
        if (list === "/v1/alerts/" && name !== "client_id") continue;
        const target = `${list}?${new URLSearchParams({ [name]: value, page_size: "100" })}`;
        const { status, answer } = await call(caller, owner, "GET", target);
        expect(status, target).toBe(200);
        expect(JSON.parse(answer), target).toMatchObject({ total_items: 0, items: [] });
      }
    }
  });

  it.each(pairs)("nothing %s reads of its own shows %s's data", async (caller, owner) => {
    const mine = world.data[caller];
    const lists = ["/v1/transfers/", "/v1/manual-checks/", "/v1/alerts/"].map((l) => `${l}?page_size=100`);
    for (const list of [...lists, "/v1/risk-models/", "/v1/webhooks/"]) {
      const { status, answer } = await call(caller, owner, "GET", list);
      expect(status).toBe(200);
      expect(answer.length).toBeGreaterThan(2);
    }
    const ids = [...mine.transferIds, ...mine.checkIds, ...mine.alertIds, mine.riskModelId, mine.webhookId];
    for (const endpoint of ENDPOINTS.filter((e) => e.method === "GET" && e.path.includes("{id}"))) {
      for (const id of ids) await call(caller, owner, "GET", endpoint.path.replace("{id}", id));
    }
  });

  it("a revoked key fails at once, also for a request it signed before", async () => {
    const spare = { keyId: "acme-spare-key-01", secret: "acme-spare-secret-0123456789" };
    await world.h.engine.apiKeys.provision(spare.keyId, spare.secret, "acme");
    const target = `/v1/transfers/${world.data.acme.transferIds[0]}/`;
    const before = await world.send({ method: "GET", target, key: spare });
    expect(before.status).toBe(200);
    const signedEarlier = { method: "POST", target: "/v1/manual-checks/check-address/", key: spare };
    const body = JSON.stringify({ network: "ETH", address: world.data.acme.address });
    const timestamp = String(Date.now());
    expect(await world.h.engine.apiKeys.revoke(spare.keyId)).toBe(true);
    const digest = await world.digest();
    for (const r of [
      { method: "GET", target, key: spare },
      { ...signedEarlier, body, timestamp },
    ]) {
      const response = await world.send(r);
      expect(response.status).toBe(401);
      expect(await response.json()).toMatchObject({
        code: "UNAUTHORIZED",
        detail: "the request signature is not valid for this API key",
      });
      cases += 1;
    }
    expect(await world.digest()).toBe(digest);
  });
});
