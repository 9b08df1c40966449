/**
 * Backtests end to end over a store: a screened history is stored, a candidate model is
 * backtested in process and as a job, and every count is compared with the same counts
 * computed from the documentation alone (backtest-oracle.ts). Run on SQLite and Postgres.
 */
import { createEngine, DEFAULT_RISK_MODEL, manualClock, type RiskModel, type Store } from "@openkyt/core";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { historyModels, screenedHistory } from "./backtest-history.js";
import { type OracleCounts, oracleCounts } from "./backtest-oracle.js";
import type { StoreFactory } from "./engine-harness.js";
import { BASE_TIME } from "./store-factories.js";

const DAY = 86_400_000;
const ACCOUNT = "lab";

/** The report fields the oracle knows, in the oracle's shape. */
function countsOf(report: {
  evaluated: number;
  unchecked: number;
  actual_model_missing: number;
  levels: ReadonlyArray<{ level: string; actual: number; candidate: number }>;
  alerts: ReadonlyArray<{ risk_type: string; category: string; actual: number; candidate: number }>;
  shift: { up: number; down: number; up_ids: ReadonlyArray<string>; down_ids: ReadonlyArray<string> };
  alert_levels: ReadonlyArray<{ level: string; actual: number; candidate: number }>;
  sanctions_dropped: { count: number };
}): OracleCounts {
  return {
    evaluated: report.evaluated,
    unchecked: report.unchecked,
    actualModelMissing: report.actual_model_missing,
    levels: Object.fromEntries(
      report.levels.map((l) => [l.level, { actual: l.actual, candidate: l.candidate }]),
    ),
    alerts: Object.fromEntries(
      report.alerts.map((a) => [
        `${a.risk_type}|${a.category}`,
        { actual: a.actual, candidate: a.candidate },
      ]),
    ),
    up: report.shift.up,
    down: report.shift.down,
    upIds: [...report.shift.up_ids],
    downIds: [...report.shift.down_ids],
    alertLevels: Object.fromEntries(
      report.alert_levels.map((l) => [l.level, { actual: l.actual, candidate: l.candidate }]),
    ),
    sanctionsDropped: report.sanctions_dropped.count,
  };
}

