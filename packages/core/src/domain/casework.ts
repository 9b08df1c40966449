/**
 * Casework: what a compliance team records while it works alerts. A transfer's alerts form one
 * case (the case id is the transfer id); a decision closes the case's alerts at once with an
 * outcome and a comment. The audit log keeps, per account and append-only, who did what; SLA
 * policies say how long an alert of each risk level may stay open; saved views are a user's
 * named filters of the alert queue.
 */
import type { RuleRiskLevel } from "./enums.js";
import type { Millis } from "./records.js";
import type { UserRole } from "./users.js";

/** What a decision concluded. */
export const DECISION_OUTCOMES = Object.freeze([
  "false_positive",
  "true_positive",
  "escalated",
  "reported_to_fiu",
] as const);

/** A decision's outcome. */
export type DecisionOutcome = (typeof DECISION_OUTCOMES)[number];

/** True when `value` is a decision outcome. */
export function isDecisionOutcome(value: unknown): value is DecisionOutcome {
  return (DECISION_OUTCOMES as ReadonlyArray<unknown>).includes(value);
}

/** A decision on a case (a transfer's alerts), as the store keeps it. Never changed once written. */
export interface DecisionRecord {
  readonly id: string;
  readonly accountId: string;
  /** The case: the transfer whose alerts were decided. */
  readonly transferId: string;
  /** The alerts the decision closed, in the order they were closed. */
  readonly alertIds: ReadonlyArray<string>;
  readonly outcome: DecisionOutcome;
  /** Why: required, never empty. */
  readonly comment: string;
  /** Who decided (`user:<e-mail>` from the console, an API key id otherwise). */
  readonly actor: string | null;
  readonly decidedAt: Millis;
}

/**
 * What the audit log records. Reading the table: sign-ins, decisions and alert changes, model
 * changes, key, webhook and user changes, SLA changes and bulk actions.
 */
export const AUDIT_ACTIONS = Object.freeze([
  "session.signed_in",
  "session.signed_out",
  "case.decided",
  "alert.updated",
  "alerts.bulk_updated",
  "risk_model.created",
  "risk_model.replaced",
  "risk_model.deleted",
  "risk_model.approved",
  "risk_model.rejected",
  "risk_model.approval_setting_changed",
  "api_key.created",
  "api_key.revoked",
  "webhook.created",
  "webhook.deleted",
  "webhook.resumed",
  "user.created",
  "user.disabled",
  "user.role_changed",
  "sla.updated",
  "explorers.updated",
  "view.shared",
  "view.deleted",
] as const);

/** An audited action. */
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

/** True when `value` is an audited action. */
export function isAuditAction(value: unknown): value is AuditAction {
  return (AUDIT_ACTIONS as ReadonlyArray<unknown>).includes(value);
}

/** One entry of an account's audit log: written once, never changed nor deleted. */
export interface AuditEventRecord {
  readonly id: string;
  readonly accountId: string;
  readonly at: Millis;
  /** Who acted (`user:<e-mail>`, an API key id); null when unknown. */
  readonly actor: string | null;
  readonly action: AuditAction;
  /** What it was about (an alert, transfer, model, key, webhook or user id); null when nothing. */
  readonly subject: string | null;
  /** The facts worth keeping (an outcome, a count, a role), as plain JSON. */
  readonly details: Readonly<Record<string, unknown>>;
}

/** Filter of the audit log; all optional, ANDed; time bounds inclusive epoch ms. */
export interface AuditFilter {
  readonly action?: AuditAction;
  /** The exact actor. */
  readonly actor?: string;
  /** The exact subject. */
  readonly subject?: string;
  readonly from?: Millis;
  readonly to?: Millis;
}

/** Hours an alert of each risk level may stay open; null: no due time for that level. */
export type SlaHours = Readonly<Record<RuleRiskLevel, number | null>>;

/** What an account gets until an admin sets its own: a day for severe, three for high, a week for medium. */
export const DEFAULT_SLA_HOURS: SlaHours = Object.freeze({ severe: 24, high: 72, medium: 168, low: null });

/** An account's SLA policy as the store keeps it. */
export interface SlaPolicyRecord {
  readonly accountId: string;
  readonly hours: SlaHours;
  readonly updatedAt: Millis;
  readonly updatedBy: string | null;
}

/**
 * When an alert of `level` opened at `createdAt` is due under `hours`; null when its level has
 * no due time. The one function every reader of due times calls.
 */
export function slaDueAt(hours: SlaHours, level: RuleRiskLevel, createdAt: Millis): Millis | null {
  const h = hours[level];
  return h === null ? null : createdAt + h * 3_600_000;
}

/**
 * For each level with a due time, the latest creation time of an alert that is overdue at `now`
 * (created strictly before it): the cut-offs a store filters with.
 */
export function slaCutoffs(hours: SlaHours, now: Millis): Partial<Record<RuleRiskLevel, Millis>> {
  const out: Partial<Record<RuleRiskLevel, Millis>> = {};
  for (const [level, h] of Object.entries(hours) as Array<[RuleRiskLevel, number | null]>) {
    if (h !== null) out[level] = now - h * 3_600_000;
  }
  return out;
}

/**
 * A user's named view of the alert queue (its filters and sort, as the console's query string).
 * A shared view is listed for every user of the account, read-only for all but its owner.
 */
export interface SavedViewRecord {
  readonly id: string;
  readonly accountId: string;
  readonly userId: string;
  readonly name: string;
  /** The queue's query string without `?`, e.g. `alert_status=open&sort=level`. */
  readonly query: string;
  readonly createdAt: Millis;
  /** Shared with the account (migration 0080); false: its owner's alone. */
  readonly shared: boolean;
}

/** Who asks to change a saved view: the user and their role. */
export interface ViewCaller {
  readonly userId: string;
  readonly accountId: string;
  readonly role: UserRole;
}

/**
 * True when `caller` may delete `view`: its owner, or an admin of its account when it is shared
 * (a view nobody else sees stays its owner's business). Pure.
 */
export function mayDeleteView(view: SavedViewRecord, caller: ViewCaller): boolean {
  if (view.accountId !== caller.accountId) return false;
  if (view.userId === caller.userId) return true;
  return view.shared && caller.role === "admin";
}

/** True when `caller` sees `view` in their list: their own, or shared in their account. Pure. */
export function seesView(view: SavedViewRecord, caller: Pick<ViewCaller, "userId" | "accountId">): boolean {
  return view.accountId === caller.accountId && (view.userId === caller.userId || view.shared);
}

/**
 * Orders of the alert queue: newest or oldest first (age), level (severe first) or value (the
 * largest fiat value first, unknown values last). Ties: newest first, then by id.
 */
export const ALERT_ORDERS = Object.freeze(["newest", "oldest", "level", "value"] as const);

/** An order of the alert queue. */
export type AlertOrder = (typeof ALERT_ORDERS)[number];
