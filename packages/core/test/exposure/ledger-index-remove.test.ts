/**
 * `LedgerIndex.removeBlocksFrom` (what a warm copy does after a reorganisation): whatever rows
 * were added, compacted or not, removing a network's blocks from a height on leaves an index
 * that answers every read exactly as one built from the remaining rows only.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { LedgerTransfer } from "../../src/domain/records.js";
import { LedgerIndex } from "../../src/exposure/ledger-index.js";

const ADDRESSES = ["a", "b", "c", "d", "e"];
const row = fc
  .record({
    network: fc.constantFrom("ETH", "BSC"),
    tx: fc.integer({ min: 0, max: 30 }),
    logIndex: fc.integer({ min: 0, max: 2 }),
    tokenId: fc.constantFrom("native", "usdt"),
    from: fc.constantFrom(...ADDRESSES),
    to: fc.constantFrom(...ADDRESSES),
    time: fc.integer({ min: 0, max: 20 }),
    block: fc.option(fc.integer({ min: 0, max: 9 }), { nil: null }),
  })
  .map(
    (r): LedgerTransfer => ({
      network: r.network,
      txHash: `0x${r.tx}`,
      logIndex: r.logIndex,
      tokenId: r.tokenId,
      from: r.from,
      to: r.to,
      amount: r.tx + r.logIndex / 10,
      occurredAt: r.time * 1_000,
      block: r.block,
      valueUsd: null,
    }),
  );

/** Every read of `index` over the small world. */
function reads(index: LedgerIndex) {
  const out: unknown[] = [index.size];
  for (const network of ["ETH", "BSC"])
    for (const token of ["native", "usdt"]) {
      const incoming = ADDRESSES.map((address) => ({ address, before: 15_000 }));
      const outgoing = ADDRESSES.map((address) => ({ address, after: 5_000 }));
      out.push(
        index.incomingSync(network, token, incoming, 50),
        index.outgoingSync(network, token, outgoing, 50),
      );
      out.push(
        index.incomingCountsSync(network, token, incoming),
        index.outgoingCountsSync(network, token, outgoing),
      );
    }
  for (let tx = 0; tx <= 30; tx++)
    out.push(index.byTxHash("ETH", `0x${tx}`), index.byTxHash("BSC", `0x${tx}`));
  return out;
}

describe("LedgerIndex.removeBlocksFrom", () => {
  it("leaves the index a fresh one of the remaining rows would be, and takes rows back", () => {
    fc.assert(
      fc.property(
        // One row per (network, txHash, logIndex), as a chain has.
        fc.uniqueArray(row, { maxLength: 60, selector: (r) => `${r.network}:${r.txHash}:${r.logIndex}` }),
        fc.array(row, { maxLength: 20 }),
        fc.integer({ min: 0, max: 10 }),
        fc.constantFrom(1, 3, 4096),
        fc.boolean(),
        (first, later, height, compactAt, compactFirst) => {
          const index = new LedgerIndex({ compactAt });
          index.add(first);
          if (compactFirst) index.compact();
          reads(index);
          const doomed = (r: LedgerTransfer) => r.network === "ETH" && r.block !== null && r.block >= height;
          const held = new LedgerIndex();
          held.add(first);
          const before = held.size;
          const kept = new LedgerIndex({ compactAt });
          const keptRows = first.filter((r) => !doomed(r));
          kept.add(keptRows);
          expect(index.removeBlocksFrom("ETH", height)).toBe(before - kept.size);
          expect(reads(index)).toEqual(reads(kept));
          // Rows added afterwards (the new branch, or the same rows again) are held as usual.
          expect(index.add(later)).toBe(kept.add(later));
          expect(reads(index)).toEqual(reads(kept));
          expect(index.removeBlocksFrom("ETH", height)).toBe(kept.removeBlocksFrom("ETH", height));
          expect(reads(index)).toEqual(reads(kept));
        },
      ),
      { numRuns: 300 },
    );
  });
});
