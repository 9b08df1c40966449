import { afterEach, describe, expect, it } from "vitest";
import { loadWorld, TX, W } from "../../../testkit/src/engine-world.js";
import { createEngine, type Engine } from "../../src/engine/create-engine.js";
import { isKytError } from "../../src/errors.js";
import { createMemoryStore } from "../../src/store/index.js";

let engine: Engine | null = null;

async function started(start = true) {
  engine = createEngine({ store: createMemoryStore(), jobs: { pollIntervalMs: 20 } });
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
    const e = await started(false);
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
