/** Conformance of the backtest members: the keyset transfer scan and the backtest records. */
import type { BacktestRecord, ScreenedTransfer, Store, TransferCursor, TransferFilter } from "@openkyt/core";
import { describe, expect, it } from "vitest";
import { type ConformanceContext, idsOf } from "./store-conformance.js";
import { makeExposure, makeTransfer, BASE_TIME as T0 } from "./store-factories.js";

/** Every row of a scan, page by page of `limit`; also the page sizes seen. */
async function scanAll(
  store: Store,
  accountId: string,
  filter: TransferFilter,
  limit: number,
): Promise<{ rows: ScreenedTransfer[]; pages: number[] }> {
  const rows: ScreenedTransfer[] = [];
  const pages: number[] = [];
  let after: TransferCursor | null = null;
  do {
    const page = await store.scanTransfers(accountId, filter, after, limit);
    rows.push(...page.rows);
    pages.push(page.rows.length);
    after = page.next;
  } while (after !== null && pages.length < 100);
  return { rows, pages };
}

function backtest(overrides: Partial<BacktestRecord> = {}): BacktestRecord {
  return {
    id: "bt-1",
    accountId: "acct-1",
    status: "queued",
    request: {
      candidate: { kind: "stored", id: "model-1" },
      scope: { from: T0, to: T0 + 1_000, network: "ETH", direction: "incoming" },
      shiftLimit: 20,
    },
    scanned: 0,
    total: null,
    report: null,
    error: null,
    createdAt: T0,
    updatedAt: T0,
    ...overrides,
  };
}

