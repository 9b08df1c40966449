/**
 * Conformance of the optional `scanRewinds`: every undo of a followed chain that removed rows
 * (`rewindFollowedChain`, `deleteUtxoBlocksFrom`) is recorded with its transaction, numbered in
 * order, and its `resumeAfter` is a position from which a copy that dropped the removed rows
 * reads on to exactly what the store holds, even where positions are reused (SQLite's rowid).
 */
import type { LedgerTransfer, Store, UtxoTransaction } from "@openkyt/core";
import { describe, expect, it } from "vitest";
import type { ConformanceContext } from "./store-conformance.js";
import { makeLedgerTransfer } from "./store-factories.js";
import { makeUtxoTransaction } from "./utxo-factories.js";

const rowKey = (r: LedgerTransfer) => `${r.network}:${r.txHash}:${r.logIndex}`;
const txKey = (t: UtxoTransaction) => `${t.network}:${t.txid}`;

/** Every item of a scan after `after`, with its position (a page of one at a time). */
async function positioned<T>(
  scan: (
    after: number,
    limit: number,
  ) => Promise<{ readonly items: ReadonlyArray<T>; readonly last: number }>,
  after: number,
): Promise<Array<{ readonly item: T; readonly position: number }>> {
  const out: Array<{ item: T; position: number }> = [];
  for (let at = after; ; ) {
    const page = await scan(at, 1);
    const item = page.items[0];
    if (item === undefined) return out;
    out.push({ item, position: page.last });
    at = page.last;
  }
}

/**
 * What a copy holds after dropping a rewind's rows and reading on from its `resumeAfter`: the
 * items it held at positions <= resumeAfter (none of them removed), then the rest of the scan.
 */
async function followRewind<T>(
  before: ReadonlyArray<{ readonly item: T; readonly position: number }>,
  removed: (item: T) => boolean,
  resumeAfter: number,
  scan: (
    after: number,
    limit: number,
  ) => Promise<{ readonly items: ReadonlyArray<T>; readonly last: number }>,
): Promise<T[]> {
  const prefix = before.filter((b) => b.position <= resumeAfter).map((b) => b.item);
  expect(prefix.filter(removed)).toEqual([]);
  return [...prefix, ...(await positioned(scan, resumeAfter)).map((p) => p.item)];
}

/** The last rewind recorded. */
async function lastRewind(s: Store) {
  const all = (await s.scanRewinds?.(0, 1_000)) ?? [];
  return all[all.length - 1];
}

