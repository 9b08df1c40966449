/**
 * Working alerts to a decision: status changes through the alert state machine, an assignee
 * and comments, every change kept as a history entry with who made it; a bulk change applies
 * to every named alert or to none.
 */
import type { AlertRecord } from "../../domain/records.js";
import { fieldError, KytError, notFound } from "../../errors.js";
import { ALERT_STATUS_MACHINE, allowedNext, canTransition } from "../../machines/index.js";
import type { StoreOps } from "../../ports/store.js";
import {
  type AlertUpdateInput,
  alertBulkUpdateSchema,
  alertUpdateSchema,
  lookupId,
  parseInput,
  presentAlertWorkflow,
  textProblem,
} from "../../schemas/index.js";
import { recordAudit } from "../casework/audit-log.js";
import type { EngineContext } from "../engine-context.js";
import { recordEvent } from "../webhooks/webhook-outbox.js";

/** Who made a change (an API key id, or the embedding product's user). */
export interface Actor {
  readonly actor?: string | null;
}

/** The actor kept in the history: null when not given; VALIDATION_ERROR for text no store can hold. */
export function actorOf(by: Actor): string | null {
  const actor = by.actor ?? null;
  const problem = actor === null ? null : textProblem(actor);
  if (problem !== null) throw fieldError("actor", problem);
  return actor;
}

/** Loads an alert of the account inside `tx`, or NOT_FOUND. */
export async function loadAlert(tx: StoreOps, accountId: string, id: string): Promise<AlertRecord> {
  const alert = await tx.getAlert(lookupId("alert", id));
  if (!alert || alert.accountId !== accountId) throw notFound("alert", id);
  return alert;
}

/**
 * The assignee as kept: an account with console users assigns only to one of them that is not
 * disabled (its e-mail, as stored), else VALIDATION_ERROR naming `assignee`; an account without
 * users (an integration that only uses API keys) keeps free text.
 */
export async function checkedAssignee(
  tx: StoreOps,
  accountId: string,
  assignee: string | null,
): Promise<string | null> {
  if (assignee === null) return null;
  const users = await tx.listUsers(accountId);
  if (users.length === 0) return assignee;
  const wanted = assignee.trim().toLowerCase();
  const user = users.find((u) => u.email === wanted && u.disabledAt === null);
  if (!user) throw fieldError("assignee", `not an active user of this account: ${JSON.stringify(assignee)}`);
  return user.email;
}

/** Applies one change to one alert in `tx`; an illegal status change is ILLEGAL_TRANSITION with the allowed next states. */
export async function applyChange(
  ctx: EngineContext,
  tx: StoreOps,
  alert: AlertRecord,
  change: AlertUpdateInput,
  actor: string | null,
): Promise<AlertRecord> {
  const to = change.alert_status ?? alert.alertStatus;
  if (to !== alert.alertStatus && !canTransition(ALERT_STATUS_MACHINE, alert.alertStatus, to)) {
    const allowed = allowedNext(ALERT_STATUS_MACHINE, alert.alertStatus);
    throw new KytError(
      "ILLEGAL_TRANSITION",
      `alert ${alert.id}: cannot go from ${alert.alertStatus} to ${to} (allowed: ${allowed.join(", ") || "none"})`,
      { details: { machine: ALERT_STATUS_MACHINE.name, id: alert.id, from: alert.alertStatus, to, allowed } },
    );
  }
  const assignee =
    change.assignee === undefined || change.assignee === alert.assignee
      ? alert.assignee
      : await checkedAssignee(tx, alert.accountId, change.assignee);
  const now = ctx.clock.now();
  const next: AlertRecord = {
    ...alert,
    alertStatus: to,
    assignee,
    updatedAt: now,
  };
  await tx.updateAlert(next);
  await tx.appendAlertHistory({
    id: ctx.ids.next(),
    alertId: alert.id,
    at: now,
    actor,
    from: alert.alertStatus,
    to,
    comment: change.comment ?? null,
    assignee: next.assignee,
  });
  const transfer = await tx.getTransfer(alert.transferId);
  await recordEvent(ctx, tx, alert.accountId, "alert.updated", {
    alert: presentAlertWorkflow(next, transfer),
  });
  return next;
}

/** PATCH /v1/alerts/{id}/ */
export async function updateAlert(
  ctx: EngineContext,
  accountId: string,
  id: string,
  body: unknown,
  by: Actor,
) {
  const change = parseInput(alertUpdateSchema, body, "alert update");
  const actor = actorOf(by);
  const updated = await ctx.store.transaction(async (tx) => {
    const before = await loadAlert(tx, accountId, id);
    const after = await applyChange(ctx, tx, before, change, actor);
    await recordAudit(ctx, tx, accountId, {
      action: "alert.updated",
      actor,
      subject: id,
      details: { from: before.alertStatus, to: after.alertStatus, assignee: after.assignee },
    });
    return after;
  });
  ctx.events.emit("alert.updated", updated);
  ctx.wake();
  return presentAlertWorkflow(updated, await ctx.store.getTransfer(updated.transferId));
}

/** POST /v1/alerts/bulk-update/: every alert changes, or none does (the first refusal is the answer). */
export async function bulkUpdateAlerts(ctx: EngineContext, accountId: string, body: unknown, by: Actor) {
  const input = parseInput(alertBulkUpdateSchema, body, "bulk alert update");
  const actor = actorOf(by);
  const ids = [...new Set(input.ids)];
  const change: AlertUpdateInput = {
    alert_status: input.alert_status,
    ...(input.comment === undefined ? {} : { comment: input.comment }),
    ...(input.assignee === undefined ? {} : { assignee: input.assignee }),
  };
  const updated = await ctx.store.transaction(async (tx) => {
    const out: AlertRecord[] = [];
    for (const id of ids)
      out.push(await applyChange(ctx, tx, await loadAlert(tx, accountId, id), change, actor));
    await recordAudit(ctx, tx, accountId, {
      action: "alerts.bulk_updated",
      actor,
      details: { ids, alert_status: input.alert_status, changed: out.length, refused: 0 },
    });
    return out;
  });
  for (const alert of updated) ctx.events.emit("alert.updated", alert);
  ctx.wake();
  const transfers = new Map(
    (await ctx.store.getTransfers(updated.map((a) => a.transferId))).map((t) => [t.id, t]),
  );
  return updated.map((a) => presentAlertWorkflow(a, transfers.get(a.transferId) ?? null));
}

/** GET /v1/alerts/{id}/history/: oldest first, the opening included. */
export async function alertHistory(ctx: EngineContext, accountId: string, id: string) {
  const alert = await loadAlert(ctx.store, accountId, id);
  return ctx.store.listAlertHistory(alert.id);
}