/** Registers the backtest tests. */
export function backtestConformance(ctx: ConformanceContext): void {
  describe("backtests", () => {
    it("scans an account's transfers in (registeredAt, id) order, page by page, with their stored results", async () => {
      const s = ctx.store();
      const exposure = makeExposure();
      // Ties on registeredAt are ordered by id, including ids that differ in case.
      const at = [T0 + 5, T0 + 1, T0 + 3, T0 + 3, T0 + 3, T0 + 9, T0 + 2];
      const ids = ["t-e", "t-a", "t-C", "t-c", "t-d", "t-z", "t-b"];
      for (let i = 0; i < ids.length; i += 1) {
        await s.insertTransfer(
          makeTransfer({ id: ids[i]!, registeredAt: at[i]!, exposure, riskModelVersion: "m@2" }),
        );
      }
      await s.insertTransfer(
        makeTransfer({ id: "other-account", accountId: "acct-2", registeredAt: T0 + 4 }),
      );
      const { rows, pages } = await scanAll(s, "acct-1", {}, 3);
      expect(idsOf(rows)).toEqual(["t-a", "t-b", "t-C", "t-c", "t-d", "t-e", "t-z"]);
      expect(pages).toEqual([3, 3, 1]);
      expect(rows[0]?.exposure).toEqual(exposure);
      expect(rows[0]?.riskModelVersion).toBe("m@2");
      // A page that ends exactly at the last row still says where to go on; the next is empty.
      expect((await scanAll(s, "acct-1", {}, 7)).pages).toEqual([7, 0]);
      expect(await s.scanTransfers("acct-9", {}, null, 10)).toEqual({ rows: [], next: null });
    });

    it("scans only what the filter keeps: the registration window (inclusive), network, direction, token", async () => {
      const s = ctx.store();
      await s.insertTransfer(makeTransfer({ id: "in-1", registeredAt: T0 + 10 }));
      await s.insertTransfer(makeTransfer({ id: "in-2", registeredAt: T0 + 20 }));
      await s.insertTransfer(makeTransfer({ id: "in-3", registeredAt: T0 + 30 }));
      await s.insertTransfer(makeTransfer({ id: "out", registeredAt: T0 + 20, direction: "outgoing" }));
      await s.insertTransfer(makeTransfer({ id: "btc", registeredAt: T0 + 20, network: "BTC" }));
      await s.insertTransfer(makeTransfer({ id: "usdt", registeredAt: T0 + 20, tokenId: "0xdac1" }));
      const window = { registeredFrom: T0 + 10, registeredTo: T0 + 20 };
      expect(idsOf((await scanAll(s, "acct-1", window, 2)).rows)).toEqual([
        "in-1",
        "btc",
        "in-2",
        "out",
        "usdt",
      ]);
      const only = { ...window, network: "ETH", direction: "incoming" as const, tokenId: "native" };
      expect(idsOf((await scanAll(s, "acct-1", only, 1)).rows)).toEqual(["in-1", "in-2"]);
    });

    it("says whether any check of a scanned transfer finished (state checked), without the states", async () => {
      const s = ctx.store();
      const none = { state: "none", at: null } as const;
      const errored = { state: "error", at: T0 } as const;
      const states = {
        all: undefined,
        "one-only": { exposure: errored, counterparty: none, sanctions: { state: "checked", at: T0 } },
        "not-yet": { exposure: { state: "queued", at: T0 }, counterparty: errored, sanctions: none },
        never: { exposure: none, counterparty: none, sanctions: none },
      } as const;
      let at = T0;
      for (const [id, checks] of Object.entries(states)) {
        at += 1;
        await s.insertTransfer(makeTransfer({ id, registeredAt: at, ...(checks ? { checks } : {}) }));
      }
      const { rows } = await scanAll(s, "acct-1", {}, 10);
      expect(rows.map((r) => [r.id, r.anyChecked])).toEqual([
        ["all", true],
        ["one-only", true],
        ["not-yet", false],
        ["never", false],
      ]);
      expect(rows[0]).not.toHaveProperty("checks");
    });

    it("puts a backtest, replaces it by id, and reads it back within its account only", async () => {
      const s = ctx.store();
      await s.putBacktest(backtest());
      expect(await s.getBacktest("acct-1", "bt-1")).toEqual(backtest());
      expect(await s.getBacktest("acct-2", "bt-1")).toBeNull();
      expect(await s.getBacktest("acct-1", "unknown")).toBeNull();
      const report = {
        candidate: "model-1@3",
        scope: { from: T0, to: T0 + 1_000 },
        evaluated: 2,
        unchecked: 1,
        retraced: false,
        retraceFailures: 0,
        actualModels: [{ version: "default@1", transfers: 2 }],
        actualModelMissing: 0,
        levels: [{ level: "high" as const, actual: 1, candidate: 2 }],
        alerts: [{ riskType: "origin_of_funds" as const, category: "mixer", actual: 1, candidate: 2 }],
        shift: {
          up: 1,
          down: 0,
          same: 1,
          moves: [{ from: "none" as const, to: "high" as const, count: 1 }],
          upIds: ["t-1"],
          downIds: [],
        },
        elapsedMs: 12.5,
        transfersPerSecond: 160,
      };
      const done = backtest({ status: "done", scanned: 3, total: 3, report, updatedAt: T0 + 5 });
      await s.putBacktest(done);
      expect(await s.getBacktest("acct-1", "bt-1")).toEqual(done);
      const failed = backtest({ id: "bt-2", status: "error", error: "risk model m not found" });
      await s.transaction((tx) => tx.putBacktest(failed));
      expect(await s.getBacktest("acct-1", "bt-2")).toEqual(failed);
    });

    it("counts an account's queued and running backtests only, also inside a transaction", async () => {
      const s = ctx.store();
      expect(await s.countPendingBacktests("acct-1")).toBe(0);
      await s.putBacktest(backtest({ id: "q-1", status: "queued" }));
      await s.putBacktest(backtest({ id: "r-1", status: "running" }));
      await s.putBacktest(backtest({ id: "d-1", status: "done" }));
      await s.putBacktest(backtest({ id: "e-1", status: "error", error: "x" }));
      await s.putBacktest(backtest({ id: "o-1", accountId: "acct-2", status: "queued" }));
      expect(await s.countPendingBacktests("acct-1")).toBe(2);
      expect(await s.countPendingBacktests("acct-2")).toBe(1);
      const inside = await s.transaction(async (tx) => {
        await tx.putBacktest(backtest({ id: "q-2", status: "queued" }));
        return tx.countPendingBacktests("acct-1");
      });
      expect(inside).toBe(3);
      await s.putBacktest(backtest({ id: "q-1", status: "done" }));
      expect(await s.countPendingBacktests("acct-1")).toBe(2);
    });
  });
}
