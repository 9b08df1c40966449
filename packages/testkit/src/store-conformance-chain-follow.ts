/**
 * Conformance of the chain-follow members: a follower's cursor (the highest followed block),
 * block hashes kept for reorganisation checks, a second writer refused, and the undo of
 * replaced blocks with their ledger rows.
 */
import type { FollowedBlock } from "@openkyt/core";
import { describe, expect, it } from "vitest";
import { type ConformanceContext, expectKytError } from "./store-conformance.js";
import { makeLedgerTransfer } from "./store-factories.js";

/** Followed blocks `from`..`to` of a network, hashed by height and a tag. */
function blocks(network: string, from: number, to: number, tag = "a"): FollowedBlock[] {
  const out: FollowedBlock[] = [];
  for (let h = from; h <= to; h++) out.push({ network, height: h, hash: `0x${tag}${h.toString(16)}` });
  return out;
}

/** Registers the chain-follow tests. */
export function chainFollowConformance(ctx: ConformanceContext): void {
  describe("chain follow", () => {
    it("keeps the highest followed block per network as the cursor", async () => {
      const s = ctx.store();
      expect(await s.followedHead("ETH")).toBeNull();
      await s.recordFollowedBlocks(blocks("ETH", 100, 104));
      await s.recordFollowedBlocks(blocks("TRX", 7, 7));
      expect(await s.followedHead("ETH")).toEqual({ network: "ETH", height: 104, hash: "0xa68" });
      expect(await s.followedHead("TRX")).toEqual({ network: "TRX", height: 7, hash: "0xa7" });
      expect(await s.followedBlock("ETH", 102)).toEqual({ network: "ETH", height: 102, hash: "0xa66" });
      expect(await s.followedBlock("ETH", 99)).toBeNull();
      expect(await s.followedHead("BTC")).toBeNull();
    });

    it("refuses a block already followed, writing none of the batch", async () => {
      const s = ctx.store();
      await s.recordFollowedBlocks(blocks("ETH", 10, 12));
      await expectKytError(s.recordFollowedBlocks(blocks("ETH", 12, 14, "b")), "CONFLICT");
      expect(await s.followedHead("ETH")).toEqual({ network: "ETH", height: 12, hash: "0xac" });
      expect(await s.followedBlock("ETH", 13)).toBeNull();
    });

    it("lands with the ledger rows of its transaction or not at all", async () => {
      const s = ctx.store();
      const row = makeLedgerTransfer({ block: 20 });
      await expect(
        s.transaction(async (tx) => {
          await tx.putLedgerTransfers([row]);
          await tx.recordFollowedBlocks(blocks("ETH", 20, 20));
          throw new Error("boom");
        }),
      ).rejects.toThrow("boom");
      expect(await s.followedHead("ETH")).toBeNull();
      expect(await s.ledgerByTxHash("ETH", row.txHash)).toEqual([]);
      await s.transaction(async (tx) => {
        await tx.putLedgerTransfers([row]);
        await tx.recordFollowedBlocks(blocks("ETH", 20, 20));
      });
      expect(await s.followedHead("ETH")).toMatchObject({ height: 20 });
      expect(await s.ledgerByTxHash("ETH", row.txHash)).toEqual([row]);
    });

    it("prunes old hashes without moving the cursor", async () => {
      const s = ctx.store();
      await s.recordFollowedBlocks(blocks("ETH", 1, 10));
      await s.recordFollowedBlocks(blocks("BSC", 1, 10));
      expect(await s.pruneFollowedBlocks("ETH", 8)).toBe(7);
      expect(await s.followedBlock("ETH", 7)).toBeNull();
      expect(await s.followedBlock("ETH", 8)).not.toBeNull();
      expect(await s.followedBlock("BSC", 1)).not.toBeNull();
      expect(await s.followedHead("ETH")).toMatchObject({ height: 10 });
    });

    it("rewinds a network: its blocks and ledger rows from a height on, nothing else", async () => {
      const s = ctx.store();
      await s.recordFollowedBlocks(blocks("ETH", 1, 5));
      await s.recordFollowedBlocks(blocks("BSC", 1, 5));
      const kept = [
        makeLedgerTransfer({ block: 2 }),
        makeLedgerTransfer({ block: null }),
        makeLedgerTransfer({ network: "BSC", block: 4 }),
      ];
      const replaced = [makeLedgerTransfer({ block: 3 }), makeLedgerTransfer({ block: 5, logIndex: 7 })];
      await s.putLedgerTransfers([...kept, ...replaced]);
      expect(await s.rewindFollowedChain("ETH", 3)).toEqual({ blocks: 3, transfers: 2 });
      expect(await s.followedHead("ETH")).toMatchObject({ height: 2 });
      expect(await s.followedHead("BSC")).toMatchObject({ height: 5 });
      for (const row of kept) expect(await s.ledgerByTxHash(row.network, row.txHash)).toEqual([row]);
      for (const row of replaced) expect(await s.ledgerByTxHash("ETH", row.txHash)).toEqual([]);
      // The replacement chain is recorded and written again from there.
      await s.recordFollowedBlocks(blocks("ETH", 3, 4, "b"));
      expect(await s.followedHead("ETH")).toEqual({ network: "ETH", height: 4, hash: "0xb4" });
      expect(await s.putLedgerTransfers(replaced)).toBe(2);
      expect(await s.rewindFollowedChain("ETH", 100)).toEqual({ blocks: 0, transfers: 0 });
    });
  });
}
