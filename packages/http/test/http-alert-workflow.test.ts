import { isKytHttpError, type KytHttpError } from "@openkyt/client";
import {
  ALERT_STATUSES,
  type AlertStatus,
  alertDetailResponseSchema,
  alertHistoryEntrySchema,
  alertWorkflowResponseSchema,
} from "@openkyt/core";
import { TX, W } from "@openkyt/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { KEYS, rejection, type Served, serve } from "./http-harness.js";
import { rawRequest } from "./raw-request.js";
import { expectWire } from "./wire-expect.js";

/** The alert state machine as docs/http-api.md states it. */
const ALLOWED: Readonly<Record<AlertStatus, ReadonlyArray<AlertStatus>>> = {
  open: ["in_progress"],
  in_progress: ["awaiting_response", "done"],
  awaiting_response: ["in_progress"],
  done: ["open"],
};

/** The allowed moves from `from` to `to` (breadth first over {@link ALLOWED}). */
function route(from: AlertStatus, to: AlertStatus): AlertStatus[] {
  const seen = new Map<AlertStatus, AlertStatus[]>([[from, []]]);
  const queue: AlertStatus[] = [from];
  for (let s = queue.shift(); s !== undefined; s = queue.shift()) {
    for (const next of ALLOWED[s]) {
      if (seen.has(next)) continue;
      seen.set(next, [...(seen.get(s) ?? []), next]);
      queue.push(next);
    }
  }
  return seen.get(to) ?? expect.fail(`no route ${from} -> ${to}`);
}

