/**
 * The counts of a backtest, kept as transfers stream past: levels under each model, alerts by
 * risk type and category, the level shift with the first ids each way. Memory stays bounded
 * whatever the number of transfers: counters, one entry per (risk type, category) met and at
 * most `shiftLimit` ids each way.
 */
import type { AlertCount, BacktestReport, BacktestScope, LevelMove } from "../../domain/backtests.js";
import { RISK_LEVELS, type RiskLevel, type RiskType, RULE_RISK_LEVELS } from "../../domain/enums.js";
import type { FiredRisk } from "../../domain/records.js";

const LEVELS = RISK_LEVELS.length;

/** A running backtest tally. */
export interface BacktestTally {
  /** Counts one evaluated transfer; `actualRisks` null when its model version is gone. */
  add(
    id: string,
    actual: RiskLevel,
    candidate: RiskLevel,
    actualRisks: ReadonlyArray<FiredRisk> | null,
    candidateRisks: ReadonlyArray<FiredRisk>,
    actualVersion: string,
  ): void;
  /** Counts a transfer in scope that was never checked. */
  addUnchecked(): void;
  /** Counts checks a retrace could not run. */
  addRetraceFailures(count: number): void;
  /** The levels (as checked, under the candidate) of each transfer listed as moving. */
  movedLevels(): ReadonlyMap<string, { readonly from: RiskLevel; readonly to: RiskLevel }>;
  /** The report of what was counted. */
  report(candidate: string, scope: BacktestScope, elapsedMs: number, retraced: boolean): BacktestReport;
}

/** A fresh tally listing at most `shiftLimit` ids each way. */
export function createBacktestTally(shiftLimit: number): BacktestTally {
  const actualLevels = new Array<number>(LEVELS).fill(0);
  const candidateLevels = new Array<number>(LEVELS).fill(0);
  const moves = new Array<number>(LEVELS * LEVELS).fill(0);
  type AlertEntry = { riskType: RiskType; category: string; actual: number; candidate: number };
  // By risk type, then category: two lookups on strings already held, no key built per risk.
  const alerts = new Map<RiskType, Map<string, AlertEntry>>();
  const versions = new Map<string, number>();
  const upIds: string[] = [];
  const downIds: string[] = [];
  const alertLevels = {
    actual: new Array<number>(RULE_RISK_LEVELS.length).fill(0),
    candidate: new Array<number>(RULE_RISK_LEVELS.length).fill(0),
  };
  const sanctionsDroppedIds: string[] = [];
  const listed = new Map<string, { from: RiskLevel; to: RiskLevel }>();
  let sanctionsDropped = 0;
  let evaluated = 0;
  let unchecked = 0;
  let retraceFailures = 0;
  let missing = 0;
  let up = 0;
  let down = 0;

  const countAlerts = (risks: ReadonlyArray<FiredRisk>, side: "actual" | "candidate") => {
    const byLevel = alertLevels[side];
    for (let i = 0; i < risks.length; i += 1) {
      const r = risks[i]!;
      const level = RULE_RISK_LEVELS.indexOf(r.riskLevel);
      byLevel[level] = (byLevel[level] ?? 0) + 1;
      let byCategory = alerts.get(r.riskType);
      if (!byCategory) {
        byCategory = new Map();
        alerts.set(r.riskType, byCategory);
      }
      let entry = byCategory.get(r.entityCategory);
      if (!entry) {
        entry = { riskType: r.riskType, category: r.entityCategory, actual: 0, candidate: 0 };
        byCategory.set(r.entityCategory, entry);
      }
      entry[side] += 1;
    }
  };

  return {
    add(id, actual, candidate, actualRisks, candidateRisks, actualVersion) {
      evaluated += 1;
      const from = RISK_LEVELS.indexOf(actual);
      const to = RISK_LEVELS.indexOf(candidate);
      actualLevels[from] = (actualLevels[from] ?? 0) + 1;
      candidateLevels[to] = (candidateLevels[to] ?? 0) + 1;
      moves[from * LEVELS + to] = (moves[from * LEVELS + to] ?? 0) + 1;
      if (to > from) {
        up += 1;
        if (upIds.length < shiftLimit) {
          upIds.push(id);
          listed.set(id, { from: actual, to: candidate });
        }
      } else if (to < from) {
        down += 1;
        if (downIds.length < shiftLimit) {
          downIds.push(id);
          listed.set(id, { from: actual, to: candidate });
        }
      }
      versions.set(actualVersion, (versions.get(actualVersion) ?? 0) + 1);
      if (actualRisks === null) missing += 1;
      else countAlerts(actualRisks, "actual");
      countAlerts(candidateRisks, "candidate");
      if (actualRisks !== null && hasSanctions(actualRisks) && !hasSanctions(candidateRisks)) {
        sanctionsDropped += 1;
        if (sanctionsDroppedIds.length < shiftLimit) sanctionsDroppedIds.push(id);
      }
    },
    movedLevels() {
      return listed;
    },
    addUnchecked() {
      unchecked += 1;
    },
    addRetraceFailures(count) {
      retraceFailures += count;
    },
    report(candidate, scope, elapsedMs, retraced) {
      const levelMoves: LevelMove[] = [];
      for (let f = 0; f < LEVELS; f += 1) {
        for (let t = 0; t < LEVELS; t += 1) {
          const count = moves[f * LEVELS + t] ?? 0;
          if (count > 0) levelMoves.push({ from: RISK_LEVELS[f]!, to: RISK_LEVELS[t]!, count });
        }
      }
      const alertCounts: AlertCount[] = [...alerts.values()]
        .flatMap((m) => [...m.values()])
        .sort((a, b) =>
          a.riskType === b.riskType
            ? compareText(a.category, b.category)
            : compareText(a.riskType, b.riskType),
        );
      return {
        candidate,
        scope,
        evaluated,
        unchecked,
        retraced,
        retraceFailures,
        actualModels: [...versions]
          .sort((a, b) => compareText(a[0], b[0]))
          .map(([version, transfers]) => ({ version, transfers })),
        actualModelMissing: missing,
        levels: RISK_LEVELS.map((level, i) => ({
          level,
          actual: actualLevels[i] ?? 0,
          candidate: candidateLevels[i] ?? 0,
        })),
        alerts: alertCounts,
        alertLevels: RULE_RISK_LEVELS.map((level, i) => ({
          level,
          actual: alertLevels.actual[i] ?? 0,
          candidate: alertLevels.candidate[i] ?? 0,
        })),
        sanctionsDropped: { count: sanctionsDropped, ids: sanctionsDroppedIds },
        shift: { up, down, same: evaluated - up - down, moves: levelMoves, upIds, downIds },
        elapsedMs,
        transfersPerSecond: elapsedMs > 0 ? Math.round((evaluated * 1000) / elapsedMs) : 0,
      };
    },
  };
}

/** True when a sanctions hit raised one of `risks` (the `sanctions` category). */
function hasSanctions(risks: ReadonlyArray<FiredRisk>): boolean {
  for (let i = 0; i < risks.length; i += 1) if (risks[i]!.entityCategory === "sanctions") return true;
  return false;
}

function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
