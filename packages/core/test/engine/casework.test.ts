import { beforeEach, describe, expect, it } from "vitest";
import { loadWorld, TX, W } from "../../../testkit/src/engine-world.js";
import { createEngine, type Engine } from "../../src/engine/create-engine.js";
import { isKytError } from "../../src/errors.js";
import { ALERT_STATUS_MACHINE, pathBetween } from "../../src/machines/index.js";
import { manualClock } from "../../src/ports/runtime.js";
import { createMemoryStore } from "../../src/store/index.js";

const HOUR = 3_600_000;
let engine: Engine;
let transferIds: string[];
const clock = manualClock(Date.UTC(2024, 0, 2));
const acme = () => engine.forAccount("acme").casework;

beforeEach(async () => {
  engine = createEngine({ store: createMemoryStore(), clock });
  await loadWorld(engine);
  const api = engine.forAccount("acme");
  transferIds = [];
  for (const tx_hash of [TX.deposit, TX.mixerDeposit]) {
    const { transfer } = await api.registerTransfer({
      direction: "incoming",
      network: "ETH",
      tx_hash,
      output_address: W.client,
    });
    transferIds.push(transfer.id);
  }
  await engine.drain();
});

/** A case of acme with at least one alert. */
async function caseWithAlerts() {
  for (const id of transferIds) {
    const found = await acme().getCase(id);
    if (found.alerts.length > 0) return found;
  }
  throw new Error("no transfer of the world raised an alert");
}

describe("state machine paths", () => {
  it("walks the alert machine's table to done from every state", () => {
    expect(pathBetween(ALERT_STATUS_MACHINE, "open", "done")).toEqual(["in_progress", "done"]);
    expect(pathBetween(ALERT_STATUS_MACHINE, "awaiting_response", "done")).toEqual(["in_progress", "done"]);
    expect(pathBetween(ALERT_STATUS_MACHINE, "in_progress", "done")).toEqual(["done"]);
    expect(pathBetween(ALERT_STATUS_MACHINE, "done", "done")).toEqual([]);
  });
});

describe("cases and decisions", () => {
  it("closes a case's open alerts through the machine with an outcome and a comment, audited", async () => {
    const open = await caseWithAlerts();
    expect(open.status).toBe("open");
    expect(open.outcome).toBeNull();
    const decided = await acme().decideCase(
      open.id,
      { outcome: "false_positive", comment: "  known exchange wallet  " },
      { actor: "user:ana@acme.test" },
    );
    expect(decided.status).toBe("closed");
    expect(decided.outcome).toBe("false_positive");
    expect(decided.alerts.every((a) => a.alert_status === "done" && !a.breached)).toBe(true);
    expect(decided.decisions).toHaveLength(1);
    expect(decided.decisions[0]).toMatchObject({
      case_id: open.id,
      alert_ids: open.alerts.map((a) => a.id),
      comment: "known exchange wallet",
      actor: "user:ana@acme.test",
    });
    const history = await engine.forAccount("acme").getAlertHistory(open.alerts[0]?.id ?? "");
    expect(history.map((h) => h.to)).toEqual(["open", "in_progress", "done"]);
    expect(history.at(-1)?.comment).toBe("Decision: false positive. known exchange wallet");
    const log = await acme().listAudit({ action: "case.decided" });
    expect(log.items.map((e) => [e.subject, e.actor, e.details.outcome])).toEqual([
      [open.id, "user:ana@acme.test", "false_positive"],
    ]);
    // Nothing left open: a second decision is refused and writes nothing.
    const again = await acme()
      .decideCase(open.id, { outcome: "true_positive", comment: "again" })
      .catch((e) => e);
    expect(isKytError(again, "ILLEGAL_TRANSITION")).toBe(true);
    expect((await acme().getCase(open.id)).decisions).toHaveLength(1);
  });

  it("needs a comment and an outcome, and keeps cases within their account", async () => {
    const open = await caseWithAlerts();
    for (const body of [
      { outcome: "false_positive", comment: "   " },
      { outcome: "false_positive" },
      { outcome: "maybe", comment: "x" },
    ]) {
      const refused = await acme()
        .decideCase(open.id, body)
        .catch((e) => e);
      expect(isKytError(refused, "VALIDATION_ERROR"), JSON.stringify(body)).toBe(true);
    }
    const other = await engine
      .forAccount("other")
      .casework.decideCase(open.id, { outcome: "escalated", comment: "not mine" })
      .catch((e) => e);
    expect(isKytError(other, "NOT_FOUND")).toBe(true);
    expect((await acme().getCase(open.id)).status).toBe("open");
  });
});

