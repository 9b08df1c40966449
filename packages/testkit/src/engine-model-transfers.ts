/**
 * A model-based test of the transfer lifecycle through the engine on a real store: fast-check
 * generates sequences of registrations (single and batched, repeated, with force_recheck and
 * disable_auto_check), runs of the job runner and passing time, and runs each against the
 * engine and against a model written here from docs/architecture.md ("State machines",
 * "Re-registration", "Which checks run") and the binding window, independently of the engine's
 * machines. After every command the engine must agree with the model on every transfer of the
 * account: which exist, their tx_status and the state of each check.
 */
import type { AccountApi, RegisterTransferRequest, TransferResponse } from "@openkyt/core";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { createHarness, type Harness, type StoreFactory } from "./engine-harness.js";
import { HOUR, TX, W } from "./engine-world.js";

/** Hashes the world's ledger holds (they bind) and two it never will (they end not_found). */
const KNOWN = [TX.deposit, TX.mixerDeposit, TX.exchangeDeposit] as const;
const UNKNOWN = [`0x${"e1".repeat(32)}`, `0x${"e2".repeat(32)}`] as const;
const HASHES: ReadonlyArray<string> = [...KNOWN, ...UNKNOWN];

/** The harness's binding window: a hash not found within it ends not_found. */
const WINDOW_MS = HOUR;

type TxStatus = "binding" | "bound" | "not_found";
type CheckState = "none" | "queued" | "checked";

/** What the model knows of one transfer (one identity: hash and direction). */
interface TransferModel {
  txStatus: TxStatus;
  checks: CheckState;
  /** disable_auto_check as first registered: binds but checks nothing. */
  readonly manual: boolean;
  /** When binding (re)started, on the harness clock. */
  bindingSince: number;
}

interface Model {
  readonly transfers: Map<string, TransferModel>;
  now: number;
}

interface Real {
  readonly h: Harness;
  readonly api: AccountApi;
}

/** One registration a command sends. */
interface Registration {
  readonly hash: number;
  readonly direction: "incoming" | "outgoing";
  readonly force: boolean;
  readonly manual: boolean;
}

const keyOf = (r: Registration) => `${HASHES[r.hash % HASHES.length]}/${r.direction}`;

function bodyOf(r: Registration): RegisterTransferRequest {
  return {
    direction: r.direction,
    network: "ETH",
    tx_hash: HASHES[r.hash % HASHES.length] as string,
    output_address: W.client,
    ...(r.force ? { force_recheck: true } : {}),
    ...(r.manual ? { disable_auto_check: true } : {}),
  };
}

/**
 * The documented answer to a registration: a new identity is created binding (its three checks
 * queued unless disable_auto_check); a known one is returned unchanged (created: false) unless
 * force_recheck, which checks a bound transfer again and binds a not_found one again.
 */
function register(model: Model, r: Registration, seenInBatch: Set<string>): { created: boolean } {
  const key = keyOf(r);
  const known = model.transfers.get(key);
  if (!known) {
    model.transfers.set(key, {
      txStatus: "binding",
      checks: r.manual ? "none" : "queued",
      manual: r.manual,
      bindingSince: model.now,
    });
    seenInBatch.add(key);
    return { created: true };
  }
  // "An item naming the same transfer as an earlier item of the batch gets that item's transfer."
  if (seenInBatch.has(key)) return { created: false };
  seenInBatch.add(key);
  if (!r.force) return { created: false };
  if (known.txStatus === "bound") known.checks = "queued";
  else if (known.txStatus === "not_found") {
    known.txStatus = "binding";
    known.bindingSince = model.now;
    if (!known.manual) known.checks = "queued";
  }
  return { created: false };
}

/** What draining the runner does at `model.now`: due binds and checks run. */
function drain(model: Model): void {
  for (const [key, t] of model.transfers) {
    const hash = key.split("/")[0] as string;
    if (t.txStatus === "binding") {
      if ((KNOWN as ReadonlyArray<string>).includes(hash)) t.txStatus = "bound";
      else if (model.now - t.bindingSince >= WINDOW_MS) {
        t.txStatus = "not_found";
        if (t.checks === "queued") t.checks = "none";
      }
    }
    if (t.txStatus === "bound" && t.checks === "queued") t.checks = "checked";
  }
}

