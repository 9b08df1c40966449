/** Response objects of the additions beyond the published interface. */
import { z } from "zod";
import { ALERT_STATUSES, RULE_RISK_LEVELS } from "../domain/enums.js";
import { WEBHOOK_EVENT_TYPES, WEBHOOK_STATES } from "../domain/records.js";
import { alertDetailResponseSchema, riskRuleResponseSchema } from "./responses-alerts.js";
import { modelApprovalResponseSchema } from "./team-settings-schemas.js";

/** An alert with its workflow fields (the answer of PATCH and the bulk change). */
export const alertWorkflowResponseSchema = alertDetailResponseSchema
  .extend({ assignee: z.string().nullable().describe("Who works the alert.") })
  .describe("An alert with its assignee.");

/** One entry of an alert's history. */
export const alertHistoryEntrySchema = z
  .strictObject({
    id: z.string(),
    at: z.string().describe("When (ISO 8601, UTC offset)."),
    actor: z.string().nullable().describe("Who: the API key id that made the change."),
    from: z.enum(ALERT_STATUSES).nullable().describe("Status before; null for the opening entry."),
    to: z.enum(ALERT_STATUSES).describe("Status after."),
    comment: z.string().nullable(),
    assignee: z.string().nullable(),
  })
  .describe("A change of an alert.");

/** A rule of a risk model, as answered. */
export const riskModelRuleResponseSchema = riskRuleResponseSchema
  .extend({ risk_level: z.enum(RULE_RISK_LEVELS) })
  .describe("A rule and the level it raises.");

/** A risk model. */
export const riskModelResponseSchema = z
  .strictObject({
    id: z.string(),
    name: z.string(),
    version: z.number().int().describe("Increases with every change."),
    is_default: z.boolean().describe("The account's default model."),
    is_builtin: z.boolean().describe("The built-in model: readable and copyable, not editable."),
    created_at: z.string().nullable().describe("When this version was written; null for the built-in model."),
    change_reason: z
      .string()
      .nullable()
      .describe("Why this version was written; null when none was given (and for the built-in model)."),
    rules: z.array(riskModelRuleResponseSchema),
    approval: modelApprovalResponseSchema
      .nullable()
      .describe(
        "This version's approval when the account requires a second admin's (`pending` checks nothing yet); null: in force when written.",
      ),
  })
  .describe("A named, versioned set of rules.");

const numberedRuleSchema = z.strictObject({
  number: z.number().int().describe("The rule's number (1-based) in its version."),
  rule: riskModelRuleResponseSchema,
});

/** What changed from the previous version of a model to this one. */
export const riskModelDiffSchema = z
  .strictObject({
    added: z.array(numberedRuleSchema).describe("Rules only in this version, by their number in it."),
    removed: z
      .array(numberedRuleSchema)
      .describe("Rules only in the previous version, by their number there."),
    changed: z
      .array(
        z.strictObject({
          number: z.number().int().describe("Its number in this version."),
          previous_number: z.number().int().describe("Its number in the previous version."),
          before: riskModelRuleResponseSchema,
          after: riskModelRuleResponseSchema,
          fields: z.array(z.string()).describe("The fields that differ."),
        }),
      )
      .describe("Rules in both versions with other thresholds or another level."),
    unchanged: z.number().int().describe("Rules the same in both versions."),
  })
  .describe("Rules added, removed and changed against the previous version.");

/** One version of a model in its history. */
export const riskModelVersionResponseSchema = z
  .strictObject({
    id: z.string(),
    version: z.number().int(),
    name: z.string(),
    created_at: z.string(),
    change_reason: z.string().nullable().describe("Why it was written; null when none was given."),
    rule_count: z.number().int(),
    diff: riskModelDiffSchema
      .nullable()
      .describe(
        "Against the version before it that was in force (rejected proposals are skipped); null for the first.",
      ),
    approval: modelApprovalResponseSchema.nullable().describe("Its approval; null: in force when written."),
  })
  .describe("A version of a risk model: when and why it was written, and what it changed.");

/** A webhook subscription (the secret is shown only when created). */
export const webhookResponseSchema = z
  .strictObject({
    id: z.string(),
    url: z.string(),
    events: z.array(z.enum(WEBHOOK_EVENT_TYPES)),
    created_at: z.string(),
    state: z
      .enum(WEBHOOK_STATES)
      .describe(
        "`active`, or `paused` after too many consecutive failed deliveries (nothing is delivered until resumed).",
      ),
    paused_at: z.string().nullable().describe("When it was paused; null while active."),
    paused_reason: z.string().nullable().describe("Why it was paused; null while active."),
    consecutive_failures: z.number().int().describe("Failed deliveries since the last successful one."),
    secret: z.string().optional().describe("The signing secret: in the creation answer only."),
  })
  .describe("A webhook subscription.");

/** One delivery attempt. */
export const webhookDeliveryResponseSchema = z
  .strictObject({
    id: z.string(),
    event_id: z.string(),
    attempt: z.number().int(),
    at: z.string(),
    ok: z.boolean(),
    status_code: z.number().int().nullable(),
    error: z.string().nullable(),
    duration_ms: z.number().int(),
    event_type: z
      .enum(WEBHOOK_EVENT_TYPES)
      .nullable()
      .optional()
      .describe("The event's type; null when the event is no longer kept."),
    payload: z
      .record(z.string(), z.unknown())
      .nullable()
      .optional()
      .describe("The event's `data` as it was sent; null when the event is no longer kept."),
  })
  .describe("An attempt to deliver an event, with the event's type and data.");

/** The answer of a redelivery or a test event: the event queued for the webhook. */
export const webhookQueuedResponseSchema = z
  .strictObject({
    webhook_id: z.string(),
    event_id: z.string(),
    event_type: z.enum(WEBHOOK_EVENT_TYPES),
    queued: z.literal(true),
  })
  .describe("An event queued for delivery to one webhook (its attempts appear among the deliveries).");

/** An alert with its assignee, as sent. */
export type AlertWorkflowResponse = z.output<typeof alertWorkflowResponseSchema>;
/** An alert history entry, as sent. */
export type AlertHistoryEntryResponse = z.output<typeof alertHistoryEntrySchema>;
/** A risk model, as sent. */
export type RiskModelResponse = z.output<typeof riskModelResponseSchema>;
/** A risk model version in its history, as sent. */
export type RiskModelVersionResponse = z.output<typeof riskModelVersionResponseSchema>;
/** A webhook, as sent. */
export type WebhookResponse = z.output<typeof webhookResponseSchema>;
/** A delivery attempt, as sent. */
export type WebhookDeliveryResponse = z.output<typeof webhookDeliveryResponseSchema>;
