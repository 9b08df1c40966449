import { beforeEach, describe, expect, it } from "vitest";
import { loadWorld, TX, W } from "../../../testkit/src/engine-world.js";
import { ALERT_STATUSES } from "../../src/domain/enums.js";
import { createEngine, type Engine } from "../../src/engine/create-engine.js";
import { isKytError } from "../../src/errors.js";
import { ALERT_STATUS_MACHINE, allowedNext } from "../../src/machines/index.js";
import { manualClock } from "../../src/ports/runtime.js";
import { createMemoryStore } from "../../src/store/index.js";

let engine: Engine;
let alertIds: string[];
const clock = manualClock(Date.UTC(2024, 0, 2));

beforeEach(async () => {
  engine = createEngine({ store: createMemoryStore(), clock });
  await loadWorld(engine);
  const acme = engine.forAccount("acme");
  await acme.registerTransfer({
    direction: "incoming",
    network: "ETH",
    tx_hash: TX.deposit,
    output_address: W.client,
  });
  await acme.registerTransfer({
    direction: "incoming",
    network: "ETH",
    tx_hash: TX.mixerDeposit,
    output_address: W.client,
  });
  await engine.drain();
  alertIds = (await acme.listAlerts({})).items.map((a) => a.id);
});

const acme = () => engine.forAccount("acme");

describe("alert workflow", () => {
  it("walks every allowed transition, and refuses every other one from each state with the allowed states", async () => {
    const id = alertIds[0] ?? "";
    // open -> in_progress -> awaiting_response -> in_progress -> done -> open: every allowed move once.
    const path = ["in_progress", "awaiting_response", "in_progress", "done", "open"] as const;
    let from = (await acme().getAlert(id)).alert_status;
    expect(from).toBe("open");
    for (const next of path) {
      for (const to of ALERT_STATUSES) {
        if (to === from || allowedNext(ALERT_STATUS_MACHINE, from).includes(to)) continue;
        const refused = await acme()
          .updateAlert(id, { alert_status: to })
          .catch((e) => e);
        expect(isKytError(refused, "ILLEGAL_TRANSITION"), `${from} -> ${to}`).toBe(true);
        expect(refused.details.allowed).toEqual(allowedNext(ALERT_STATUS_MACHINE, from));
        expect((await acme().getAlert(id)).alert_status).toBe(from);
      }
      expect(allowedNext(ALERT_STATUS_MACHINE, from)).toContain(next);
      expect((await acme().updateAlert(id, { alert_status: next })).alert_status).toBe(next);
      from = next;
    }
    // Refusals wrote nothing: the history holds the opening and the five moves only.
    expect((await acme().getAlertHistory(id)).map((h) => h.to)).toEqual(["open", ...path]);
  });

  it("keeps every change in the history with who, when, from, to, comment and assignee; updated_at moves", async () => {
    const id = alertIds[0] ?? "";
    clock.advance(60_000);
    const updated = await acme().updateAlert(
      id,
      { alert_status: "in_progress", assignee: "ana@acme.test", comment: "looking" },
      { actor: "key-1" },
    );
    expect(updated).toMatchObject({
      alert_status: "in_progress",
      status: "in_progress",
      assignee: "ana@acme.test",
    });
    expect(updated.updated_at).not.toBeNull();
    clock.advance(60_000);
    await acme().updateAlert(id, { comment: "asked the customer" }, { actor: "key-2" });
    const history = await acme().getAlertHistory(id);
    expect(history.map((h) => [h.from, h.to, h.actor, h.comment, h.assignee])).toEqual([
      [null, "open", null, null, null],
      ["open", "in_progress", "key-1", "looking", "ana@acme.test"],
      ["in_progress", "in_progress", "key-2", "asked the customer", "ana@acme.test"],
    ]);
    expect(history[1]?.at).toMatch(/\+00:00$/);
    // The published alert shape is unchanged.
    expect(Object.keys(await acme().getAlert(id))).not.toContain("assignee");
  });

  it("changes several alerts at once, or none of them", async () => {
    expect(alertIds.length).toBeGreaterThan(1);
    const [a, b] = alertIds as [string, string];
    await acme().updateAlert(a, { alert_status: "in_progress" });
    const refused = await acme()
      .bulkUpdateAlerts({ ids: [a, b], alert_status: "awaiting_response" })
      .catch((e) => e);
    expect(isKytError(refused, "ILLEGAL_TRANSITION")).toBe(true);
    expect((await acme().getAlert(a)).alert_status).toBe("in_progress");
    expect((await acme().getAlertHistory(a)).length).toBe(2);
    const done = await acme().bulkUpdateAlerts({ ids: [b], alert_status: "in_progress", comment: "batch" });
    expect(done.map((x) => x.alert_status)).toEqual(["in_progress"]);
  });

  it("refuses another account's alerts, unknown fields and empty changes", async () => {
    const id = alertIds[0] ?? "";
    expect(
      isKytError(
        await engine
          .forAccount("other")
          .updateAlert(id, { alert_status: "in_progress" })
          .catch((e) => e),
        "NOT_FOUND",
      ),
    ).toBe(true);
    expect(
      isKytError(
        await engine
          .forAccount("other")
          .getAlertHistory(id)
          .catch((e) => e),
        "NOT_FOUND",
      ),
    ).toBe(true);
    const unknown = await acme()
      // An unknown field, on purpose: the type refuses it, and so does validation at run time.
      .updateAlert(id, { alert_status: "in_progress", owner: "x" } as never)
      .catch((e) => e);
    expect(isKytError(unknown, "VALIDATION_ERROR")).toBe(true);
    expect(
      isKytError(
        await acme()
          .updateAlert(id, {})
          .catch((e) => e),
        "VALIDATION_ERROR",
      ),
    ).toBe(true);
    const other = await acme()
      .bulkUpdateAlerts({ ids: [id, "missing"], alert_status: "in_progress" })
      .catch((e) => e);
    expect(isKytError(other, "NOT_FOUND")).toBe(true);
    expect((await acme().getAlert(id)).alert_status).toBe("open");
  });
});
