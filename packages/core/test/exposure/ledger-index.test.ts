import { describe, expect, it } from "vitest";
import type { LedgerTransfer } from "../../src/domain/records.js";
import { LedgerIndex } from "../../src/exposure/ledger-index.js";

function t(
  txHash: string,
  from: string,
  to: string,
  amount: number,
  occurredAt: number,
  logIndex = 0,
): LedgerTransfer {
  return {
    network: "ETH",
    txHash,
    logIndex,
    tokenId: "native",
    from,
    to,
    amount,
    occurredAt,
    block: null,
    valueUsd: null,
  };
}

describe("LedgerIndex", () => {
  const rows = [
    t("0x3", "c", "a", 3, 300),
    t("0x1", "b", "a", 1, 100),
    t("0x2", "d", "a", 2, 200),
    t("0x2", "a", "e", 5, 200, 1),
  ];

  it("ignores duplicates and counts new rows", () => {
    const index = new LedgerIndex();
    expect(index.add(rows)).toBe(4);
    expect(index.add([rows[0]!, t("0x4", "a", "f", 1, 400)])).toBe(1);
    expect(index.size).toBe(5);
  });

  it("lists a transaction's transfers by log index", () => {
    const index = new LedgerIndex();
    index.add([rows[3]!, rows[2]!]);
    expect(index.byTxHash("ETH", "0x2").map((r) => r.logIndex)).toEqual([0, 1]);
    expect(index.byTxHash("ETH", "0x9")).toEqual([]);
  });

  it("reads incoming strictly before, latest first, limited per address", async () => {
    const index = new LedgerIndex();
    index.add(rows);
    const all = await index.ledgerIncoming("ETH", "native", [{ address: "a", before: 300 }], 10);
    expect(all.map((r) => r.txHash)).toEqual(["0x2", "0x1"]);
    const one = await index.ledgerIncoming("ETH", "native", [{ address: "a", before: 301 }], 1);
    expect(one.map((r) => r.txHash)).toEqual(["0x3"]);
    expect(await index.ledgerIncoming("ETH", "usdt", [{ address: "a", before: 999 }], 10)).toEqual([]);
  });

  it("reads outgoing strictly after, earliest first", async () => {
    const index = new LedgerIndex();
    index.add([...rows, t("0x4", "a", "f", 1, 400), t("0x5", "a", "g", 1, 500)]);
    const out = await index.ledgerOutgoing("ETH", "native", [{ address: "a", after: 200 }], 10);
    expect(out.map((r) => r.txHash)).toEqual(["0x4", "0x5"]);
    const limited = await index.ledgerOutgoing("ETH", "native", [{ address: "a", after: 0 }], 2);
    expect(limited.map((r) => r.txHash)).toEqual(["0x2", "0x4"]);
  });
});
