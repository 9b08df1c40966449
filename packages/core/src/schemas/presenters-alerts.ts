/**
 * Presenters of risks and alerts: RISK_RULE, RISK and ALERT (list item or single response).
 */
import { FIAT_CURRENCY } from "../domain/enums.js";
import type { AlertRecord, RiskRecord, RiskRule, TransferRecord } from "../domain/records.js";
import { presentTransferCore, roundFiat } from "./presenters.js";
import type {
  AlertDetailResponse,
  AlertResponse,
  RiskResponse,
  RiskRuleResponse,
} from "./responses-alerts.js";
import { formatOffsetTimestamp, formatOffsetTimestampOrNull } from "./timestamps.js";

/** RISK_RULE: the interface's five fields (the level a rule raises stays internal). */
export function presentRule(rule: RiskRule): RiskRuleResponse {
  return {
    rule_type: rule.ruleType,
    rule_sub_type: rule.ruleSubType,
    entity_category: rule.entityCategory,
    min_value_in_fiat: rule.minValueInFiat,
    min_value_share: rule.minValueShare,
  };
}

/** A detected risk. */
export function presentRisk(risk: RiskRecord): RiskResponse {
  return {
    id: risk.id,
    risk_type: risk.riskType,
    risk_level: risk.riskLevel,
    entity_category: risk.entityCategory,
    entity_name: risk.entityName,
    proximity: risk.proximity,
    value_in_fiat: roundFiat(risk.valueInFiat),
    value_share: risk.valueShare,
    rule: presentRule(risk.rule),
    risk_occurred_at: formatOffsetTimestamp(risk.occurredAt),
    created_at: formatOffsetTimestamp(risk.createdAt),
    fiat_currency: FIAT_CURRENCY,
  };
}

/** Whether the alert is the single-alert response (adds entity_interaction.interaction). */
export interface PresentAlertOptions {
  readonly single: boolean;
}

/**
 * An alert with its transfer (null when the transfer is gone). The deprecated `type` and
 * `status` are always sent; `entity_interaction.interaction` only when `single`.
 */
export function presentAlert(
  alert: AlertRecord,
  transfer: TransferRecord | null,
  options: { readonly single: true },
): AlertDetailResponse;
export function presentAlert(
  alert: AlertRecord,
  transfer: TransferRecord | null,
  options: { readonly single: false },
): AlertResponse;
export function presentAlert(
  alert: AlertRecord,
  transfer: TransferRecord | null,
  options: PresentAlertOptions,
): AlertResponse | AlertDetailResponse;
export function presentAlert(
  alert: AlertRecord,
  transfer: TransferRecord | null,
  options: PresentAlertOptions,
): AlertResponse | AlertDetailResponse {
  const interaction = {
    entity_category: alert.entityCategory,
    proximity: alert.proximity,
    value_in_fiat: roundFiat(alert.valueInFiat),
    value_share: alert.valueShare,
    rule: presentRule(alert.rule),
  };
  const base: Omit<AlertResponse, "entity_interaction"> = {
    id: alert.id,
    created_at: formatOffsetTimestamp(alert.createdAt),
    updated_at: formatOffsetTimestampOrNull(alert.updatedAt),
    risk_level: alert.riskLevel,
    risk_type: alert.riskType,
    risk_occurred_at: formatOffsetTimestamp(alert.riskOccurredAt),
    alert_status: alert.alertStatus,
    transfer: transfer === null ? null : presentTransferCore(transfer),
    fiat_currency: FIAT_CURRENCY,
    type: alert.riskType,
    status: alert.alertStatus,
  };
  if (options.single)
    return { ...base, entity_interaction: { ...interaction, interaction: alert.proximity } };
  return { ...base, entity_interaction: interaction };
}
