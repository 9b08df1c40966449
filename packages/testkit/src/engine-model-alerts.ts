/**
 * A model-based test of the alert lifecycle through the engine on a real store: fast-check
 * generates sequences of alert changes (single and bulk, legal and illegal, with assignees and
 * comments) and runs each against the engine and against a model written here from the alert
 * state table of docs/architecture.md, independently of the engine's machine. After every
 * command the engine must agree with the model on each alert's status, assignee and history.
 */
import type { AccountApi } from "@openkyt/core";
import { isKytError } from "@openkyt/core";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { createHarness, type Harness, type StoreFactory } from "./engine-harness.js";
import { TX, W } from "./engine-world.js";

type Status = "open" | "in_progress" | "awaiting_response" | "done";
const STATUSES: ReadonlyArray<Status> = ["open", "in_progress", "awaiting_response", "done"];

/** docs/architecture.md, "State machines", the alert row: where a status may go next. */
const NEXT: Readonly<Record<Status, ReadonlyArray<Status>>> = {
  open: ["in_progress"],
  in_progress: ["awaiting_response", "done"],
  awaiting_response: ["in_progress"],
  done: ["open"],
};

/** What the model knows of one alert. */
interface AlertModel {
  status: Status;
  assignee: string | null;
  history: number;
}

/** The model: the account's alerts, in the order of the real ids. */
interface Model {
  readonly alerts: AlertModel[];
}

/** The system under test: the engine's API for the account and the alert ids. */
interface Real {
  readonly api: AccountApi;
  readonly ids: ReadonlyArray<string>;
}

/** A change a command asks for: a status, an assignee (null clears it), a comment. */
interface Change {
  readonly status?: Status;
  readonly assignee?: string | null;
  readonly comment?: string;
}

function bodyOf(change: Change): Record<string, unknown> {
  return {
    ...(change.status === undefined ? {} : { alert_status: change.status }),
    ...(change.assignee === undefined ? {} : { assignee: change.assignee }),
    ...(change.comment === undefined ? {} : { comment: change.comment }),
  };
}

/** True when the model lets `alert` take `change`. */
function allowed(alert: AlertModel, change: Change): boolean {
  return (
    change.status === undefined ||
    change.status === alert.status ||
    NEXT[alert.status].includes(change.status)
  );
}

function apply(alert: AlertModel, change: Change): void {
  alert.status = change.status ?? alert.status;
  if (change.assignee !== undefined) alert.assignee = change.assignee;
  alert.history += 1;
}

/** The engine agrees with the model on every alert. */
async function agree(model: Model, real: Real): Promise<void> {
  for (const [i, id] of real.ids.entries()) {
    const expected = model.alerts[i] as AlertModel;
    const history = await real.api.getAlertHistory(id);
    expect(history).toHaveLength(expected.history);
    const last = history.at(-1);
    expect(last?.to).toBe(expected.status);
    expect(last?.assignee ?? null).toBe(expected.assignee);
    expect((await real.api.getAlert(id)).alert_status).toBe(expected.status);
  }
}

/** PATCH one alert. */
class UpdateCommand implements fc.AsyncCommand<Model, Real> {
  constructor(
    readonly index: number,
    readonly change: Change,
  ) {}
  check = () => true;
  async run(model: Model, real: Real): Promise<void> {
    const alert = model.alerts[this.index % model.alerts.length] as AlertModel;
    const id = real.ids[this.index % real.ids.length] as string;
    const outcome = await real.api
      .updateAlert(id, bodyOf(this.change), { actor: "model" })
      .catch((e: unknown) => e);
    if (allowed(alert, this.change)) {
      expect(outcome).toMatchObject({ id, alert_status: this.change.status ?? alert.status });
      apply(alert, this.change);
    } else {
      expect(isKytError(outcome, "ILLEGAL_TRANSITION")).toBe(true);
      expect(isKytError(outcome) && [...(outcome.details.allowed as string[])].sort()).toEqual(
        [...NEXT[alert.status]].sort(),
      );
    }
    await agree(model, real);
  }
  toString = () => `update(${this.index}, ${JSON.stringify(this.change)})`;
}

