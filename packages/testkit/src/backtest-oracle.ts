/**
 * The counts of a backtest computed from the documentation alone, to hold the engine's backtest
 * to: docs/risk-model.md §4 (what each check offers the rules, when a rule fires), §5 (the
 * level) and docs/backtesting.md (one alert per finding; what is counted). It uses nothing of
 * the engine's risk code, only its record types, and checks every rule against every
 * observation the slow way.
 */
import type { RiskLevel, RiskModel, RiskRule, TransferRecord } from "@openkyt/core";

/** The levels in rising order (docs/risk-model.md §5). */
const ORDER: ReadonlyArray<RiskLevel> = ["undefined", "none", "low", "medium", "high", "severe"];

/** "shares within 1e-9 below a threshold count as reaching it" (§4). */
const TOLERANCE = 1e-9;

interface Observation {
  readonly ruleType: RiskRule["ruleType"];
  readonly riskType: string;
  readonly category: string;
  readonly proximity: string;
  readonly share: number;
  readonly value: number | null;
}

/** §4's table: what each stored check result offers to the rules. */
function observations(t: TransferRecord): Observation[] {
  const out: Observation[] = [];
  const incoming = t.direction === "incoming";
  const attempt = t.txStatus !== "bound" ? "attempt_" : "";
  const entityType = `${attempt}${incoming ? "sender" : "recipient"}_entity`;
  const exposureType = incoming ? "origin_of_funds" : "destination_of_funds";
  for (const s of t.exposure?.shares ?? []) {
    out.push({
      ruleType: exposureType,
      riskType: exposureType,
      category: s.category,
      proximity: s.proximity,
      share: s.share,
      value: s.valueInFiat,
    });
  }
  const cp = t.counterparty;
  if (cp?.entity) {
    out.push({
      ruleType: "entity",
      riskType: entityType,
      category: cp.entity.category,
      proximity: "direct",
      share: 1,
      value: t.valueInFiat,
    });
  } else {
    for (const s of cp?.exposure?.shares ?? []) {
      out.push({
        ruleType: "address_exposure",
        riskType: `${attempt}${incoming ? "sender" : "recipient"}_exposure`,
        category: s.category,
        proximity: s.proximity,
        share: s.share,
        value: null,
      });
    }
  }
  if (t.sanctions?.hit) {
    out.push({
      ruleType: "entity",
      riskType: entityType,
      category: "sanctions",
      proximity: "direct",
      share: 1,
      value: t.valueInFiat,
    });
  }
  return out;
}

/** §4: "A rule fires when the category matches, its sub type accepts the proximity, ..." */
function fires(rule: RiskRule, o: Observation): boolean {
  if (rule.ruleType !== o.ruleType || rule.entityCategory !== o.category) return false;
  if (rule.ruleSubType !== "all" && rule.ruleSubType !== o.proximity) return false;
  if (o.proximity !== "direct" && o.proximity !== "indirect") return false;
  if (rule.minValueShare !== null && o.share < rule.minValueShare - TOLERANCE) return false;
  if (rule.minValueInFiat !== null && (o.value === null || o.value < rule.minValueInFiat)) return false;
  return true;
}

/** The level a model gives a stored transfer (§5) and its findings (risk type, category, proximity). */
export function oracleAssess(
  model: RiskModel,
  t: TransferRecord,
): { level: RiskLevel; findings: Set<string>; findingLevels: Map<string, RiskLevel> } {
  const anyChecked = Object.values(t.checks).some((c) => c.state === "checked");
  let level: RiskLevel = anyChecked ? "none" : "undefined";
  const findings = new Set<string>();
  // A finding's alert is raised at the highest level of the rules that fire on it.
  const findingLevels = new Map<string, RiskLevel>();
  for (const o of observations(t)) {
    for (const rule of model.rules) {
      if (!fires(rule, o)) continue;
      if (ORDER.indexOf(rule.riskLevel) > ORDER.indexOf(level)) level = rule.riskLevel;
      const key = `${o.riskType}|${o.category}|${o.proximity}`;
      findings.add(key);
      const was = findingLevels.get(key);
      if (was === undefined || ORDER.indexOf(rule.riskLevel) > ORDER.indexOf(was))
        findingLevels.set(key, rule.riskLevel);
    }
  }
  return { level, findings, findingLevels };
}

