import { describe, expect, it } from "vitest";
import { loadWorld, T0, TX, W } from "../../../testkit/src/engine-world.js";
import type { SanctionsListing } from "../../src/domain/records.js";
import { createEngine } from "../../src/engine/create-engine.js";
import { storeSanctionsSource } from "../../src/engine/sources/store-sources.js";
import { manualClock, sequentialIds } from "../../src/ports/runtime.js";
import { createMemoryStore } from "../../src/store/index.js";

/**
 * A check run overtaken by a newer one must not write over it: an attempt's counterparty and
 * sanctions checks are still running in one process when the attempt is bound and screened in
 * another; when the old run ends, the bound transfer's results stand.
 */
describe("a check run overtaken by a newer run", () => {
  it("writes nothing over the results of the bind that screened the transfer meanwhile", async () => {
    const store = createMemoryStore();
    const clock = manualClock(T0 + 400 * 3_600_000);
    const sanctions = storeSanctionsSource(store);
    let reached = () => {};
    const blocked = new Promise<void>((resolve) => {
      reached = resolve;
    });
    let release = () => {};
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    // Process A: its first sanctions lookup waits until the test lets it go.
    let first = true;
    const slow = createEngine({
      store,
      clock,
      ids: sequentialIds(1_000_000),
      jobs: { workerId: "slow" },
      sanctions: {
        async listings(addresses): Promise<ReadonlyArray<SanctionsListing>> {
          if (first) {
            first = false;
            reached();
            await gate;
          }
          return sanctions.listings(addresses);
        },
      },
    });
    // Process B: the same store, nothing slow.
    const quick = createEngine({ store, clock, ids: sequentialIds(2_000_000), jobs: { workerId: "quick" } });
    await loadWorld(quick);
    const api = quick.forAccount("acme");
    const attempt = await api.registerAttempt({
      direction: "incoming",
      network: "ETH",
      input_address: W.b,
      output_address: W.client,
      amount: 10,
    });
    const slowRun = slow.drain();
    await blocked;
    // Meanwhile the attempt is bound and screened by B, counterparty and sanctions included.
    await api.bindTransaction(attempt.id, { tx_hash: TX.deposit });
    await quick.drain();
    const screened = await api.getTransfer(attempt.id);
    const screenedRisks = await api.getTransferRisks(attempt.id);
    expect(screened).toMatchObject({ tx_status: "bound", risk_level: "severe" });
    expect(screened.check_state).toMatchObject({
      exposure: "checked",
      counterparty: "checked",
      sanctions: "checked",
    });
    expect(screenedRisks.some((r) => r.risk_type.startsWith("attempt_"))).toBe(false);
    // A's old run ends: its attempt-time results are no longer wanted.
    release();
    await slowRun;
    expect(await api.getTransfer(attempt.id)).toEqual(screened);
    expect(await api.getTransferRisks(attempt.id)).toEqual(screenedRisks);
  });
});