/** Registers the rewind tests; they skip for a store that does not offer `scanRewinds`. */
export function rewindConformance(ctx: ConformanceContext): void {
  describe("rewind log (optional)", () => {
    it("records each undo that removed rows, numbered in commit order, with its transaction", async ({
      skip,
    }) => {
      const s = ctx.store();
      if (!s.scanRewinds) return skip("this store does not offer scanRewinds");
      expect(await s.scanRewinds(0, 10)).toEqual([]);
      await s.putLedgerTransfers([makeLedgerTransfer({ block: 2 }), makeLedgerTransfer({ block: 4 })]);
      await s.putUtxoTransactions([
        makeUtxoTransaction({ block: 100, outputs: [["A", 5]] }),
        makeUtxoTransaction({ block: 101, outputs: [["B", 5]] }),
      ]);
      // Nothing removed, nothing recorded.
      expect(await s.rewindFollowedChain("ETH", 10)).toEqual({ blocks: 0, transfers: 0 });
      expect(await s.deleteUtxoBlocksFrom("BTC", 200)).toBe(0);
      expect(await s.scanRewinds(0, 10)).toEqual([]);
      // A failed transaction records nothing either.
      await expect(
        s.transaction(async (tx) => {
          await tx.rewindFollowedChain("ETH", 0);
          throw new Error("abort");
        }),
      ).rejects.toThrow("abort");
      expect(await s.scanRewinds(0, 10)).toEqual([]);
      await s.transaction(async (tx) => {
        await tx.rewindFollowedChain("ETH", 3);
        await tx.deleteUtxoBlocksFrom("BTC", 101);
      });
      const recorded = await s.scanRewinds(0, 10);
      expect(recorded).toEqual([
        { id: 1, ledger: "account", network: "ETH", fromHeight: 3, resumeAfter: expect.any(Number) },
        { id: 2, ledger: "utxo", network: "BTC", fromHeight: 101, resumeAfter: expect.any(Number) },
      ]);
      expect(await s.scanRewinds(0, 1)).toEqual(recorded.slice(0, 1));
      expect(await s.scanRewinds(1, 10)).toEqual(recorded.slice(1));
      expect(await s.scanRewinds(2, 10)).toEqual([]);
      expect(await s.rewindFollowedChain("ETH", 0)).toMatchObject({ transfers: 1 });
      expect((await s.scanRewinds(2, 10)).map((r) => r.id)).toEqual([3]);
    });

    it("gives a ledger position a copy reads on from to hold exactly the store's rows", async ({ skip }) => {
      const s = ctx.store();
      const scanLedger = s.scanLedger?.bind(s);
      if (!s.scanRewinds || !scanLedger) return skip("this store does not offer scanRewinds and scanLedger");
      const scan = async (after: number, limit: number) => {
        const page = await scanLedger(after, limit);
        return { items: page.rows, last: page.last };
      };
      const removedFrom = (height: number) => (r: LedgerTransfer) =>
        r.network === "ETH" && r.block !== null && r.block >= height;
      // Replaced rows among others (positions after them shift or stay), then at the tail
      // (a store that numbers new rows after the highest one left may reuse theirs).
      for (const [round, tail] of [
        [0, false],
        [1, true],
      ] as const) {
        const base = 1_000 * round;
        for (let b = 1; b <= 6; b++) {
          await s.putLedgerTransfers([makeLedgerTransfer({ block: base + b })]);
          if (!tail) await s.putLedgerTransfers([makeLedgerTransfer({ network: "BSC", block: b })]);
        }
        const before = await positioned(scan, 0);
        await s.rewindFollowedChain("ETH", base + 4);
        const rewind = await lastRewind(s);
        expect(rewind).toMatchObject({ ledger: "account", network: "ETH", fromHeight: base + 4 });
        // The new branch, and a row of another network, stored after the undo.
        await s.putLedgerTransfers([
          makeLedgerTransfer({ block: base + 4 }),
          makeLedgerTransfer({ block: base + 5 }),
        ]);
        await s.putLedgerTransfers([makeLedgerTransfer({ network: "BSC", block: 9 })]);
        const copy = await followRewind(before, removedFrom(base + 4), rewind?.resumeAfter ?? -1, scan);
        const held = (await positioned(scan, 0)).map((p) => p.item);
        expect(new Set(copy.map(rowKey))).toEqual(new Set(held.map(rowKey)));
      }
    });

    it("gives a UTXO position a copy reads on from to hold exactly the store's transactions", async ({
      skip,
    }) => {
      const s = ctx.store();
      const scanUtxo = s.scanUtxoTransactions?.bind(s);
      if (!s.scanRewinds || !scanUtxo)
        return skip("this store does not offer scanRewinds and scanUtxoTransactions");
      const scan = async (after: number, limit: number) => {
        const page = await scanUtxo(after, limit);
        return { items: page.txs, last: page.last };
      };
      for (const tail of [false, true]) {
        const base = tail ? 1_000 : 0;
        for (let b = 1; b <= 6; b++) {
          await s.putUtxoTransactions([makeUtxoTransaction({ block: base + b, outputs: [["A", 5]] })]);
          if (!tail)
            await s.putUtxoTransactions([
              makeUtxoTransaction({ network: "LTC", block: b, outputs: [["L", 5]] }),
            ]);
        }
        const before = await positioned(scan, 0);
        await s.deleteUtxoBlocksFrom("BTC", base + 4);
        const rewind = await lastRewind(s);
        expect(rewind).toMatchObject({ ledger: "utxo", network: "BTC", fromHeight: base + 4 });
        await s.putUtxoTransactions([makeUtxoTransaction({ block: base + 4, outputs: [["B", 5]] })]);
        await s.putUtxoTransactions([makeUtxoTransaction({ network: "LTC", block: 9, outputs: [["L", 5]] })]);
        const removed = (t: UtxoTransaction) =>
          t.network === "BTC" && t.block !== null && t.block >= base + 4;
        const copy = await followRewind(before, removed, rewind?.resumeAfter ?? -1, scan);
        const held = (await positioned(scan, 0)).map((p) => p.item);
        expect(new Set(copy.map(txKey))).toEqual(new Set(held.map(txKey)));
      }
    });
  });
}
