/** Presenters of the additions beyond the published interface. */

import type { ModelApprovalRecord } from "../domain/model-approval.js";
import type {
  AlertHistoryRecord,
  AlertRecord,
  RiskModel,
  RiskRule,
  StoredRiskModel,
  TransferRecord,
  WebhookDeliveryRecord,
  WebhookEventRecord,
  WebhookRecord,
} from "../domain/records.js";
import { type DiffRule, diffRiskModelRules } from "../domain/risk-model-diff.js";
import { presentAlert, presentRule } from "./presenters-alerts.js";
import type {
  AlertHistoryEntryResponse,
  AlertWorkflowResponse,
  RiskModelResponse,
  RiskModelVersionResponse,
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
  flags: {
    readonly isDefault: boolean;
    readonly isBuiltin: boolean;
    readonly createdAt: number | null;
    readonly changeReason?: string | null;
    readonly approval?: ModelApprovalRecord | null;
  },
): RiskModelResponse {
  return {
    id: model.id,
    name: model.name,
    version: model.version,
    is_default: flags.isDefault,
    is_builtin: flags.isBuiltin,
    created_at: flags.createdAt === null ? null : formatOffsetTimestamp(flags.createdAt),
    change_reason: flags.changeReason ?? null,
    rules: model.rules.map(presentModelRule),
    approval: presentApproval(flags.approval ?? null),
  };
}

/** A version's approval as answered (null: in force when written). */
export function presentApproval(a: ModelApprovalRecord | null): RiskModelResponse["approval"] {
  if (a === null) return null;
  return {
    state: a.state,
    proposed_by: a.proposedBy,
    make_default: a.makeDefault,
    decided_by: a.decidedBy,
    decided_at: a.decidedAt === null ? null : formatOffsetTimestamp(a.decidedAt),
    reason: a.reason,
  };
}

/** A rule of a risk model, with the level it raises. */
function presentModelRule(r: RiskRule): RiskModelResponse["rules"][number] {
  return { ...presentRule(r), risk_level: r.riskLevel };
}

/** A version of a model in its history, with its diff against `previous` (null: none). */
export function presentRiskModelVersion(
  model: StoredRiskModel,
  previous: StoredRiskModel | null,
): RiskModelVersionResponse {
  const rules = model.rules.map(presentModelRule);
  let diff: RiskModelVersionResponse["diff"] = null;
  if (previous !== null) {
    const d = diffRiskModelRules(previous.rules.map(presentModelRule), rules);
    const back = (r: DiffRule) => r as RiskModelResponse["rules"][number];
    diff = {
      added: d.added.map((a) => ({ number: a.number, rule: back(a.rule) })),
      removed: d.removed.map((a) => ({ number: a.number, rule: back(a.rule) })),
      changed: d.changed.map((c) => ({
        number: c.number,
        previous_number: c.previousNumber,
        before: back(c.before),
        after: back(c.after),
        fields: [...c.fields],
      })),
      unchanged: d.unchanged,
    };
  }
  return {
    id: model.id,
    version: model.version,
    name: model.name,
    created_at: formatOffsetTimestamp(model.createdAt),
    change_reason: model.changeReason,
    rule_count: model.rules.length,
    diff,
    approval: presentApproval(model.approval),
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
