/** The followed blocks of the in-memory store (see `ChainFollowStoreOps`). */
import { KytError } from "../errors.js";
import type { ChainFollowStoreOps, FollowedBlock } from "../ports/store-chain-follow.js";
import { deleteEntry, type Journal, setEntry } from "./memory-journal.js";
import { recordRewind } from "./memory-rewinds.js";
import { keyOf, type MemoryTables } from "./memory-state.js";

/** Creates the chain-follow members over `tables`, writing through `journal`. */
export function memoryChainFollowOps(tables: MemoryTables, journal: Journal): ChainFollowStoreOps {
  const { followedBlocks, ledger } = tables;
  const ofNetwork = (network: string): FollowedBlock[] =>
    [...followedBlocks.values()].filter((b) => b.network === network);
  return {
    async followedHead(network) {
      let head: FollowedBlock | null = null;
      for (const block of ofNetwork(network)) if (head === null || block.height > head.height) head = block;
      return head === null ? null : { ...head };
    },
    async followedBlock(network, height) {
      const block = followedBlocks.get(keyOf(network, height));
      return block === undefined ? null : { ...block };
    },
    async recordFollowedBlocks(blocks) {
      const keys = new Set<string>();
      for (const block of blocks) {
        const key = keyOf(block.network, block.height);
        if (followedBlocks.has(key) || keys.has(key))
          throw new KytError("CONFLICT", `block ${block.height} of ${block.network} is already followed`);
        keys.add(key);
      }
      for (const block of blocks) {
        setEntry(journal, followedBlocks, keyOf(block.network, block.height), {
          network: block.network,
          height: block.height,
          hash: block.hash,
        });
      }
    },
    async pruneFollowedBlocks(network, belowHeight) {
      const old = ofNetwork(network).filter((b) => b.height < belowHeight);
      for (const block of old) deleteEntry(journal, followedBlocks, keyOf(network, block.height));
      return old.length;
    },
    async rewindFollowedChain(network, fromHeight) {
      const replaced = ofNetwork(network).filter((b) => b.height >= fromHeight);
      for (const block of replaced) deleteEntry(journal, followedBlocks, keyOf(network, block.height));
      const before = ledger.rows.slice();
      const stays = (r: (typeof before)[number]) =>
        r.network !== network || r.block === null || r.block < fromHeight;
      const kept = before.filter(stays);
      const removed = before.length - kept.length;
      if (removed > 0) {
        // Positions are places in the list (from 1): those before the first removed row keep theirs.
        recordRewind(tables, journal, {
          ledger: "account",
          network,
          fromHeight,
          resumeAfter: before.findIndex((r) => !stays(r)),
        });
        ledger.rows.splice(0, ledger.rows.length, ...kept);
        ledger.index = null;
        journal.record(() => {
          ledger.rows.splice(0, ledger.rows.length, ...before);
          ledger.index = null;
        });
      }
      return { blocks: replaced.length, transfers: removed };
    },
  };
}
