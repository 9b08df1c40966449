import { describe, expect, it } from "vitest";
import { T0, W } from "../../../testkit/src/engine-world.js";
import type { LedgerTransfer } from "../../src/domain/records.js";
import { createEngine } from "../../src/engine/create-engine.js";
import { manualClock } from "../../src/ports/runtime.js";
import { createMemoryStore } from "../../src/store/index.js";

const HASH_IN = `0x${"a1".repeat(32)}`;
const HASH_OUT = `0x${"a2".repeat(32)}`;

/** The sanctioned address pays A, and A pays the client, in the same second: block 7, log 1 then 2. */
function sameSecond(block: number | null): LedgerTransfer[] {
  const at = T0 + 60_000;
  const base = { network: "ETH", tokenId: "native", occurredAt: at, valueUsd: null, block };
  return [
    { ...base, txHash: HASH_IN, logIndex: 1, from: W.sanctioned, to: W.a, amount: 5 },
    { ...base, txHash: HASH_OUT, logIndex: 2, from: W.a, to: W.client, amount: 5 },
  ];
}

async function screen(ledger: LedgerTransfer[]) {
  const store = createMemoryStore();
  const engine = createEngine({ store, clock: manualClock(T0 + 3_600_000) });
  await engine.reference.loadLedger(ledger);
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
  const api = engine.forAccount("acme");
  const { transfer } = await api.registerTransfer({
    direction: "incoming",
    network: "ETH",
    tx_hash: HASH_OUT,
    output_address: W.client,
  });
  await engine.drain();
  return {
    stored: await store.getTransfer(transfer.id),
    exposure: await api.getTransferExposure(transfer.id),
  };
}

/** The categories the exposure answer names (the sanctions details beside them left out). */
function categories(exposure: { indirect_interaction: ReadonlyArray<{ entity_category: string }> | null }) {
  return (exposure.indirect_interaction ?? []).map((i) => i.entity_category);
}

describe("a bound transfer's place in its block", () => {
  it("is kept from the ledger row, and the exposure trace starts from it (the same block funds it)", async () => {
    const { stored, exposure } = await screen(sameSecond(7));
    expect(stored?.chainPosition).toEqual({ block: 7, logIndex: 2 });
    expect(categories(exposure)).toContain("sanctions");
  });

  it("without block numbers the trace orders by time only, as before: the same second funds nothing", async () => {
    const { stored, exposure } = await screen(sameSecond(null));
    expect(stored?.chainPosition ?? null).toBeNull();
    expect(categories(exposure)).not.toContain("sanctions");
  });
});

describe("a ledger row whose place in its block is unknown", () => {
  it("loads with any negative log index, -1, -2, ... per transaction, and refuses a fraction", async () => {
    const store = createMemoryStore();
    const engine = createEngine({ store });
    const rows = sameSecond(7).map((r, i) => ({ ...r, txHash: HASH_IN, logIndex: -1 - i }));
    expect(await engine.reference.loadLedger(rows)).toBe(2);
    expect((await store.ledgerByTxHash("ETH", HASH_IN)).map((r) => r.logIndex).sort()).toEqual([-1, -2]);
    await expect(engine.reference.loadLedger([{ ...rows[0]!, logIndex: -1.5 }])).rejects.toThrow(
      /logIndex must be an integer/,
    );
  });
});
