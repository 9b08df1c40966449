/** Conformance of the optional `scanLedger`: the ledger in stored order, resumable from a position. */
import type { LedgerTransfer, Store } from "@openkyt/core";
import { describe, expect, it } from "vitest";
import type { ConformanceContext } from "./store-conformance.js";
import { makeLedgerTransfer, BASE_TIME as T0 } from "./store-factories.js";

/** Every row after `after`, page by page. */
async function scanAll(store: Store, after: number, pageSize: number) {
  const rows: LedgerTransfer[] = [];
  let position = after;
  for (;;) {
    const page = await store.scanLedger?.(position, pageSize);
    if (!page) throw new Error("scanLedger is not offered");
    expect(page.rows.length).toBeLessThanOrEqual(pageSize);
    if (page.rows.length > 0) expect(page.last).toBeGreaterThan(position);
    else expect(page.last).toBe(position);
    rows.push(...page.rows);
    position = page.last;
    if (page.rows.length < pageSize) return { rows, position };
  }
}

/** Registers the scan tests; they skip for a store that does not offer `scanLedger`. */
export function ledgerScanConformance(ctx: ConformanceContext): void {
  describe("ledger scan (optional)", () => {
    it("lists every row in the order stored, page by page", async ({ skip }) => {
      const s = ctx.store();
      if (!s.scanLedger) return skip("this store does not offer scanLedger");
      const first = Array.from({ length: 7 }, (_, i) => makeLedgerTransfer({ occurredAt: T0 + 1000 - i }));
      const second = Array.from({ length: 5 }, (_, i) => makeLedgerTransfer({ occurredAt: T0 - i }));
      await s.putLedgerTransfers(first);
      await s.putLedgerTransfers(second);
      const { rows } = await scanAll(s, 0, 3);
      expect(rows).toEqual([...first, ...second]);
    });

    it("returns exactly the rows stored since a position, never a duplicate or an ignored row", async ({
      skip,
    }) => {
      const s = ctx.store();
      if (!s.scanLedger) return skip("this store does not offer scanLedger");
      const before = [makeLedgerTransfer(), makeLedgerTransfer()];
      await s.putLedgerTransfers(before);
      const { position } = await scanAll(s, 0, 10);
      const later = [makeLedgerTransfer(), makeLedgerTransfer({ logIndex: 3 })];
      // Re-storing a known row changes nothing; a rolled-back write leaves no trace.
      await s.putLedgerTransfers([...later, before[0] as LedgerTransfer]);
      await expect(
        s.transaction(async (tx) => {
          await tx.putLedgerTransfers([makeLedgerTransfer()]);
          throw new Error("rolled back");
        }),
      ).rejects.toThrow("rolled back");
      const since = await scanAll(s, position, 10);
      expect(since.rows).toEqual(later);
      expect((await scanAll(s, since.position, 10)).rows).toEqual([]);
    });

    it("never steps past a row that a slower writer commits later (positions follow commit order)", async ({
      skip,
    }) => {
      const s = ctx.store();
      if (!s.scanLedger) return skip("this store does not offer scanLedger");
      const start = (await scanAll(s, 0, 100)).position;
      const slow = makeLedgerTransfer();
      const fast = makeLedgerTransfer();
      let release = () => {};
      const gate = new Promise<void>((resolve) => {
        release = resolve;
      });
      let inserted = () => {};
      const insertedSlow = new Promise<void>((resolve) => {
        inserted = resolve;
      });
      // The slow writer inserts first and holds its transaction open; the fast one writes after it.
      const slowWrite = s.transaction(async (tx) => {
        await tx.putLedgerTransfers([slow]);
        inserted();
        await gate;
      });
      await insertedSlow;
      const fastWrite = s.putLedgerTransfers([fast]);
      // A follower reads meanwhile (only where a read can run beside an open transaction),
      // after giving the fast writer time to commit if the store let it.
      const follower = { rows: [] as LedgerTransfer[], position: start };
      if (s.capabilities.multiProcess) {
        await Promise.race([fastWrite, new Promise((resolve) => setTimeout(resolve, 300))]);
        const early = await scanAll(s, start, 100);
        follower.rows.push(...early.rows);
        follower.position = early.position;
      }
      release();
      await Promise.all([slowWrite, fastWrite]);
      expect((await scanAll(s, start, 100)).rows).toEqual([slow, fast]);
      // Going on from where it stopped, the follower has seen every row, in commit order.
      follower.rows.push(...(await scanAll(s, follower.position, 100)).rows);
      expect(follower.rows).toEqual([slow, fast]);
    });

    it("answers an empty page at the end and for a position past it", async ({ skip }) => {
      const s = ctx.store();
      if (!s.scanLedger) return skip("this store does not offer scanLedger");
      expect(await s.scanLedger(0, 10)).toEqual({ rows: [], last: 0 });
      await s.putLedgerTransfers([makeLedgerTransfer()]);
      const page = await s.scanLedger(0, 10);
      expect(page.rows).toHaveLength(1);
      expect(await s.scanLedger(page.last + 100, 10)).toEqual({ rows: [], last: page.last + 100 });
    });
  });
}