/** What the oracle expects of a backtest report (the fields it can know). */
export interface OracleCounts {
  evaluated: number;
  unchecked: number;
  actualModelMissing: number;
  levels: Record<string, { actual: number; candidate: number }>;
  /** `riskType|category` to counts; absent keys are zero. */
  alerts: Record<string, { actual: number; candidate: number }>;
  up: number;
  down: number;
  upIds: string[];
  downIds: string[];
  /** Alerts by the level they are raised at (every rule level). */
  alertLevels: Record<string, { actual: number; candidate: number }>;
  /** Transfers with a sanctions finding as checked and none under the candidate. */
  sanctionsDropped: number;
}

/**
 * The counts docs/backtesting.md promises for `transfers` (the account's transfers in scope, in
 * registration order): the actual level is the stored one, the actual alerts those of the
 * recorded model version (`models` by `id@version`; absent: missing), the candidate's both.
 */
export function oracleCounts(
  transfers: ReadonlyArray<TransferRecord>,
  candidate: RiskModel,
  models: ReadonlyMap<string, RiskModel>,
  shiftLimit: number,
): OracleCounts {
  const counts: OracleCounts = {
    evaluated: 0,
    unchecked: 0,
    actualModelMissing: 0,
    levels: Object.fromEntries(ORDER.map((l) => [l, { actual: 0, candidate: 0 }])),
    alerts: {},
    up: 0,
    down: 0,
    upIds: [],
    downIds: [],
    alertLevels: {
      low: { actual: 0, candidate: 0 },
      medium: { actual: 0, candidate: 0 },
      high: { actual: 0, candidate: 0 },
      severe: { actual: 0, candidate: 0 },
    },
    sanctionsDropped: 0,
  };
  const countLevels = (levels: Map<string, RiskLevel>, side: "actual" | "candidate") => {
    for (const level of levels.values()) {
      const entry = counts.alertLevels[level];
      if (entry) entry[side] += 1;
    }
  };
  const sanctioned = (findings: Set<string>) => [...findings].some((f) => f.split("|")[1] === "sanctions");
  const countFindings = (findings: Set<string>, side: "actual" | "candidate") => {
    for (const f of findings) {
      const [riskType, category] = f.split("|");
      const key = `${riskType}|${category}`;
      counts.alerts[key] ??= { actual: 0, candidate: 0 };
      counts.alerts[key][side] += 1;
    }
  };
  for (const t of transfers) {
    if (t.riskModelVersion === null) {
      counts.unchecked += 1;
      continue;
    }
    counts.evaluated += 1;
    const next = oracleAssess(candidate, t);
    counts.levels[t.riskLevel]!.actual += 1;
    counts.levels[next.level]!.candidate += 1;
    const move = ORDER.indexOf(next.level) - ORDER.indexOf(t.riskLevel);
    if (move > 0) {
      counts.up += 1;
      if (counts.upIds.length < shiftLimit) counts.upIds.push(t.id);
    } else if (move < 0) {
      counts.down += 1;
      if (counts.downIds.length < shiftLimit) counts.downIds.push(t.id);
    }
    const actualModel = models.get(t.riskModelVersion);
    if (actualModel === undefined) counts.actualModelMissing += 1;
    else {
      const actual = oracleAssess(actualModel, t);
      countFindings(actual.findings, "actual");
      countLevels(actual.findingLevels, "actual");
      if (sanctioned(actual.findings) && !sanctioned(next.findings)) counts.sanctionsDropped += 1;
    }
    countFindings(next.findings, "candidate");
    countLevels(next.findingLevels, "candidate");
  }
  return counts;
}