/** The engine agrees with the model on every transfer of the account. */
async function agree(model: Model, real: Real): Promise<void> {
  const listed = await real.api.listTransfers({ page_size: "100" });
  const byKey = new Map<string, TransferResponse>(
    listed.items.map((t) => [`${t.tx_hash}/${t.direction}`, t] as const),
  );
  expect([...byKey.keys()].sort()).toEqual([...model.transfers.keys()].sort());
  for (const [key, expected] of model.transfers) {
    const t = byKey.get(key) as TransferResponse;
    expect(t.tx_status, key).toBe(expected.txStatus);
    const states = [t.check_state.exposure, t.check_state.counterparty, t.check_state.sanctions];
    expect(states, key).toEqual([expected.checks, expected.checks, expected.checks]);
  }
}

class RegisterCommand implements fc.AsyncCommand<Model, Real> {
  constructor(readonly r: Registration) {}
  check = () => true;
  async run(model: Model, real: Real): Promise<void> {
    const { created } = await real.api.registerTransfer(bodyOf(this.r));
    expect(created).toBe(register(model, this.r, new Set()).created);
    await agree(model, real);
  }
  toString = () => `register(${JSON.stringify(this.r)})`;
}

class BatchCommand implements fc.AsyncCommand<Model, Real> {
  constructor(readonly items: ReadonlyArray<Registration>) {}
  check = () => true;
  async run(model: Model, real: Real): Promise<void> {
    const answers = await real.api.registerTransfers(this.items.map(bodyOf));
    const seen = new Set<string>();
    const expected = this.items.map((r) => register(model, r, seen).created);
    expect(answers.map((a) => a.ok && a.created)).toEqual(expected);
    await agree(model, real);
  }
  toString = () => `batch(${JSON.stringify(this.items)})`;
}

class DrainCommand implements fc.AsyncCommand<Model, Real> {
  check = () => true;
  async run(model: Model, real: Real): Promise<void> {
    await real.h.engine.drain();
    drain(model);
    await agree(model, real);
  }
  toString = () => "drain";
}

class WaitCommand implements fc.AsyncCommand<Model, Real> {
  constructor(readonly minutes: number) {}
  check = () => true;
  async run(model: Model, real: Real): Promise<void> {
    real.h.clock.advance(this.minutes * 60_000);
    model.now += this.minutes * 60_000;
    await real.h.engine.drain();
    drain(model);
    await agree(model, real);
  }
  toString = () => `wait(${this.minutes} min)`;
}

const registration: fc.Arbitrary<Registration> = fc.record({
  hash: fc.nat(HASHES.length - 1),
  direction: fc.constantFrom("incoming" as const, "outgoing" as const),
  force: fc.boolean(),
  manual: fc.nat(9).map((n) => n < 3),
});
const commands = [
  registration.map((r) => new RegisterCommand(r)),
  fc.array(registration, { minLength: 1, maxLength: 4 }).map((items) => new BatchCommand(items)),
  fc.constant(new DrainCommand()),
  fc.constantFrom(1, 30, 61).map((m) => new WaitCommand(m)),
];

/** Registers the model-based transfer lifecycle test over `factory`'s store. */
export function runTransferLifecycleModel(factory: StoreFactory, options: { numRuns?: number } = {}): void {
  describe(`transfer lifecycle against a model (${factory.name})`, () => {
    it("agrees with the model after every registration, run and wait", async () => {
      await fc.assert(
        fc.asyncProperty(fc.commands(commands, { maxCommands: 14 }), async (cmds) => {
          const h = await createHarness(factory);
          try {
            const model: Model = { transfers: new Map(), now: h.clock.now() };
            await fc.asyncModelRun(() => ({ model, real: { h, api: h.acme } }), cmds);
          } finally {
            await h.close();
          }
        }),
        { numRuns: options.numRuns ?? 25 },
      );
    });
  });
}
