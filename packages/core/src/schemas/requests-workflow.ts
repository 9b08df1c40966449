/**
 * Request bodies of the additions beyond the published interface: the alert workflow
 * (PATCH /v1/alerts/{id}/ and the bulk change), risk-model management and webhooks.
 * Strict like every other body: an unknown field is an error naming it.
 */
import { z } from "zod";
import { ALERT_STATUSES, RULE_RISK_LEVELS, RULE_SUB_TYPES, RULE_TYPES } from "../domain/enums.js";
import { WEBHOOK_EVENT_TYPES } from "../domain/records.js";
import { wireString } from "./wire-text.js";

/** Longest comment kept in an alert's history. */
export const COMMENT_MAX = 2_000;
/** Longest assignee. */
export const ASSIGNEE_MAX = 200;
/** Most alerts one bulk change may name. */
export const BULK_MAX = 100;

const comment = wireString()
  .max(COMMENT_MAX)
  .nullable()
  .optional()
  .describe("A note kept in the alert's history.");
const assignee = wireString()
  .max(ASSIGNEE_MAX)
  .nullable()
  .optional()
  .describe("Who works the alert (free text); null clears it; omitted keeps it.");

/** Body of PATCH /v1/alerts/{id}/. */
export const alertUpdateSchema = z
  .strictObject({
    alert_status: z.enum(ALERT_STATUSES).optional().describe("The new status; omitted keeps the status."),
    comment,
    assignee,
  })
  .refine((b) => b.alert_status !== undefined || b.assignee !== undefined || b.comment !== undefined, {
    message: "give alert_status, assignee or comment",
  })
  .describe("A change of an alert's status, assignee or a comment.");

/** Body of POST /v1/alerts/bulk-update/: the same change for several alerts, all or nothing. */
export const alertBulkUpdateSchema = z
  .strictObject({
    ids: z.array(wireString().min(1).max(100)).min(1).max(BULK_MAX).describe("Alert ids, 1 to 100."),
    alert_status: z.enum(ALERT_STATUSES).describe("The new status of every alert named."),
    comment,
    assignee,
  })
  .describe("A status change for several alerts, applied to all or to none.");

/** Longest change reason of a risk model version. */
export const RISK_MODEL_CHANGE_REASON_MAX = 1_000;

/** One rule of a risk model, as clients send it. */
export const riskRuleBodySchema = z
  .strictObject({
    rule_type: z.enum(RULE_TYPES),
    rule_sub_type: z.enum(RULE_SUB_TYPES),
    entity_category: wireString().min(1),
    min_value_in_fiat: z.number().nullable().optional(),
    min_value_share: z.number().nullable().optional(),
    risk_level: z.enum(RULE_RISK_LEVELS),
  })
  .describe("A RISK_RULE plus the level it raises.");

/** The fields of a risk model body. */
const riskModelFields = z.strictObject({
  name: wireString().trim().min(1).max(200).describe("Display name."),
  rules: z
    .array(riskRuleBodySchema)
    .max(2_000)
    .optional()
    .describe("The rules; required unless copy_from is given."),
  copy_from: wireString()
    .min(1)
    .max(100)
    .optional()
    .describe('Start from the rules of this model ("default": the built-in one).'),
  is_default: z.boolean().optional().describe("Make it the account's default model."),
  change_reason: wireString()
    .trim()
    .min(1)
    .max(RISK_MODEL_CHANGE_REASON_MAX)
    .optional()
    .describe("Why this version is written, kept with it and shown in its history. Optional when creating."),
});

const rulesOrCopy = {
  check: (b: { rules?: unknown; copy_from?: unknown }) => b.rules !== undefined || b.copy_from !== undefined,
  error: { message: "give rules or copy_from", path: ["rules"] },
};

/** Body of POST /v1/risk-models/ (and of an inline backtest model). */
export const riskModelBodySchema = riskModelFields
  .refine(rulesOrCopy.check, rulesOrCopy.error)
  .describe("A risk model: a name and its rules.");

/** Body of PUT /v1/risk-models/{id}/: a new version, whose change reason is required. */
export const riskModelReplaceSchema = riskModelFields
  .extend({
    change_reason: wireString()
      .trim()
      .min(1, "give the reason for this change: a new version needs one")
      .max(RISK_MODEL_CHANGE_REASON_MAX)
      .describe("Why this version is written (required), kept with it and shown in its history."),
  })
  .refine(rulesOrCopy.check, rulesOrCopy.error)
  .describe("A new version of a risk model: its name, its rules and why it changed.");

/** Body of POST /v1/webhooks/. */
export const webhookCreateSchema = z
  .strictObject({
    url: wireString()
      .max(2_000)
      .url()
      .refine((u) => /^https?:\/\//i.test(u), { message: "must be an http or https URL" })
      .describe("Where events are POSTed."),
    events: z
      .array(z.enum(WEBHOOK_EVENT_TYPES))
      .min(1)
      .max(WEBHOOK_EVENT_TYPES.length)
      .describe("Event types wanted."),
  })
  .describe("A webhook subscription.");

/** The body of a redelivery: the event to send again. */
export const webhookRedeliverSchema = z
  .strictObject({
    event_id: wireString().max(200).describe("The event to deliver again (a delivery's event_id)."),
  })
  .describe("An event to deliver again.");

/** Parsed PATCH body. */
export type AlertUpdateInput = z.output<typeof alertUpdateSchema>;
/** Parsed bulk body. */
export type AlertBulkUpdateInput = z.output<typeof alertBulkUpdateSchema>;
/** Parsed risk model body. */
export type RiskModelBodyInput = z.output<typeof riskModelBodySchema>;
/** Parsed risk model replacement body. */
export type RiskModelReplaceInput = z.output<typeof riskModelReplaceSchema>;
/** Parsed webhook body. */
export type WebhookCreateInput = z.output<typeof webhookCreateSchema>;
