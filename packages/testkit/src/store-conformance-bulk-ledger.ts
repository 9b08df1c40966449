/**
 * Conformance of the optional `Store.bulkLedgerWriter`: a bulk load lands every row at `finish()`
 * and none before, with the same result as `putLedgerTransfers` of the rows in order (rows already
 * stored, or written earlier in the load, are ignored), and `abort()` leaves nothing. A store
 * without the member skips these tests, saying so.
 */
import type { LedgerBulkOptions, LedgerBulkWriter, LedgerTransfer, Store } from "@openkyt/core";
import { describe, expect, it } from "vitest";
import type { ConformanceContext } from "./store-conformance.js";
import { makeLedgerTransfer, BASE_TIME as T0 } from "./store-factories.js";

const ABSENT = "the store offers no bulkLedgerWriter (an optional member)";

/** Opens a bulk load on `store`, or skips the test when the store has none. */
async function openLoad(
  store: Store,
  skip: (note: string) => never,
  options?: LedgerBulkOptions,
): Promise<LedgerBulkWriter> {
  if (!store.bulkLedgerWriter) return skip(ABSENT);
  return store.bulkLedgerWriter(options);
}

/** The latest `limit` rows into `address` before `before`, as `ledgerIncoming` orders them. */
function expectedIncoming(
  rows: ReadonlyArray<LedgerTransfer>,
  address: string,
  before: number,
  limit: number,
) {
  return rows
    .filter((r) => r.to === address && r.occurredAt < before)
    .sort((a, b) => b.occurredAt - a.occurredAt || (a.txHash < b.txHash ? 1 : -1))
    .slice(0, limit);
}

