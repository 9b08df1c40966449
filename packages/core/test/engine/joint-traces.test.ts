/**
 * A transfer's exposure and counterparty traces are asked of the trace executor in one call, so
 * that a screening pool queues the transfer once instead of once per trace; the results are the
 * ones of asking them one by one.
 */
import { describe, expect, it } from "vitest";
import { T0, W } from "../../../testkit/src/engine-world.js";
import type { LedgerTransfer } from "../../src/domain/records.js";
import { createEngine } from "../../src/engine/create-engine.js";
import { storeAttributionSource, storeSanctionsSource } from "../../src/engine/sources/store-sources.js";
import { createEntityResolver } from "../../src/exposure/entity-resolver.js";
import { inlineTraceExecutor } from "../../src/exposure/trace-requests.js";
import { manualClock } from "../../src/ports/runtime.js";
import type { TraceExecutor, TraceRequest } from "../../src/ports/trace-executor.js";
import { createMemoryStore } from "../../src/store/index.js";

const HASH_IN = `0x${"b1".repeat(32)}`;
const HASH_OUT = `0x${"b2".repeat(32)}`;

/** The sanctioned address pays A, and A pays the client an hour later. */
const LEDGER: LedgerTransfer[] = [
  {
    network: "ETH",
    tokenId: "native",
    occurredAt: T0 + 60_000,
    valueUsd: null,
    block: 7,
    logIndex: 1,
    txHash: HASH_IN,
    from: W.sanctioned,
    to: W.a,
    amount: 5,
  },
  {
    network: "ETH",
    tokenId: "native",
    occurredAt: T0 + 3_660_000,
    valueUsd: null,
    block: 9,
    logIndex: 1,
    txHash: HASH_OUT,
    from: W.a,
    to: W.client,
    amount: 5,
  },
];

/** Registers the client's incoming transfer and checks it; `wrap` may stand between the engine and the inline executor. */
async function screen(wrap: ((inner: TraceExecutor) => TraceExecutor) | null) {
  const store = createMemoryStore();
  const inner = inlineTraceExecutor({
    ledger: store,
    resolver: createEntityResolver({
      attributions: storeAttributionSource(store),
      sanctions: storeSanctionsSource(store),
    }),
  });
  const engine = createEngine({
    store,
    clock: manualClock(T0 + 7_200_000),
    clustering: false,
    ...(wrap ? { traceExecutor: wrap(inner) } : {}),
  });
  const failures: string[] = [];
  engine.events.on("job.failed", (info) => failures.push(info.reason));
  await engine.reference.loadLedger(LEDGER);
  await engine.reference.loadSanctions([
    {
      network: "ETH",
      address: W.sanctioned,
      listName: "OFAC SDN",
      program: null,
      entity: "Bad Actor",
      listedAt: null,
      delistedAt: null,
    },
  ]);
  const { transfer } = await engine.forAccount("acme").registerTransfer({
    direction: "incoming",
    network: "ETH",
    tx_hash: HASH_OUT,
    output_address: W.client,
  });
  await engine.drain();
  return { checked: await store.getTransfer(transfer.id), failures };
}

describe("a transfer's two traces", () => {
  it("are asked of the executor in one call, with the results of the engine's own executor", async () => {
    const calls: Array<ReadonlyArray<TraceRequest["kind"]>> = [];
    const { checked } = await screen((inner) => ({
      run(requests) {
        calls.push(requests.map((r) => r.kind));
        return inner.run(requests);
      },
    }));
    expect(calls).toEqual([["transfer", "address"]]);
    expect(checked?.checks.exposure.state).toBe("checked");
    expect(checked?.exposure?.shares.map((s) => s.category)).toContain("sanctions");
    const { checked: alone } = await screen(null);
    expect(checked?.exposure).toEqual(alone?.exposure);
    expect(checked?.counterparty).toEqual(alone?.counterparty);
    expect(checked?.riskLevel).toEqual(alone?.riskLevel);
  });

  it("fail the checks with the executor's error when one of them fails, as asked one by one", async () => {
    const { checked, failures } = await screen((inner) => ({
      async run(requests) {
        const out = await inner.run(requests);
        return out.map((o, i) =>
          requests[i]?.kind === "transfer" ? { kind: "failed", code: "INTERNAL_ERROR", message: "boom" } : o,
        );
      },
    }));
    expect(failures.some((reason) => /boom/.test(reason))).toBe(true);
    expect(checked?.checks.exposure.state).not.toBe("checked");
    expect(checked?.exposure).toBeNull();
  });
});
