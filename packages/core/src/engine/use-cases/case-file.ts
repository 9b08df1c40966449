/**
 * A case file: everything about one alert that a regulator or an auditor reads (the transfer,
 * its findings with their paths and the listings on them, every alert of the transfer, the
 * decision, and the history with its comments). The same data makes the PDF case file, the
 * goAML report and the CSV export, so the three never disagree.
 */
import type { DecisionRecord } from "../../domain/casework.js";
import type { AlertHistoryRecord, AlertRecord } from "../../domain/records.js";
import { notFound } from "../../errors.js";
import type { CaseDecision, CaseFileReportData, CaseHistoryEntry } from "../../ports/report-renderer.js";
import {
  lookupId,
  presentAddressExposure,
  presentAlert,
  presentAlertHistoryEntry,
  presentRisk,
  presentTransfer,
  presentTransferExposure,
} from "../../schemas/index.js";
import type { EngineContext } from "../engine-context.js";
import { pathSanctions } from "./path-sanctions.js";
import { modelOf, type RenderedReport, render } from "./report-assembly.js";
import { loadTransfer } from "./transfer-registration.js";

/**
 * The decision of an alert from its history: the last change to `done` while it is done
 * (who, when, the comment); the outcome is what that change recorded, when the store keeps one.
 */
export function decisionOf(
  alert: AlertRecord,
  history: ReadonlyArray<AlertHistoryRecord>,
  outcome: string | null = null,
): CaseDecision {
  const closing =
    alert.alertStatus === "done"
      ? [...history].reverse().find((e) => e.to === "done" && e.from !== "done")
      : null;
  return {
    status: alert.alertStatus,
    outcome: closing ? outcome : null,
    decidedBy: closing?.actor ?? null,
    decidedAt: closing ? presentAlertHistoryEntry(closing).at : null,
    comment: closing?.comment ?? null,
  };
}

/**
 * The outcome a stored decision gave `alertId` (the newest decision that closed it), or null
 * when the alert was closed without one (a plain status change).
 */
export function storedOutcome(decisions: ReadonlyArray<DecisionRecord>, alertId: string): string | null {
  let newest: DecisionRecord | null = null;
  for (const d of decisions) {
    if (d.alertIds.includes(alertId) && (newest === null || d.decidedAt >= newest.decidedAt)) newest = d;
  }
  return newest?.outcome ?? null;
}

/** The account's alert `id`, or NOT_FOUND. */
export async function loadAlert(ctx: EngineContext, accountId: string, id: string): Promise<AlertRecord> {
  const alert = await ctx.store.getAlert(lookupId("alert", id));
  if (!alert || alert.accountId !== accountId) throw notFound("alert", id);
  return alert;
}

/** The case file's data of the account's alert `id` (NOT_FOUND for another account's). */
export async function caseFileData(
  ctx: EngineContext,
  accountId: string,
  id: string,
): Promise<CaseFileReportData> {
  const alert = await loadAlert(ctx, accountId, id);
  const t = await loadTransfer(ctx.store, accountId, alert.transferId);
  const siblings = await ctx.store.listAlertsOfTransfer(t.id);
  const decisions = await ctx.store.listDecisionsOfTransfer(t.id);
  const histories = await Promise.all(siblings.map((a) => ctx.store.listAlertHistory(a.id)));
  const own = histories[siblings.findIndex((a) => a.id === alert.id)] ?? [];
  const history: CaseHistoryEntry[] = siblings
    .flatMap((a, n) => (histories[n] ?? []).map((e) => ({ e, alertId: a.id })))
    // Stable: entries of one time keep their alert's order, and each alert's own order.
    .sort((x, y) => x.e.at - y.e.at)
    .map(({ e, alertId }) => ({ ...presentAlertHistoryEntry(e), alert_id: alertId }));
  const onPath = await pathSanctions(ctx.sanctions, {
    exposure: t.exposure,
    counterpartyExposure: t.counterparty?.exposure ?? null,
    from: t.occurredAt ?? t.registeredAt,
    to: t.checks.exposure.at ?? ctx.clock.now(),
    counterparty: t.sanctions?.address ?? t.counterparty?.address ?? null,
  });
  return {
    kind: "case_file",
    alert: presentAlert(alert, t, { single: false }),
    assignee: alert.assignee,
    transfer: presentTransfer(t),
    exposure: presentTransferExposure(t.exposure, t.checks.exposure),
    exposureDetail: t.exposure,
    counterparty: presentAddressExposure(t.counterparty, t.checks.counterparty),
    sanctions: t.sanctions,
    pathSanctions: onPath,
    risks: (await ctx.store.listRisks("transfer", t.id)).map(presentRisk),
    alerts: siblings.map((a) => presentAlert(a, t, { single: false })),
    riskModel: await modelOf(ctx, t.accountId, t.riskModelId, t.riskModelVersion),
    lastError: t.lastError,
    autoCheckDisabled: t.disableAutoCheck,
    decision: decisionOf(alert, own, storedOutcome(decisions, alert.id)),
    history,
  };
}

/** Renders the case file of the account's alert `id` as a PDF. */
export async function caseFileReport(
  ctx: EngineContext,
  accountId: string,
  id: string,
): Promise<RenderedReport> {
  const data = await caseFileData(ctx, accountId, id);
  return render(ctx, data, true, `case-${data.alert.id}`);
}
