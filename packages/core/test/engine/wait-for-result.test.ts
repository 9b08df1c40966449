import { afterEach, describe, expect, it } from "vitest";
import { loadWorld, TX, W } from "../../../testkit/src/engine-world.js";
import { createEngine, type Engine } from "../../src/engine/create-engine.js";
import { isKytError } from "../../src/errors.js";
import { createMemoryStore } from "../../src/store/index.js";

let engine: Engine | null = null;

async function started(start = true, runsElsewhere = false) {
  engine = createEngine({ store: createMemoryStore(), jobs: { pollIntervalMs: 20, runsElsewhere } });
  await loadWorld(engine);
  if (start) engine.start();
  return engine;
}

afterEach(async () => {
  await engine?.stop();
  engine = null;
});

describe("waiting for results inside a request", () => {
  it("an address check of an address known to the ledger completes inside the request", async () => {
    const e = await started();
    const t0 = Date.now();
    const check = await e
      .forAccount("acme")
      .checkAddress({ network: "ETH", address: W.sanctioned }, { wait: 5 });
    expect(check.check_status).toBe("checked");
    expect(check.risk_level).toBe("severe");
    expect(Date.now() - t0).toBeLessThan(2_000);
  });

  it("register with wait answers with the bound and checked transfer", async () => {
    const e = await started();
    const { transfer } = await e
      .forAccount("acme")
      .registerTransfer(
        { direction: "incoming", network: "ETH", tx_hash: TX.deposit, output_address: W.client },
        { wait: "5" },
      );
    expect(transfer.tx_status).toBe("bound");
    expect(transfer.check_state).toMatchObject({
      exposure: "checked",
      counterparty: "checked",
      sanctions: "checked",
    });
    expect(transfer.risk_level).toBe("severe");
  });

  it("answers with the in-progress object when the checks do not finish within the wait", async () => {
    // The jobs run elsewhere (another process on the store), and nothing runs them here.
    const e = await started(false, true);
    const t0 = Date.now();
    const check = await e
      .forAccount("acme")
      .checkTransfer(
        { network: "ETH", tx_hash: TX.deposit, output_address: W.client, direction: "incoming" },
        { wait: 0.3 },
      );
    expect(check.check_status).toBe("checking");
    expect(Date.now() - t0).toBeGreaterThanOrEqual(280);
  });

  it("refuses at once a wait on an engine whose runner is not started, before writing anything", async () => {
    const e = await started(false);
    const api = e.forAccount("acme");
    const t0 = Date.now();
    const calls = [
      () =>
        api.registerTransfer(
          { direction: "incoming", network: "ETH", tx_hash: TX.deposit, output_address: W.client },
          { wait: 5 },
        ),
      () =>
        api.registerAttempt({ direction: "incoming", network: "ETH", input_address: W.mixer }, { wait: 5 }),
      () =>
        api.checkTransfer(
          { network: "ETH", tx_hash: TX.deposit, output_address: W.client, direction: "incoming" },
          { wait: 5 },
        ),
      () => api.checkAddress({ network: "ETH", address: W.mixer }, { wait: 5 }),
    ];
    for (const call of calls) {
      const error = await call().catch((err) => err);
      expect(isKytError(error, "RUNNER_NOT_STARTED")).toBe(true);
      expect(error.message).toMatch(/engine\.start\(\).*engine\.drain\(\).*runsElsewhere/);
    }
    expect(Date.now() - t0).toBeLessThan(1_000);
    expect((await api.listTransfers({})).total_items).toBe(0);
    expect((await api.listManualChecks({})).total_items).toBe(0);
    // Without a wait nothing changes: the registration is answered at once, and drain() runs it.
    const { transfer } = await api.registerTransfer({
      direction: "incoming",
      network: "ETH",
      tx_hash: TX.deposit,
      output_address: W.client,
    });
    await e.drain();
    expect((await api.getTransfer(transfer.id)).tx_status).toBe("bound");
    // Started, then stopped: the same refusal (nothing would run the jobs any more).
    e.start();
    await e.stop();
    const late = await api
      .checkAddress({ network: "ETH", address: W.mixer }, { wait: 1 })
      .catch((err) => err);
    expect(isKytError(late, "RUNNER_NOT_STARTED")).toBe(true);
  });

  it("refuses a wait outside 0..30 seconds, naming the field, before writing anything", async () => {
    const e = await started(false);
    for (const wait of [31, -1, "soon"]) {
      const error = await e
        .forAccount("acme")
        .checkAddress({ network: "ETH", address: W.mixer }, { wait })
        .catch((err) => err);
      expect(isKytError(error, "VALIDATION_ERROR")).toBe(true);
      expect(Object.keys(error.errors)).toEqual(["wait"]);
    }
    expect((await e.forAccount("acme").listManualChecks({})).total_items).toBe(0);
  });
});