/** Registers the backtest scenarios over stores from `factory`. */
export function runBacktestScenarios(factory: StoreFactory): void {
  describe(`backtests on ${factory.name}`, () => {
    let store: Store | null = null;
    beforeEach(async () => {
      store = await factory.createStore();
    });
    afterEach(async () => {
      if (store) await (factory.destroyStore ?? ((s: Store) => s.close()))(store);
      store = null;
    });

    /** A stored history: 2 versions of model "lab", the built-in model, and a version gone. */
    async function setUp(s: Store) {
      const { v1, v2 } = historyModels("lab");
      await s.putRiskModel(ACCOUNT, v1, BASE_TIME - 2 * DAY);
      await s.putRiskModel(ACCOUNT, v2, BASE_TIME - DAY);
      const history = screenedHistory({
        accountId: ACCOUNT,
        count: 1_500,
        seed: 21,
        from: BASE_TIME,
        stepMs: 60_000,
        versions: ["lab@1", "default@1", "gone@4"],
      });
      for (const t of history) await s.insertTransfer(t);
      // Another account's transfers in the same window are never counted.
      const others = {
        accountId: "other",
        count: 50,
        seed: 5,
        from: BASE_TIME,
        stepMs: 1,
        versions: ["default@1"],
      };
      for (const t of screenedHistory(others)) await s.insertTransfer(t);
      const models = new Map<string, RiskModel>([
        ["lab@1", v1],
        ["lab@2", v2],
        ["default@1", DEFAULT_RISK_MODEL],
      ]);
      return { history, models, v2 };
    }

    it("counts what the documentation says, in process, over a window and with filters", async () => {
      const s = store!;
      const { history, models, v2 } = await setUp(s);
      const engine = createEngine({ store: s, clock: manualClock(BASE_TIME + 30 * DAY) });
      const lab = engine.forAccount(ACCOUNT);
      const from = history[100]!.registeredAt;
      const to = history[1_199]!.registeredAt;
      const progress: number[] = [];
      const report = await lab.backtests.run(
        { model: "lab", from: new Date(from).toISOString(), to: new Date(to).toISOString(), shift_limit: 7 },
        { onProgress: (p) => void progress.push(p.scanned) },
      );
      const inScope = history.filter((t) => t.registeredAt >= from && t.registeredAt <= to);
      expect(inScope).toHaveLength(1_100);
      expect(countsOf(report)).toEqual(oracleCounts(inScope, v2, models, 7));
      expect(report.candidate).toBe("lab@2");
      expect(report.candidate_model).toEqual({ id: "lab", name: v2.name, version: 2 });
      // The transfers that move are listed with their hash, value and both levels.
      const byId = new Map(history.map((t) => [t.id, t]));
      expect(report.moved.map((m) => m.id)).toEqual([...report.shift.up_ids, ...report.shift.down_ids]);
      for (const m of report.moved) {
        const t = byId.get(m.id)!;
        expect([m.tx_hash, m.value_in_fiat, m.from]).toEqual([t.txHash, t.valueInFiat, t.riskLevel]);
        expect(m.to).not.toBe(m.from);
      }
      expect(report.alert_levels.map((l) => l.level)).toEqual(["low", "medium", "high", "severe"]);
      // The history is rich enough for the comparison to mean something.
      expect(
        Math.min(report.shift.up, report.shift.down, report.unchecked, report.actual_model_missing),
      ).toBeGreaterThan(20);
      expect(report.alerts.filter((a) => a.actual !== a.candidate).length).toBeGreaterThan(3);
      expect(report.shift.same).toBe(report.evaluated - report.shift.up - report.shift.down);
      expect(report.actual_models.map((m) => m.version)).toEqual(["default@1", "gone@4", "lab@1"]);
      // Pages of 1,000: progress after each, ending at every transfer in scope.
      expect(progress).toEqual([0, 1_000, 1_100]);

      const outgoing = await lab.backtests.run({
        model: {
          name: "inline",
          rules: v2.rules.map((r) => ({
            rule_type: r.ruleType,
            rule_sub_type: r.ruleSubType,
            entity_category: r.entityCategory,
            min_value_share: r.minValueShare,
            min_value_in_fiat: r.minValueInFiat,
            risk_level: r.riskLevel,
          })),
        },
        from: "2000-01-01",
        to: "2100-01-01",
        filters: { direction: "outgoing", network: "eth" },
      });
      const outgoingScope = history.filter((t) => t.direction === "outgoing");
      expect(countsOf(outgoing)).toEqual(oracleCounts(outgoingScope, v2, models, 20));
      expect(outgoing.candidate).toBe("inline:inline");

      // The built-in model as the candidate.
      const same = await lab.backtests.run({ model: "default", from: "2000-01-01", to: "2100-01-01" });
      const defaultScope = history;
      expect(countsOf(same)).toEqual(oracleCounts(defaultScope, DEFAULT_RISK_MODEL, models, 20));
    });

    it("agrees with the documentation on other histories (seeds), the account's model or the built-in one as the candidate", async () => {
      const s = store!;
      const { v1, v2 } = historyModels("lab");
      await s.putRiskModel("seeded", v1, BASE_TIME - 2 * DAY);
      await s.putRiskModel("seeded", v2, BASE_TIME - DAY);
      const models = new Map<string, RiskModel>([
        ["lab@1", v1],
        ["lab@2", v2],
        ["default@1", DEFAULT_RISK_MODEL],
      ]);
      const engine = createEngine({ store: s, clock: manualClock(BASE_TIME + 30 * DAY) });
      const seeded = engine.forAccount("seeded");
      const history = [];
      for (const seed of [101, 202, 303]) {
        const part = screenedHistory({
          accountId: "seeded",
          count: 200,
          seed,
          from: BASE_TIME + seed * DAY,
          stepMs: 1_000,
          versions: ["lab@1", "lab@2", "default@1"],
        });
        for (const t of part) await s.insertTransfer(t);
        history.push(...part);
      }
      const all = { from: "2000-01-01", to: "2100-01-01", shift_limit: 1_000 };
      for (const [model, candidate] of [
        ["lab", v2],
        ["default", DEFAULT_RISK_MODEL],
      ] as const) {
        const report = await seeded.backtests.run({ model, ...all });
        expect(countsOf(report)).toEqual(oracleCounts(history, candidate, models, 1_000));
      }
    });

    it("runs as a job: queued, then done with the same report; writes no result and opens no alert", async () => {
      const s = store!;
      const { history, models, v2 } = await setUp(s);
      const engine = createEngine({ store: s, clock: manualClock(BASE_TIME + 30 * DAY) });
      const lab = engine.forAccount(ACCOUNT);
      const before = await s.listTransfers(ACCOUNT, {}, { page: 1, pageSize: 5 });
      const started = await lab.backtests.start("lab", { from: "2000-01-01", to: "2100-01-01" });
      expect(started).toMatchObject({
        status: "queued",
        model: "lab",
        progress: { scanned: 0, total: null },
        report: null,
      });
      await expect(engine.forAccount("other").backtests.get(started.id)).rejects.toMatchObject({
        code: "NOT_FOUND",
      });
      await engine.drain();
      const done = await lab.backtests.get(started.id);
      expect(done.status).toBe("done");
      expect(done.progress).toEqual({ scanned: history.length, total: history.length });
      expect(countsOf(done.report!)).toEqual(oracleCounts(history, v2, models, 20));
      expect(await s.listTransfers(ACCOUNT, {}, { page: 1, pageSize: 5 })).toEqual(before);
      expect((await s.listAlerts(ACCOUNT, {}, { page: 1, pageSize: 1 })).total).toBe(0);
      expect(await s.listJobs()).toEqual([]);
    });

    it("refuses what it cannot run, naming it", async () => {
      const s = store!;
      await setUp(s);
      const lab = createEngine({ store: s }).forAccount(ACCOUNT);
      await expect(
        lab.backtests.start("nope", { from: "2026-01-01", to: "2026-01-31" }),
      ).rejects.toMatchObject({ code: "NOT_FOUND" });
      await expect(
        lab.backtests.start("lab", { from: "2026-02-01", to: "2026-01-31" }),
      ).rejects.toMatchObject({
        code: "VALIDATION_ERROR",
        errors: { to: ["from must not be after to"] },
      });
      await expect(
        lab.backtests.run({ model: "lab", from: "yesterday", to: "2026-01-31" }),
      ).rejects.toMatchObject({
        code: "VALIDATION_ERROR",
      });
      await expect(
        lab.backtests.run({
          model: {
            name: "bad",
            rules: [
              {
                rule_type: "entity",
                rule_sub_type: "direct",
                entity_category: "mixer",
                risk_level: "high",
                min_value_share: 2,
              },
            ],
          },
          from: "2026-01-01",
          to: "2026-01-31",
        }),
      ).rejects.toMatchObject({ code: "VALIDATION_ERROR" });
    });
  });
}
