/**
 * Wire objects of risks and alerts: RISK_RULE, RISK, ALERT_ENTITY_INTERACTION and ALERT (the
 * list item, and the single-alert response with the deprecated `interaction`).
 */
import { z } from "zod";
import {
  ALERT_STATUSES,
  PROXIMITIES,
  RISK_TYPES,
  RULE_RISK_LEVELS,
  RULE_SUB_TYPES,
  RULE_TYPES,
} from "../domain/enums.js";
import { fiatCurrency, fiatValue, offsetTimestamp, pageSchema, share } from "./response-fields.js";
import { transferCoreFields } from "./responses.js";

/** RISK_RULE: the rule that raised a risk. */
export const riskRuleResponseSchema = z
  .strictObject({
    rule_type: z.enum(RULE_TYPES).describe("What the rule looks at."),
    rule_sub_type: z
      .enum(RULE_SUB_TYPES)
      .describe("Which proximity the rule accepts: direct, indirect or all."),
    entity_category: z.string().describe("Entity category code."),
    min_value_in_fiat: z.number().nullable().describe("Minimum risky value in fiat; null always passes."),
    min_value_share: z.number().nullable().describe("Minimum share (0 to 1); null always passes."),
  })
  .describe("A risk rule (RISK_RULE).");

/** RISK: one rule that fired for a transfer or a manual check. */
export const riskResponseSchema = z
  .strictObject({
    id: z.string().describe("Risk ID."),
    risk_type: z.enum(RISK_TYPES).describe("Risk type, e.g. origin_of_funds."),
    risk_level: z.enum(RULE_RISK_LEVELS).describe("low, medium, high or severe."),
    entity_category: z.string().describe("Risky entity category code."),
    entity_name: z.string().nullable().describe("Risky entity name, when known."),
    proximity: z.enum(PROXIMITIES).describe("direct or indirect."),
    value_in_fiat: fiatValue.nullable(),
    value_share: share.nullable().describe("Share of the category in the checked value."),
    rule: riskRuleResponseSchema,
    risk_occurred_at: offsetTimestamp.describe("When the risky transfer happened."),
    created_at: offsetTimestamp.describe("When the risk was detected."),
    fiat_currency: fiatCurrency,
  })
  .describe("A detected risk.");

/** ALERT_ENTITY_INTERACTION of an alert list item. */
export const alertEntityInteractionSchema = z
  .strictObject({
    entity_category: z.string().describe("Entity category code."),
    proximity: z.enum(PROXIMITIES).describe("direct or indirect."),
    value_in_fiat: fiatValue.nullable(),
    value_share: share.nullable().describe("Share of the entity category in the transfer."),
    rule: riskRuleResponseSchema,
  })
  .describe("The risky-entity interaction an alert is about (ALERT_ENTITY_INTERACTION).");

/** ALERT_ENTITY_INTERACTION of the single-alert response, with the deprecated `interaction`. */
export const alertEntityInteractionDetailSchema = alertEntityInteractionSchema
  .extend({ interaction: z.enum(PROXIMITIES).describe("Deprecated: same value as proximity.") })
  .describe("ALERT_ENTITY_INTERACTION with the deprecated interaction field.");

/** The transfer embedded in an alert: no check_state, no fiat_currency. */
export const alertTransferSchema = z
  .strictObject(transferCoreFields)
  .describe("The alert's transfer (without check_state and fiat_currency).");

const alertFields = {
  id: z.string().describe("Alert ID."),
  created_at: offsetTimestamp.describe("Creation time."),
  updated_at: offsetTimestamp.nullable().describe("Last update time; null on a fresh alert."),
  risk_level: z.enum(RULE_RISK_LEVELS).describe("low, medium, high or severe."),
  risk_type: z.enum(RISK_TYPES).describe("Risk type, e.g. origin_of_funds."),
  risk_occurred_at: offsetTimestamp.describe("When the risk occurred."),
  alert_status: z.enum(ALERT_STATUSES).describe("open, in_progress, awaiting_response or done."),
  transfer: alertTransferSchema.nullable(),
  fiat_currency: fiatCurrency,
  type: z.enum(RISK_TYPES).describe("Deprecated: same value as risk_type."),
  status: z.enum(ALERT_STATUSES).describe("Deprecated: same value as alert_status."),
};

/** ALERT as a list item. */
export const alertResponseSchema = z
  .strictObject({ ...alertFields, entity_interaction: alertEntityInteractionSchema.nullable() })
  .describe("An alert (ALERT).");

/** ALERT as returned by GET /v1/alerts/{id}/ (entity_interaction.interaction included). */
export const alertDetailResponseSchema = z
  .strictObject({ ...alertFields, entity_interaction: alertEntityInteractionDetailSchema.nullable() })
  .describe("One alert with its transfer and entity interaction.");

/** The paginated alert list. */
export const alertPageSchema = pageSchema(alertResponseSchema);

/** A risk rule, as sent. */
export type RiskRuleResponse = z.output<typeof riskRuleResponseSchema>;
/** A risk, as sent. */
export type RiskResponse = z.output<typeof riskResponseSchema>;
/** An alert list item, as sent. */
export type AlertResponse = z.output<typeof alertResponseSchema>;
/** A single alert, as sent. */
export type AlertDetailResponse = z.output<typeof alertDetailResponseSchema>;
