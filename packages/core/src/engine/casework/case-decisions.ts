/**
 * Cases and decisions. A case is a transfer's alerts, side by side (its id is the transfer's
 * id); a decision closes the case's alerts that are not done, or those named, with an outcome
 * and a required comment. Each alert walks to `done` through the alert state machine's table
 * (open -> in_progress -> done), every step kept in its history; the decision, the steps and
 * the audit entry land together or not at all.
 */
import type { DecisionRecord } from "../../domain/casework.js";
import type { AlertRecord } from "../../domain/records.js";
import { KytError, notFound } from "../../errors.js";
import { ALERT_STATUS_MACHINE, pathBetween } from "../../machines/index.js";
import type { StoreOps } from "../../ports/store.js";
import { caseDecisionSchema, lookupId, parseInput, presentAlertWorkflow } from "../../schemas/index.js";
import { formatOffsetTimestamp } from "../../schemas/timestamps.js";
import type { EngineContext } from "../engine-context.js";
import { applyChange, loadAlert } from "../use-cases/alert-workflow.js";
import { recordAudit } from "./audit-log.js";
import { slaHoursOf, slaOf } from "./sla-policy.js";

/** Words of an outcome in a history comment. */
const OUTCOME_WORDS: Readonly<Record<DecisionRecord["outcome"], string>> = {
  false_positive: "false positive",
  true_positive: "true positive",
  escalated: "escalated",
  reported_to_fiu: "reported to the FIU",
};

/** A decision as answered. */
export function presentDecision(d: DecisionRecord) {
  return {
    id: d.id,
    case_id: d.transferId,
    alert_ids: [...d.alertIds],
    outcome: d.outcome,
    comment: d.comment,
    actor: d.actor,
    decided_at: formatOffsetTimestamp(d.decidedAt),
  };
}

/** The account's transfer `id` read through `store`, or NOT_FOUND naming the case. */
async function loadCaseTransfer(store: StoreOps, accountId: string, id: string) {
  const transfer = await store.getTransfer(lookupId("case", id));
  if (!transfer || transfer.accountId !== accountId) throw notFound("case", id);
  return transfer;
}

/** GET /v1/cases/{id}/: the transfer's alerts with their SLA, its decisions, open or closed. */
export async function getCase(ctx: EngineContext, accountId: string, id: string) {
  const transfer = await loadCaseTransfer(ctx.store, accountId, id);
  const [alerts, decisions, hours] = await Promise.all([
    ctx.store.listAlertsOfTransfer(transfer.id),
    ctx.store.listDecisionsOfTransfer(transfer.id),
    slaHoursOf(ctx.store, accountId),
  ]);
  const now = ctx.clock.now();
  return {
    id: transfer.id,
    status: alerts.some((a) => a.alertStatus !== "done") ? ("open" as const) : ("closed" as const),
    outcome: decisions.at(-1)?.outcome ?? null,
    alerts: alerts.map((a) => ({ ...presentAlertWorkflow(a, transfer), ...slaOf(hours, a, now) })),
    decisions: decisions.map(presentDecision),
  };
}

/** The alerts a decision closes: those named (of this case, not done), or every one not done. */
function targetsOf(caseId: string, alerts: ReadonlyArray<AlertRecord>, named?: ReadonlyArray<string>) {
  if (named === undefined) {
    const open = alerts.filter((a) => a.alertStatus !== "done");
    if (open.length === 0)
      throw new KytError(
        "ILLEGAL_TRANSITION",
        `case ${caseId}: every alert is done; reopen one to decide again`,
      );
    return open.map((a) => a.id);
  }
  const ids = [...new Set(named)];
  for (const id of ids) {
    const alert = alerts.find((a) => a.id === id);
    if (!alert) throw notFound("alert", `${id} in case ${caseId}`);
    if (alert.alertStatus === "done")
      throw new KytError("ILLEGAL_TRANSITION", `alert ${id} is done; reopen it to decide again`);
  }
  return ids;
}

/** POST /v1/cases/{id}/decision/: closes the case's alerts with an outcome and a comment. */
export async function decideCase(
  ctx: EngineContext,
  accountId: string,
  id: string,
  body: unknown,
  actor: string | null,
) {
  const input = parseInput(caseDecisionSchema, body, "decision");
  const closed = await ctx.store.transaction(async (tx) => {
    const transfer = await loadCaseTransfer(tx, accountId, id);
    const ids = targetsOf(id, await tx.listAlertsOfTransfer(transfer.id), input.alert_ids);
    const note = `Decision: ${OUTCOME_WORDS[input.outcome]}. ${input.comment}`;
    const out: AlertRecord[] = [];
    for (const alertId of ids) {
      let alert = await loadAlert(tx, accountId, alertId);
      const path = pathBetween(ALERT_STATUS_MACHINE, alert.alertStatus, "done") ?? ["done" as const];
      for (const [i, step] of path.entries()) {
        const last = i === path.length - 1;
        alert = await applyChange(
          ctx,
          tx,
          alert,
          { alert_status: step, ...(last ? { comment: note } : {}) },
          actor,
        );
      }
      out.push(alert);
    }
    const decision: DecisionRecord = {
      id: ctx.ids.next(),
      accountId,
      transferId: transfer.id,
      alertIds: ids,
      outcome: input.outcome,
      comment: input.comment,
      actor,
      decidedAt: ctx.clock.now(),
    };
    await tx.insertDecision(decision);
    await recordAudit(ctx, tx, accountId, {
      action: "case.decided",
      actor,
      subject: transfer.id,
      details: { outcome: input.outcome, alert_ids: ids, comment: input.comment },
    });
    return out;
  });
  for (const alert of closed) ctx.events.emit("alert.updated", alert);
  ctx.wake();
  return getCase(ctx, accountId, id);
}
