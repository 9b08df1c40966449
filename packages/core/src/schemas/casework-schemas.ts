/**
 * Wire shapes of casework (beyond the published interface): the queue's query and items, a
 * case with its alerts and decisions, a decision's body, the item-by-item bulk change, the SLA
 * policy and the audit log. Strict like every other body: an unknown field is an error naming it.
 */
import { z } from "zod";
import { ALERT_ORDERS, AUDIT_ACTIONS, DECISION_OUTCOMES } from "../domain/casework.js";
import { ALERT_STATUSES } from "../domain/enums.js";
import { alertListFields } from "./queries-alerts.js";
import { dateFilter, dropEmptyValues, textFilter } from "./query-fields.js";
import { pageFields } from "./query-filters.js";
import { BULK_MAX, COMMENT_MAX } from "./requests-workflow.js";
import { alertWorkflowResponseSchema } from "./responses-workflow.js";
import { wireString } from "./wire-text.js";

const flag = (description: string) => z.enum(["true", "false"]).optional().describe(description);

/** The queue's own query parameters, beside those of GET /v1/alerts/. */
export const queueOnlyFields = {
  assignee: textFilter("Only the alerts of this assignee (a user's e-mail)."),
  unassigned: flag("true: only the alerts nobody is assigned to."),
  active: flag("true: only the alerts not done."),
  breached: flag("true: only the alerts past their SLA due time (and not done)."),
  q: textFilter(
    "Search: an alert id, transfer id or client id exactly, or a part (3 characters or more) of a tx hash or address.",
  ),
  sort: z
    .enum(ALERT_ORDERS)
    .optional()
    .describe("newest (default), oldest, level (severe first) or value (largest first)."),
};

/** The queue's own parameters, parsed. */
export const queueOnlySchema = z.preprocess(dropEmptyValues, z.strictObject(queueOnlyFields));

/** Query of GET /v1/queue/ (documentation and validation of the whole query). */
export const queueQuerySchema = z.preprocess(
  dropEmptyValues,
  z.strictObject({ ...alertListFields(), ...queueOnlyFields }),
);

/** Query of GET /v1/queue/summary/. */
export const queueSummaryQuerySchema = z.preprocess(
  dropEmptyValues,
  z.strictObject({ assignee: textFilter("Whose queue to count (a user's e-mail).") }),
);

/** SLA fields of a queue item. */
const slaFields = {
  due_at: z.string().nullable().describe("When the alert is due under the account's SLA; null: no due time."),
  breached: z.boolean().describe("Not done and past its due time."),
};

/** An alert of the queue: its workflow fields and its SLA. */
export const queueItemSchema = alertWorkflowResponseSchema
  .extend(slaFields)
  .describe("An alert of the queue.");

/** A decision, as answered. */
export const decisionResponseSchema = z
  .strictObject({
    id: z.string(),
    case_id: z.string().describe("The transfer whose alerts were decided."),
    alert_ids: z.array(z.string()),
    outcome: z.enum(DECISION_OUTCOMES),
    comment: z.string(),
    actor: z.string().nullable(),
    decided_at: z.string(),
  })
  .describe("A decision on a case.");

/** A case: a transfer's alerts side by side, its decisions and whether anything is left open. */
export const caseResponseSchema = z
  .strictObject({
    id: z.string().describe("The case id: the transfer's id."),
    status: z.enum(["open", "closed"]).describe("open while any alert is not done."),
    outcome: z.enum(DECISION_OUTCOMES).nullable().describe("The last decision's outcome; null before any."),
    alerts: z.array(queueItemSchema),
    decisions: z.array(decisionResponseSchema).describe("Oldest first."),
  })
  .describe("A case.");

/** Body of POST /v1/cases/{id}/decision/. */
export const caseDecisionSchema = z
  .strictObject({
    outcome: z
      .enum(DECISION_OUTCOMES)
      .describe("false_positive, true_positive, escalated or reported_to_fiu."),
    comment: wireString()
      .trim()
      .min(1, { error: "a decision needs a comment" })
      .max(COMMENT_MAX)
      .describe("Why: required."),
    alert_ids: z
      .array(wireString().min(1).max(100))
      .min(1)
      .max(BULK_MAX)
      .optional()
      .describe("The case's alerts to close; default every one not done."),
  })
  .describe("A decision that closes a case's alerts with an outcome and a comment.");

/** Body of POST /v1/alerts/bulk-change/: the same change, applied and answered alert by alert. */
export const alertBulkChangeSchema = z
  .strictObject({
    ids: z.array(wireString().min(1).max(100)).min(1).max(BULK_MAX).describe("Alert ids, 1 to 100."),
    alert_status: z.enum(ALERT_STATUSES).optional().describe("The new status; omitted keeps each status."),
    assignee: wireString()
      .max(200)
      .nullable()
      .optional()
      .describe("A user's e-mail; null clears; omitted keeps."),
    comment: wireString().max(COMMENT_MAX).nullable().optional(),
  })
  .refine((b) => b.alert_status !== undefined || b.assignee !== undefined, {
    message: "give alert_status or assignee",
  })
  .describe("A change applied to each alert on its own: one refusal leaves the others changed.");

/** One answer of the bulk change. */
export const bulkChangeItemSchema = z.union([
  z.strictObject({ id: z.string(), status: z.literal(200), alert: alertWorkflowResponseSchema }),
  z.strictObject({
    id: z.string(),
    status: z.number().int().describe("The status this alert alone would have had (404, 409, 400)."),
    error: z.strictObject({
      detail: z.string(),
      code: z.string(),
      errors: z.record(z.string(), z.array(z.string())),
      allowed: z.array(z.string()).optional(),
    }),
  }),
]);

const hours = z
  .number()
  .positive()
  .max(24 * 365)
  .nullable()
  .describe("Hours an alert of this level may stay open; null: no due time.");

/** Body of PUT /v1/sla-policy/ and its answer. */
export const slaPolicySchema = z
  .strictObject({ severe: hours, high: hours, medium: hours, low: hours })
  .describe("Due time, in hours, of an alert of each risk level.");

/** The SLA policy as answered. */
export const slaPolicyResponseSchema = z
  .strictObject({
    hours: slaPolicySchema,
    updated_at: z.string().nullable().describe("null: the defaults, never set."),
    updated_by: z.string().nullable(),
  })
  .describe("The account's SLA policy.");

/** Counts of the analyst's overview. */
export const queueSummarySchema = z
  .strictObject({
    mine: z.number().int().describe("Alerts not done assigned to the user asked for."),
    mine_breached: z.number().int(),
    unassigned: z.number().int().describe("Alerts not done assigned to nobody."),
    breached: z.number().int().describe("Alerts not done past their due time."),
    active: z.number().int().describe("Alerts not done."),
  })
  .describe("The overview's counts.");

/** Query of the audit log. */
export const auditQuerySchema = z.preprocess(
  dropEmptyValues,
  z.strictObject({
    ...pageFields,
    action: z.enum(AUDIT_ACTIONS).optional(),
    actor: textFilter("Who: user:<e-mail> or an API key id."),
    subject: textFilter("What it was about: an id."),
    from: dateFilter("from", "At or after."),
    to: dateFilter("to", "At or before."),
  }),
);

/** One audit entry as answered. */
export const auditEventResponseSchema = z
  .strictObject({
    id: z.string(),
    at: z.string(),
    actor: z.string().nullable(),
    action: z.enum(AUDIT_ACTIONS),
    subject: z.string().nullable(),
    details: z.record(z.string(), z.unknown()),
  })
  .describe("An entry of the audit log.");