describe("the alert workflow over HTTP", () => {
  let s: Served;
  let alertIds: string[];
  beforeAll(async () => {
    s = await serve();
    for (const tx of [TX.deposit, TX.mixerDeposit]) {
      await s.acme.registerTransfer({
        direction: "incoming",
        network: "ETH",
        tx_hash: tx,
        output_address: W.client,
      });
    }
    await s.h.engine.drain();
    alertIds = (await s.acme.listAlerts({ page_size: 100 })).items.map((a) => a.id);
    expect(alertIds.length).toBeGreaterThanOrEqual(3);
  });
  afterAll(async () => {
    await s.close();
  });

  const statusOf = async (id: string) => (await s.acme.getAlert(id)).alert_status as AlertStatus;
  const moveTo = async (id: string, target: AlertStatus) => {
    for (const step of route(await statusOf(id), target))
      await s.acme.updateAlert(id, { alert_status: step });
  };

  it("every transition: the allowed ones answer 200, the others 409 with the allowed states and change nothing", async () => {
    const id = alertIds[0] ?? expect.fail("no alert");
    let pairs = 0;
    for (const from of ALERT_STATUSES) {
      for (const to of ALERT_STATUSES) {
        if (from === to) continue;
        pairs += 1;
        await moveTo(id, from);
        const before = await s.acme.getAlert(id);
        const historyBefore = await s.acme.alertHistory(id);
        if (ALLOWED[from].includes(to)) {
          const answer = await s.acme.send("PATCH", `/v1/alerts/${id}/`, { body: { alert_status: to } });
          expect(answer.status, `${from} -> ${to}`).toBe(200);
          const alert = expectWire(alertWorkflowResponseSchema, answer.body);
          expect(alert, `${from} -> ${to}`).toMatchObject({ id, alert_status: to, status: to });
          expect((await s.acme.alertHistory(id)).length).toBe(historyBefore.length + 1);
        } else {
          const error = (await rejection(s.acme.updateAlert(id, { alert_status: to }))) as KytHttpError;
          expect(isKytHttpError(error, "ILLEGAL_TRANSITION"), `${from} -> ${to}`).toBe(true);
          expect(error.status).toBe(409);
          expect(error.allowed, `${from} -> ${to}`).toEqual(ALLOWED[from]);
          expect(error.errors.alert_status?.[0]).toContain(`cannot go from ${from} to ${to}`);
          expect(await s.acme.getAlert(id)).toEqual(before);
          expect(await s.acme.alertHistory(id)).toEqual(historyBefore);
        }
      }
    }
    expect(pairs).toBe(12);
  });

  it("the refusal's body is the error body plus `allowed`", async () => {
    const id = alertIds[1] ?? expect.fail("no second alert");
    await moveTo(id, "open");
    const answer = await rawRequest(s.server.url, {
      method: "PATCH",
      path: `/v1/alerts/${id}/`,
      body: JSON.stringify({ alert_status: "done" }),
    });
    expect(answer.status).toBe(409);
    expect(Object.keys(answer.json).sort()).toEqual(["allowed", "code", "detail", "errors"]);
    expect(answer.json).toMatchObject({
      code: "ILLEGAL_TRANSITION",
      allowed: ["in_progress"],
      errors: { alert_status: [expect.stringContaining("allowed: in_progress")] },
    });
    // A published refusal with no way forward (binding twice) keeps the plain body.
    const attempt = await s.acme.registerAttempt({
      direction: "outgoing",
      network: "ETH",
      output_address: W.a,
    });
    await s.acme.bindTransaction(attempt.id, { tx_hash: TX.aToB });
    const twice = await rawRequest(s.server.url, {
      method: "POST",
      path: `/v1/transfers/${attempt.id}/bind-transaction/`,
      body: JSON.stringify({ tx_hash: TX.aToB }),
    });
    expect(twice.status).toBe(409);
    expect(Object.keys(twice.json).sort()).toEqual(["code", "detail", "errors"]);
    expect(twice.json.errors).toEqual({});
  });

  it("keeps every change with the signing key id as actor, oldest first; updated_at moves; assignee and comments", async () => {
    const id = alertIds[2] ?? expect.fail("no third alert");
    await moveTo(id, "open");
    const start = (await s.acme.alertHistory(id)).length;
    s.h.clock.advance(60_000);
    const before = await s.acme.getAlert(id);
    const taken = await s.acme.updateAlert(id, {
      alert_status: "in_progress",
      assignee: "ana@acme.test",
      comment: "looking",
    });
    expect(taken).toMatchObject({ alert_status: "in_progress", assignee: "ana@acme.test" });
    expect(taken.updated_at).not.toBe(before.updated_at);
    s.h.clock.advance(60_000);
    const noted = await s.acme.updateAlert(id, { comment: "asked the customer" });
    expect(noted).toMatchObject({ alert_status: "in_progress", assignee: "ana@acme.test" });
    expect(Date.parse(noted.updated_at ?? "")).toBe(Date.parse(taken.updated_at ?? "") + 60_000);
    const cleared = await s.acme.updateAlert(id, { assignee: null });
    expect(cleared.assignee).toBeNull();

    const history = expectWire(z.array(alertHistoryEntrySchema), await s.acme.alertHistory(id));
    expect(history[0]).toMatchObject({ from: null, to: "open", actor: null });
    expect(history.slice(start).map((h) => [h.actor, h.from, h.to, h.comment, h.assignee])).toEqual([
      [KEYS.acme.keyId, "open", "in_progress", "looking", "ana@acme.test"],
      [KEYS.acme.keyId, "in_progress", "in_progress", "asked the customer", "ana@acme.test"],
      [KEYS.acme.keyId, "in_progress", "in_progress", null, null],
    ]);
    const times = history.map((h) => Date.parse(h.at));
    expect([...times].sort((a, b) => a - b)).toEqual(times);
    // The published alert shape does not change: no assignee on GET.
    expectWire(alertDetailResponseSchema, await s.acme.getAlert(id));
  });

  it("bulk: every alert changes or none does, in a single transaction", async () => {
    const [a, b] = alertIds as [string, string];
    await moveTo(a, "in_progress");
    await moveTo(b, "open");
    const before = { a: await s.acme.alertHistory(a), b: await s.acme.alertHistory(b) };
    // a (in_progress -> awaiting_response) would be fine; b (open -> awaiting_response) is refused: neither moves.
    const refused = (await rejection(
      s.acme.bulkUpdateAlerts({ ids: [a, b], alert_status: "awaiting_response", comment: "batch" }),
    )) as KytHttpError;
    expect(refused).toMatchObject({ status: 409, code: "ILLEGAL_TRANSITION", allowed: ["in_progress"] });
    expect(refused.detail).toContain(b);
    const missing = await rejection(
      s.acme.bulkUpdateAlerts({ ids: [a, "00000000-0000-0000-0000-000000000000"], alert_status: "done" }),
    );
    expect(missing).toMatchObject({ status: 404, code: "NOT_FOUND" });
    expect({ a: await s.acme.alertHistory(a), b: await s.acme.alertHistory(b) }).toEqual(before);
    expect(await statusOf(a)).toBe("in_progress");

    await moveTo(b, "in_progress");
    const answer = await s.acme.send("POST", "/v1/alerts/bulk-update", {
      body: { ids: [b, a], alert_status: "done", comment: "closed in batch", assignee: "ops" },
    });
    expect(answer.status).toBe(200);
    const updated = expectWire(z.array(alertWorkflowResponseSchema), answer.body);
    expect(updated.map((x) => [x.id, x.alert_status, x.assignee])).toEqual([
      [b, "done", "ops"],
      [a, "done", "ops"],
    ]);
    for (const id of [a, b]) {
      expect((await s.acme.alertHistory(id)).at(-1)).toMatchObject({
        to: "done",
        comment: "closed in batch",
        actor: KEYS.acme.keyId,
      });
    }
  });

  it("validates bodies, naming the field", async () => {
    const id = alertIds[0] ?? "";
    for (const [body, field] of [
      [{ alert_status: "closed" }, "alert_status"],
      [{ alert_status: "open", owner: "x" }, "owner"],
      [{ comment: "x".repeat(2_001) }, "comment"],
      [{}, "non_field_errors"],
    ] as const) {
      const error = (await rejection(s.acme.updateAlert(id, body as never))) as KytHttpError;
      expect(error.status, field).toBe(400);
      expect(Object.keys(error.errors), field).toEqual([field]);
    }
    expect(await rejection(s.acme.bulkUpdateAlerts({ ids: [], alert_status: "done" }))).toMatchObject({
      status: 400,
      errors: { ids: expect.any(Array) },
    });
  });

  it("routes: PATCH beside GET on /v1/alerts/{id}/, with and without the slash; other methods 405", async () => {
    const id = alertIds[0] ?? "";
    await moveTo(id, "open");
    const bare = await rawRequest(s.server.url, {
      method: "PATCH",
      path: `/v1/alerts/${id}`,
      body: JSON.stringify({ alert_status: "in_progress" }),
    });
    expect(bare.status).toBe(200);
    expect(bare.json.alert_status).toBe("in_progress");
    expect((await rawRequest(s.server.url, { method: "GET", path: `/v1/alerts/${id}` })).status).toBe(200);
    expect(
      (await rawRequest(s.server.url, { method: "GET", path: `/v1/alerts/${id}/history` })).json,
    ).toHaveLength((await s.acme.alertHistory(id)).length);
    for (const method of ["PUT", "DELETE", "POST"]) {
      const wrong = await rawRequest(s.server.url, { method, path: `/v1/alerts/${id}/` });
      expect(wrong.status, method).toBe(405);
      expect(wrong.headers.get("allow")).toBe("GET, PATCH");
    }
    const getBulk = await rawRequest(s.server.url, { method: "GET", path: "/v1/alerts/bulk-update/" });
    expect(getBulk.status).toBe(405);
    expect(getBulk.headers.get("allow")).toBe("POST");
    expect(
      (await rawRequest(s.server.url, { method: "PATCH", path: `/v1/alerts/${id}/history/`, body: "{}" }))
        .status,
    ).toBe(405);
  });

  it("another account's alert ids are 404 and stay untouched", async () => {
    const id = alertIds[0] ?? "";
    const before = await s.acme.alertHistory(id);
    for (const attempt of [
      () => s.other.updateAlert(id, { alert_status: "done" }),
      () => s.other.alertHistory(id),
      () => s.other.bulkUpdateAlerts({ ids: [id], alert_status: "done" }),
    ]) {
      expect(await rejection(attempt())).toMatchObject({ status: 404, code: "NOT_FOUND" });
    }
    expect(await s.acme.alertHistory(id)).toEqual(before);
  });

  it("the OpenAPI document describes the workflow", async () => {
    // biome-ignore lint/suspicious/noExplicitAny: the test reads a JSON document
    const doc: any = await (await fetch(`${s.server.url}/v1/openapi.json`)).json();
    expect(Object.keys(doc.paths["/v1/alerts/{id}/"]).sort()).toEqual(["get", "patch"]);
    expect(
      doc.paths["/v1/alerts/{id}/"].patch.requestBody.content["application/json"].schema.properties,
    ).toHaveProperty("alert_status");
    expect(doc.paths["/v1/alerts/{id}/"].patch.responses).toHaveProperty("409");
    expect(doc.paths["/v1/alerts/bulk-update/"].post.operationId).toBe("bulkUpdateAlerts");
    expect(
      doc.paths["/v1/alerts/{id}/history/"].get.responses["200"].content["application/json"].schema.type,
    ).toBe("array");
    expect(doc.components.schemas.ErrorBody.properties).toHaveProperty("allowed");
  });
});
