import { describe, expect, it } from "vitest";
import { createHarness, type Harness } from "../../../testkit/src/engine-harness.js";
import { TX, W } from "../../../testkit/src/engine-world.js";
import { DEFAULT_BINDING, defaultJobsConfig } from "../../src/engine/create-engine.js";
import type { ChainSource, LedgerTransfer } from "../../src/index.js";
import { createMemoryStore } from "../../src/store/index.js";

/** How the chain source misbehaves right now. */
type Mode = { kind: "ok" } | { kind: "hang" } | { kind: "throw" } | { kind: "answer"; value: unknown };

/** A chain source over the world's ledger whose behaviour the test switches. */
function switchableChain(h: () => Harness) {
  const state = { mode: { kind: "ok" } as Mode, calls: 0 };
  const source: ChainSource = {
    async lookup(network, txHash) {
      state.calls += 1;
      const mode = state.mode;
      if (mode.kind === "hang") return new Promise(() => undefined);
      if (mode.kind === "throw") throw new Error("node unreachable: ECONNREFUSED");
      if (mode.kind === "answer") return mode.value as never;
      const transfers = await h().store.ledgerByTxHash(network, txHash);
      return transfers.length > 0 ? { kind: "found", transfers } : { kind: "not_found" };
    },
  };
  return { state, source };
}

const ATTEMPTS = 3;

async function world() {
  let harness: Harness | null = null;
  const chain = switchableChain(() => harness as Harness);
  harness = await createHarness(
    { name: "memory", createStore: async () => createMemoryStore() },
    {
      chainSource: chain.source,
      binding: { windowMs: 3_600_000, pollMs: 60_000, lookupTimeoutMs: 50 },
      jobs: { maxAttempts: ATTEMPTS, backoffBaseMs: 1_000, backoffMaxMs: 10_000 },
    },
  );
  return { h: harness, chain };
}

/** Runs due jobs, moving the clock past each backoff, until nothing is left. */
async function settle(h: Harness): Promise<void> {
  for (let i = 0; i < 10; i += 1) {
    await h.engine.drain();
    if ((await h.store.listJobs()).length === 0) return;
    h.clock.advance(10_000);
  }
}

const register = (h: Harness, txHash: string = TX.deposit) =>
  h.acme.registerTransfer({
    direction: "incoming",
    network: "ETH",
    tx_hash: txHash,
    output_address: W.client,
  });

/** A transfer that failed to bind carries nothing from the chain: no half-written enrichment. */
async function expectErrorWithout(h: Harness, id: string, reason: RegExp): Promise<void> {
  const record = await h.store.getTransfer(id);
  expect(record).toMatchObject({ txStatus: "error", occurredAt: null, amount: null, inputAddress: null });
  expect(record?.lastError).toMatch(reason);
  expect(record?.lastError).toMatch(/kept failing/);
  expect(await h.store.listJobs(id)).toEqual([]);
}

/** The engine still serves: the same engine binds and checks a new transfer once the source is back. */
async function expectStillServing(h: Harness, chain: { state: { mode: Mode } }): Promise<void> {
  chain.state.mode = { kind: "ok" };
  const { transfer } = await register(h, TX.mixerDeposit);
  await settle(h);
  const done = await h.acme.getTransfer(transfer.id);
  expect(done).toMatchObject({ tx_status: "bound", amount: 1, risk_level: "medium" });
}

const row: LedgerTransfer = {
  network: "ETH",
  txHash: TX.deposit,
  logIndex: 0,
  tokenId: "native",
  from: W.b,
  to: W.client,
  amount: 10,
  occurredAt: Date.UTC(2024, 0, 1, 4),
  block: 1_004,
  valueUsd: null,
};

describe("faults of the chain source: bounded, retried, then error with the reason", () => {
  it("the default lookup timeout ends before a job's lease", () => {
    expect(DEFAULT_BINDING.lookupTimeoutMs).toBeLessThan(defaultJobsConfig().leaseMs);
  });

  it("a lookup that never answers is cut at the timeout each attempt, then the transfer is error", async () => {
    const { h, chain } = await world();
    chain.state.mode = { kind: "hang" };
    const { transfer } = await register(h);
    const started = performance.now();
    await settle(h);
    expect(performance.now() - started).toBeLessThan(5_000);
    expect(chain.state.calls).toBe(ATTEMPTS);
    await expectErrorWithout(h, transfer.id, /did not answer within 50 ms/);
    await expectStillServing(h, chain);
    await h.close();
  });

  it("a manual check whose lookup hangs ends in error with the reason", async () => {
    const { h, chain } = await world();
    chain.state.mode = { kind: "hang" };
    const check = await h.acme.checkTransfer({
      network: "ETH",
      tx_hash: TX.deposit,
      output_address: W.client,
      direction: "incoming",
    });
    await settle(h);
    const stored = await h.store.getManualCheck(check.id);
    expect(stored).toMatchObject({ checkStatus: "error", riskLevel: "undefined", amount: null });
    expect(stored?.lastError).toMatch(/did not answer within 50 ms/);
    await h.close();
  });

  it("a source that throws: retried with backoff, then error naming the failure", async () => {
    const { h, chain } = await world();
    chain.state.mode = { kind: "throw" };
    const failures: string[] = [];
    h.engine.events.on("job.failed", (f) => failures.push(`${f.final}`));
    const { transfer } = await register(h);
    await settle(h);
    expect(failures).toEqual(["false", "false", "true"]);
    await expectErrorWithout(h, transfer.id, /ECONNREFUSED/);
    await expectStillServing(h, chain);
    await h.close();
  });

  it.each([
    ["null", null],
    ["a string", "found"],
    ["an empty object", {}],
    ["an unknown kind", { kind: "maybe" }],
    ["found without transfers", { kind: "found" }],
    ["found with transfers not a list", { kind: "found", transfers: "0x12" }],
    ["a transfer without fields", { kind: "found", transfers: [{}] }],
    ["an amount that is text", { kind: "found", transfers: [{ ...row, amount: "10" }] }],
    ["an amount that is NaN", { kind: "found", transfers: [{ ...row, amount: Number.NaN }] }],
    ["a negative amount", { kind: "found", transfers: [{ ...row, amount: -10 }] }],
    ["an infinite time", { kind: "found", transfers: [{ ...row, occurredAt: Number.POSITIVE_INFINITY }] }],
    ["failed without a reason", { kind: "failed" }],
  ])(
    "garbage (%s) is a chain failure: nothing of it is stored, the transfer ends in error",
    async (_, value) => {
      const { h, chain } = await world();
      chain.state.mode = { kind: "answer", value };
      const { transfer } = await register(h);
      await settle(h);
      await expectErrorWithout(h, transfer.id, /malformed lookup/);
      await expectStillServing(h, chain);
      await h.close();
    },
  );

  it("garbage once, then a good answer: the retry binds the transfer as the chain says", async () => {
    const { h, chain } = await world();
    chain.state.mode = { kind: "answer", value: { kind: "found", transfers: [{ ...row, amount: "lots" }] } };
    const { transfer } = await register(h);
    await h.engine.drain();
    chain.state.mode = { kind: "ok" };
    await settle(h);
    expect(await h.acme.getTransfer(transfer.id)).toMatchObject({ tx_status: "bound", amount: 10 });
    await h.close();
  });
});
