import type { LedgerTransfer } from "@openkyt/core";
import { describe, expect, it } from "vitest";
import { createBatchDedup } from "../src/ledger-batch-dedup.js";

describe("ledger batch deduplication", () => {
  it("deduplicate a batch on network, hash and log index, first row kept, across reused tables", () => {
    const dedup = createBatchDedup();
    const row = (network: string, n: number, logIndex: number) =>
      ({ network, txHash: `0x${n.toString(16).padStart(64, "0")}`, logIndex }) as LedgerTransfer;
    // Hashes that share their last characters collide in the table and must still be told apart.
    const tail = (n: number) =>
      ({ network: "ETH", txHash: `0x${n}${"0".repeat(63)}`, logIndex: 0 }) as LedgerTransfer;
    for (let round = 0; round < 3; round++) {
      const batch = [
        row("ETH", 1, 0),
        row("ETH", 1, 1),
        row("BSC", 1, 0),
        row("ETH", 1, 0),
        tail(1),
        tail(2),
        tail(1),
        row("ETH", 1, 1),
      ];
      let duplicates = 0;
      const kept = dedup.distinct(batch, () => duplicates++);
      expect(kept).toEqual([batch[0], batch[1], batch[2], batch[4], batch[5]]);
      expect(duplicates).toBe(3);
    }
    const big = Array.from({ length: 40_000 }, (_, i) => row("ETH", i % 30_000, 0));
    let duplicates = 0;
    expect(dedup.distinct(big, () => duplicates++)).toHaveLength(30_000);
    expect(duplicates).toBe(10_000);
  });
});