/** POST bulk-update: every named alert changes, or none does. */
class BulkCommand implements fc.AsyncCommand<Model, Real> {
  constructor(
    readonly indexes: ReadonlyArray<number>,
    readonly status: Status,
    readonly comment: string | undefined,
  ) {}
  check = () => true;
  async run(model: Model, real: Real): Promise<void> {
    const picked = [...new Set(this.indexes.map((i) => i % real.ids.length))];
    const change: Change = {
      status: this.status,
      ...(this.comment === undefined ? {} : { comment: this.comment }),
    };
    const body = { ids: picked.map((i) => real.ids[i]), ...bodyOf(change) };
    // Generated changes may be invalid on purpose (the model says which the engine refuses).
    const outcome = await real.api
      .bulkUpdateAlerts(body as never, { actor: "model" })
      .catch((e: unknown) => e);
    if (picked.every((i) => allowed(model.alerts[i] as AlertModel, change))) {
      expect(Array.isArray(outcome) && outcome.map((a) => a.alert_status)).toEqual(
        picked.map(() => this.status),
      );
      for (const i of picked) apply(model.alerts[i] as AlertModel, change);
    } else {
      expect(isKytError(outcome, "ILLEGAL_TRANSITION")).toBe(true);
    }
    await agree(model, real);
  }
  toString = () => `bulk(${this.indexes.join(",")} -> ${this.status})`;
}

const status = fc.constantFrom(...STATUSES);
const change: fc.Arbitrary<Change> = fc
  .record(
    {
      status,
      assignee: fc.oneof(fc.constant(null), fc.constantFrom("ana", "ben")),
      comment: fc.constantFrom("looked at the path", "asked the customer", "cleared"),
    },
    { requiredKeys: [] },
  )
  .filter((c) => Object.keys(c).length > 0);
const commands = [
  fc.tuple(fc.nat(10), change).map(([i, c]) => new UpdateCommand(i, c)),
  fc
    .tuple(
      fc.array(fc.nat(10), { minLength: 1, maxLength: 3 }),
      status,
      fc.option(fc.constant("bulk"), { nil: undefined }),
    )
    .map(([i, s, c]) => new BulkCommand(i, s, c)),
];

/** A harness whose account "acme" has the alerts of a few screened deposits. */
async function withAlerts(factory: StoreFactory): Promise<{ h: Harness; real: Real; model: Model }> {
  const h = await createHarness(factory);
  for (const tx_hash of [TX.deposit, TX.mixerDeposit]) {
    await h.acme.registerTransfer({
      direction: "incoming",
      network: "ETH",
      tx_hash,
      output_address: W.client,
    });
  }
  await h.engine.drain();
  const listed = await h.acme.listAlerts({ page_size: "100" });
  const ids = listed.items.map((a) => a.id).sort();
  expect(ids.length).toBeGreaterThanOrEqual(2);
  return {
    h,
    real: { api: h.acme, ids },
    model: { alerts: ids.map(() => ({ status: "open" as Status, assignee: null, history: 1 })) },
  };
}

/** Registers the model-based alert lifecycle test over `factory`'s store. */
export function runAlertLifecycleModel(factory: StoreFactory, options: { numRuns?: number } = {}): void {
  describe(`alert lifecycle against a model (${factory.name})`, () => {
    it("agrees with the model after every change, legal or not", async () => {
      await fc.assert(
        fc.asyncProperty(fc.commands(commands, { maxCommands: 12 }), async (cmds) => {
          const { h, real, model } = await withAlerts(factory);
          try {
            await fc.asyncModelRun(() => ({ model, real }), cmds);
          } finally {
            await h.close();
          }
        }),
        { numRuns: options.numRuns ?? 30 },
      );
    });
  });
}
