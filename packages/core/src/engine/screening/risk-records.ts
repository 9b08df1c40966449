/** Turning fired rules into risk and alert records. */
import type { AlertRecord, FiredRisk, RiskRecord, RiskSubjectType } from "../../domain/records.js";
import type { EngineContext } from "../engine-context.js";

/** Risk records for the rules that fired on one subject. */
export function riskRecords(
  ctx: EngineContext,
  fired: ReadonlyArray<FiredRisk>,
  subject: { type: RiskSubjectType; id: string; accountId: string; occurredAt: number },
): RiskRecord[] {
  const now = ctx.clock.now();
  return fired.map((risk) =>
    Object.freeze({
      id: ctx.ids.next(),
      accountId: subject.accountId,
      subjectType: subject.type,
      subjectId: subject.id,
      checkKind: risk.checkKind,
      riskType: risk.riskType,
      riskLevel: risk.riskLevel,
      entityCategory: risk.entityCategory,
      entityName: risk.entityName,
      proximity: risk.proximity,
      valueInFiat: risk.valueInFiat,
      valueShare: risk.valueShare,
      rule: risk.rule,
      occurredAt: subject.occurredAt,
      createdAt: now,
    }),
  );
}

/** What makes two risks "the same risk" for alerting: a recheck that fires it again opens no new alert. */
export function alertDedupeKey(risk: RiskRecord): string {
  const r = risk.rule;
  return [
    risk.riskType,
    risk.entityCategory,
    risk.proximity,
    r.ruleType,
    r.ruleSubType,
    r.riskLevel,
    r.minValueInFiat ?? "",
    r.minValueShare ?? "",
  ].join("|");
}

/** The alert a risk of a registered transfer opens. */
export function alertForRisk(ctx: EngineContext, risk: RiskRecord): AlertRecord {
  return Object.freeze({
    id: ctx.ids.next(),
    accountId: risk.accountId,
    transferId: risk.subjectId,
    dedupeKey: alertDedupeKey(risk),
    createdAt: ctx.clock.now(),
    updatedAt: null,
    riskLevel: risk.riskLevel,
    riskType: risk.riskType,
    riskOccurredAt: risk.occurredAt,
    alertStatus: "open",
    assignee: null,
    entityCategory: risk.entityCategory,
    proximity: risk.proximity,
    valueInFiat: risk.valueInFiat,
    valueShare: risk.valueShare,
    rule: risk.rule,
  });
}
