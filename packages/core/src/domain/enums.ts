/**
 * Every enumeration of the KYT interface as an `as const` table. The union types and the
 * guards are derived from the tables, so a value list is written exactly once.
 */

/**
 * Builds a type guard for one of the tables below. Free of side effects (the annotation lets a
 * bundler drop a guard nobody uses, with its table).
 */
/* @__NO_SIDE_EFFECTS__ */
function guardOf<T extends string>(values: readonly T[]): (value: unknown) => value is T {
  const set = new Set<string>(values);
  return (value: unknown): value is T => typeof value === "string" && set.has(value);
}

/** Risk levels, lowest first; `undefined` means "not computed yet" and ranks below `none`. */
export const RISK_LEVELS = ["undefined", "none", "low", "medium", "high", "severe"] as const;
export type RiskLevel = (typeof RISK_LEVELS)[number];
export const isRiskLevel = guardOf(RISK_LEVELS);
/** Levels a rule can raise (and an alert can carry). */
export const RULE_RISK_LEVELS = ["low", "medium", "high", "severe"] as const;
export type RuleRiskLevel = (typeof RULE_RISK_LEVELS)[number];
export const isRuleRiskLevel = guardOf(RULE_RISK_LEVELS);

/** Binding status of a transfer. `error`: the chain source kept failing (public-facts §2.2). */
export const TX_STATUSES = ["none", "binding", "bound", "not_found", "error"] as const;
export type TxStatus = (typeof TX_STATUSES)[number];
export const isTxStatus = guardOf(TX_STATUSES);

/** State of one check of a transfer (`check_state.exposure`, `.counterparty`, `.sanctions`). */
export const CHECK_STATES = ["none", "queued", "checking", "checked", "error"] as const;
export type CheckState = (typeof CHECK_STATES)[number];
export const isCheckState = guardOf(CHECK_STATES);

/** The three checks every transfer has. */
export const CHECK_KINDS = ["exposure", "counterparty", "sanctions"] as const;
export type CheckKind = (typeof CHECK_KINDS)[number];
export const isCheckKind = guardOf(CHECK_KINDS);

/** Manual check types: deposit (incoming), withdrawal (outgoing), single_address. */
export const MANUAL_CHECK_TYPES = ["deposit", "withdrawal", "single_address"] as const;
export type ManualCheckType = (typeof MANUAL_CHECK_TYPES)[number];

/** Manual check status. */
export const MANUAL_CHECK_STATUSES = ["checking", "checked", "error"] as const;
export type ManualCheckStatus = (typeof MANUAL_CHECK_STATUSES)[number];
export const isManualCheckStatus = guardOf(MANUAL_CHECK_STATUSES);

/** Alert workflow status. */
export const ALERT_STATUSES = ["open", "in_progress", "awaiting_response", "done"] as const;
export type AlertStatus = (typeof ALERT_STATUSES)[number];
export const isAlertStatus = guardOf(ALERT_STATUSES);

/** Risk types (public-facts §3.2); the `attempt_*` ones are raised for attempts not bound yet. */
export const RISK_TYPES = [
  "sender_entity",
  "recipient_entity",
  "origin_of_funds",
  "destination_of_funds",
  "sender_exposure",
  "recipient_exposure",
  "attempt_sender_entity",
  "attempt_recipient_entity",
  "attempt_sender_exposure",
  "attempt_recipient_exposure",
] as const;
export type RiskType = (typeof RISK_TYPES)[number];
export const isRiskType = guardOf(RISK_TYPES);

/** Whether an entity was met directly (the counterparty itself) or through other addresses. */
export const PROXIMITIES = ["direct", "indirect"] as const;
export type Proximity = (typeof PROXIMITIES)[number];
export const isProximity = guardOf(PROXIMITIES);

/** Direction of a transfer relative to the client's address. */
export const DIRECTIONS = ["incoming", "outgoing"] as const;
export type Direction = (typeof DIRECTIONS)[number];
export const isDirection = guardOf(DIRECTIONS);

/**
 * What a rule looks at: the transfer's exposure (`origin_of_funds` for incoming,
 * `destination_of_funds` for outgoing), the counterparty's address exposure, or the
 * counterparty's own entity.
 */
export const RULE_TYPES = ["origin_of_funds", "destination_of_funds", "address_exposure", "entity"] as const;
export type RuleType = (typeof RULE_TYPES)[number];
export const isRuleType = guardOf(RULE_TYPES);

/** Which proximity a rule accepts. */
export const RULE_SUB_TYPES = ["direct", "indirect", "all"] as const;
export type RuleSubType = (typeof RULE_SUB_TYPES)[number];
export const isRuleSubType = guardOf(RULE_SUB_TYPES);

/** Risk score for each aggregated level (architecture: "risk_score maps the level"). */
export const RISK_SCORES: Readonly<Record<RiskLevel, number | null>> = Object.freeze({
  undefined: null,
  none: 0,
  low: 0.25,
  medium: 0.5,
  high: 0.75,
  severe: 1,
});

/** Rank of a level for comparisons: higher is riskier. */
export function riskRank(level: RiskLevel): number {
  return RISK_LEVELS.indexOf(level);
}

/** The fiat currency of every value. */
export const FIAT_CURRENCY = "USD";