describe("assignees, the queue and the bulk change", () => {
  it("assigns only to an active user of an account that has users", async () => {
    const open = await caseWithAlerts();
    const id = open.alerts[0]?.id ?? "";
    const api = engine.forAccount("acme");
    // No users yet: free text, as before.
    expect((await api.updateAlert(id, { assignee: "ops team" })).assignee).toBe("ops team");
    await engine.store.putUser({
      id: "u-1",
      accountId: "acme",
      email: "ana@acme.test",
      role: "analyst",
      passwordHash: "scrypt$x",
      createdAt: 0,
      disabledAt: null,
    });
    const typo = await api.updateAlert(id, { assignee: "ana@acme.tset" }).catch((e) => e);
    expect(isKytError(typo, "VALIDATION_ERROR")).toBe(true);
    expect(typo.errors.assignee).toBeDefined();
    expect((await api.updateAlert(id, { assignee: "Ana@Acme.test" })).assignee).toBe("ana@acme.test");
    const mine = await acme().listQueue({ assignee: "ana@acme.test" });
    expect(mine.items.map((a) => a.id)).toEqual([id]);
    expect((await acme().listQueue({ unassigned: "true" })).items.map((a) => a.id)).not.toContain(id);
    expect((await acme().queueSummary({ assignee: "ana@acme.test" })).mine).toBe(1);
  });

  it("answers a bulk change alert by alert: a refusal leaves the others changed", async () => {
    const items = (await acme().listQueue({})).items;
    expect(items.length).toBeGreaterThanOrEqual(2);
    const [first, second] = items.map((a) => a.id);
    await engine.forAccount("acme").updateAlert(first ?? "", { alert_status: "in_progress" });
    const results = await acme().bulkChangeAlerts(
      { ids: [first, second, "no-such-alert"], alert_status: "awaiting_response" },
      { actor: "user:ana@acme.test" },
    );
    expect(results.map((r) => [r.id, r.ok])).toEqual([
      [first, true],
      [second, false],
      ["no-such-alert", false],
    ]);
    const refused = results[1];
    expect(refused && !refused.ok && refused.error.code).toBe("ILLEGAL_TRANSITION");
    const log = await acme().listAudit({ action: "alerts.bulk_updated" });
    expect(log.items[0]?.details).toMatchObject({ changed: 1, refused: 2 });
  });

  it("computes due times from the account's SLA and finds breaches", async () => {
    const items = (await acme().listQueue({})).items;
    expect(items.every((a) => a.due_at !== null || a.risk_level === "low")).toBe(true);
    expect((await acme().queueSummary({})).breached).toBe(0);
    await acme().setSlaPolicy({ severe: 1, high: 1, medium: 1, low: 1 }, { actor: "user:boss@acme.test" });
    clock.advance(2 * HOUR);
    const breached = await acme().listQueue({ breached: "true" });
    expect(breached.total_items).toBe(items.length);
    expect(breached.items.every((a) => a.breached)).toBe(true);
    expect((await acme().getSlaPolicy()).updated_by).toBe("user:boss@acme.test");
    const bad = await acme()
      .setSlaPolicy({ severe: -1, high: 1, medium: 1, low: 1 })
      .catch((e) => e);
    expect(isKytError(bad, "VALIDATION_ERROR")).toBe(true);
  });

  it("searches by a part of the hash, and refuses a search too short to mean anything", async () => {
    const part = TX.mixerDeposit.slice(-8).toUpperCase();
    const found = await acme().listQueue({ q: part });
    expect(found.items.length).toBeGreaterThan(0);
    expect(found.items.map((a) => a.transfer?.tx_hash)).toEqual(found.items.map(() => TX.mixerDeposit));
    const short = await acme()
      .listQueue({ q: "0x" })
      .catch((e) => e);
    expect(isKytError(short, "VALIDATION_ERROR")).toBe(true);
  });
});
