/** Presenters of the additions beyond the published interface. */
import type {
  AlertHistoryRecord,
  AlertRecord,
  RiskModel,
  TransferRecord,
  WebhookDeliveryRecord,
  WebhookEventRecord,
  WebhookRecord,
} from "../domain/records.js";
import { presentAlert, presentRule } from "./presenters-alerts.js";
import type {
  AlertHistoryEntryResponse,
  AlertWorkflowResponse,
  RiskModelResponse,
  WebhookDeliveryResponse,
  WebhookResponse,
} from "./responses-workflow.js";
import { formatOffsetTimestamp } from "./timestamps.js";

/** An alert with its assignee. */
export function presentAlertWorkflow(
  alert: AlertRecord,
  transfer: TransferRecord | null,
): AlertWorkflowResponse {
  return { ...presentAlert(alert, transfer, { single: true }), assignee: alert.assignee };
}

/** One history entry. */
export function presentAlertHistoryEntry(e: AlertHistoryRecord): AlertHistoryEntryResponse {
  return {
    id: e.id,
    at: formatOffsetTimestamp(e.at),
    actor: e.actor,
    from: e.from,
    to: e.to,
    comment: e.comment,
    assignee: e.assignee,
  };
}

/** A risk model. */
export function presentRiskModel(
  model: RiskModel,
  flags: { readonly isDefault: boolean; readonly isBuiltin: boolean; readonly createdAt: number | null },
): RiskModelResponse {
  return {
    id: model.id,
    name: model.name,
    version: model.version,
    is_default: flags.isDefault,
    is_builtin: flags.isBuiltin,
    created_at: flags.createdAt === null ? null : formatOffsetTimestamp(flags.createdAt),
    rules: model.rules.map((r) => ({ ...presentRule(r), risk_level: r.riskLevel })),
  };
}

/** A webhook; `secret` only in the creation answer. */
export function presentWebhook(w: WebhookRecord, secret?: string): WebhookResponse {
  return {
    id: w.id,
    url: w.url,
    events: [...w.events],
    created_at: formatOffsetTimestamp(w.createdAt),
    state: w.state,
    paused_at: w.pausedAt === null ? null : formatOffsetTimestamp(w.pausedAt),
    paused_reason: w.pausedReason,
    consecutive_failures: w.consecutiveFailures,
    ...(secret === undefined ? {} : { secret }),
  };
}

/** A delivery attempt. */
export function presentWebhookDelivery(
  d: WebhookDeliveryRecord,
  event?: WebhookEventRecord | null,
): WebhookDeliveryResponse {
  return {
    id: d.id,
    event_id: d.eventId,
    attempt: d.attempt,
    at: formatOffsetTimestamp(d.at),
    ok: d.ok,
    status_code: d.statusCode,
    error: d.error,
    duration_ms: Math.round(d.durationMs),
    ...(event === undefined ? {} : { event_type: event?.type ?? null, payload: event?.payload ?? null }),
  };
}
