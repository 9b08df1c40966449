/**
 * One risk per finding: when several rules fire on the same finding (the same risk type,
 * category and proximity), only the strongest is kept, so a 40% sanctions exposure raises one
 * severe risk and one alert, not a severe and a high one. When the counterparty check and the
 * sanctions check both see a sanctioned counterparty, the sanctions check's risk is kept.
 */
import { riskRank } from "../domain/enums.js";
import type { FiredRisk } from "../domain/records.js";
import { compareFiredRisks } from "./evaluate-risks.js";

const CHECK_PREFERENCE = { sanctions: 0, counterparty: 1, exposure: 2 } as const;

/** Identity of a finding. */
function findingKey(risk: FiredRisk): string {
  return `${risk.riskType}|${risk.entityCategory}|${risk.proximity}`;
}

/** True when `a` should be kept over `b` for the same finding. */
function stronger(a: FiredRisk, b: FiredRisk): boolean {
  const byLevel = riskRank(a.riskLevel) - riskRank(b.riskLevel);
  if (byLevel !== 0) return byLevel > 0;
  const byCheck = CHECK_PREFERENCE[a.checkKind] - CHECK_PREFERENCE[b.checkKind];
  if (byCheck !== 0) return byCheck < 0;
  return compareFiredRisks(a, b) < 0;
}

/** Keeps the strongest risk of each finding; the result is in `compareFiredRisks` order. */
export function collapseRisks(fired: ReadonlyArray<FiredRisk>): FiredRisk[] {
  const best = new Map<string, FiredRisk>();
  for (const risk of fired) {
    const key = findingKey(risk);
    const current = best.get(key);
    if (!current || stronger(risk, current)) best.set(key, risk);
  }
  return [...best.values()].sort(compareFiredRisks);
}