/** Registers the bulk ledger tests. */
export function bulkLedgerConformance(ctx: ConformanceContext): void {
  describe("bulk ledger load", () => {
    it("lands every row at finish and none before, counting only new rows; the first one written wins", async ({
      skip,
    }) => {
      const store = ctx.store();
      const stored = makeLedgerTransfer({ amount: 7 });
      await store.putLedgerTransfers([stored]);
      const load = await openLoad(store, skip);
      const a = makeLedgerTransfer({ amount: 0.000123456789, valueUsd: 12.5, block: null });
      const b = makeLedgerTransfer({ txHash: a.txHash, logIndex: 3 });
      const c = makeLedgerTransfer({ tokenId: "0xtoken", occurredAt: T0 + 5 });
      await load.write([a, b]);
      await load.write([]);
      await load.write([{ ...a, amount: 999 }, { ...stored, amount: 8 }, c]);
      expect(await store.ledgerByTxHash("ETH", a.txHash)).toEqual([]);
      expect(await load.finish()).toBe(3);
      expect(await store.ledgerByTxHash("ETH", a.txHash)).toEqual([a, b]);
      expect(await store.ledgerByTxHash("ETH", stored.txHash)).toEqual([stored]);
      expect(await store.ledgerIncoming("ETH", "0xtoken", [{ address: c.to, before: T0 + 6 }], 10)).toEqual([
        c,
      ]);
      expect(await store.ledgerOutgoing("ETH", "0xtoken", [{ address: c.from, after: T0 }], 10)).toEqual([c]);
    });

    it("leaves nothing after abort, and a spent load refuses more", async ({ skip }) => {
      const store = ctx.store();
      const aborted = await openLoad(store, skip);
      const row = makeLedgerTransfer();
      await aborted.write([row]);
      await aborted.abort();
      await aborted.abort();
      expect(await store.ledgerByTxHash("ETH", row.txHash)).toEqual([]);
      await expect(aborted.write([row])).rejects.toThrow();
      const finished = await openLoad(store, skip);
      expect(await finished.finish()).toBe(0);
      await expect(finished.finish()).rejects.toThrow();
      await expect(finished.write([row])).rejects.toThrow();
    });

    it("lets the store's own writes run while a load is open", async ({ skip }) => {
      const store = ctx.store();
      const load = await openLoad(store, skip);
      const staged = makeLedgerTransfer();
      await load.write([staged]);
      const direct = makeLedgerTransfer();
      expect(await store.transaction((tx) => tx.putLedgerTransfers([direct, staged]))).toBe(2);
      expect(await load.finish()).toBe(0);
      expect(await store.ledgerByTxHash("ETH", staged.txHash)).toEqual([staged]);
      expect(await store.ledgerByTxHash("ETH", direct.txHash)).toEqual([direct]);
    });

    it("loads thousands of rows into an empty ledger, then a few more into it, with the reads of putLedgerTransfers", async ({
      skip,
    }) => {
      const store = ctx.store();
      const hubs = ["0xhub0", "0xhub1", "0xhub2"];
      const first = Array.from({ length: 3000 }, (_, i) =>
        makeLedgerTransfer({ to: hubs[i % 3], from: `0xsrc${i % 50}`, occurredAt: T0 + (i % 1000) }),
      );
      const big = await openLoad(store, skip);
      for (let at = 0; at < first.length; at += 700) await big.write(first.slice(at, at + 700));
      expect(await big.finish()).toBe(3000);
      const more = Array.from({ length: 20 }, (_, i) =>
        makeLedgerTransfer({ to: "0xhub0", occurredAt: T0 + i }),
      );
      const small = await openLoad(store, skip);
      await small.write([...first.slice(0, 5), ...more]);
      expect(await small.finish()).toBe(20);
      const all = [...first, ...more];
      for (const hub of hubs) {
        const read = await store.ledgerIncoming("ETH", "native", [{ address: hub, before: T0 + 500 }], 25);
        expect(read).toEqual(expectedIncoming(all, hub, T0 + 500, 25));
      }
      const out = await store.ledgerOutgoing("ETH", "native", [{ address: "0xsrc7", after: T0 + 900 }], 100);
      expect(out).toHaveLength(first.filter((r) => r.from === "0xsrc7" && r.occurredAt > T0 + 900).length);
      expect(out.map((r) => r.occurredAt)).toEqual(out.map((r) => r.occurredAt).sort((x, y) => x - y));
      expect(await store.ledgerByTxHash("ETH", first[42]?.txHash ?? "")).toEqual([first[42]]);
    });

    it("gives an exclusive load into an empty ledger the same result: repeats ignored, the first one written wins", async ({
      skip,
    }) => {
      const store = ctx.store();
      const rows = Array.from({ length: 1500 }, (_, i) =>
        makeLedgerTransfer({ to: `0xhub${i % 4}`, occurredAt: T0 + (i % 700) }),
      );
      const load = await openLoad(store, skip, { exclusive: true });
      for (let at = 0; at < rows.length; at += 400) await load.write(rows.slice(at, at + 400));
      const first = rows[10] as LedgerTransfer;
      await load.write([{ ...first, amount: 999 }, ...rows.slice(0, 3)]);
      expect(await load.finish()).toBe(1500);
      expect(await store.ledgerByTxHash("ETH", first.txHash)).toEqual([first]);
      for (const hub of ["0xhub0", "0xhub3"]) {
        const read = await store.ledgerIncoming("ETH", "native", [{ address: hub, before: T0 + 400 }], 30);
        expect(read).toEqual(expectedIncoming(rows, hub, T0 + 400, 30));
      }
      await expect(load.write(rows.slice(0, 1))).rejects.toThrow();
      expect(await store.putLedgerTransfers(rows.slice(0, 2))).toBe(0);
    });

    it("leaves nothing after an exclusive load is aborted, and the ledger works as before", async ({
      skip,
    }) => {
      const store = ctx.store();
      const load = await openLoad(store, skip, { exclusive: true });
      const row = makeLedgerTransfer();
      await load.write([row, makeLedgerTransfer()]);
      await load.abort();
      await load.abort();
      expect(await store.ledgerByTxHash("ETH", row.txHash)).toEqual([]);
      expect(await store.putLedgerTransfers([row, row])).toBe(1);
      expect(await store.ledgerIncoming("ETH", "native", [{ address: row.to, before: T0 + 1e9 }], 5)).toEqual(
        [row],
      );
      const next = await openLoad(store, skip, { exclusive: true });
      await next.write([row, makeLedgerTransfer({ to: row.to })]);
      expect(await next.finish()).toBe(1);
    });
  });
}
