/**
 * A second admin's approval of risk model versions (the four-eyes rule), per account and off by
 * default. While it is on, every new version of a model (its first one too) is `pending`: it
 * checks nothing, and the default switch it asks for waits, until an admin other than its
 * author approves it; any admin (its author too, to withdraw it) may reject it with a reason.
 * A version written while approval was off has no approval record and is in force at once, as
 * before. Pure: the functions here decide, the use cases write.
 */
import type { Millis } from "./records.js";

/** Where a version stands: waiting for a second admin, approved, or rejected. */
export const APPROVAL_STATES = Object.freeze(["pending", "approved", "rejected"] as const);

/** An approval state. */
export type ApprovalState = (typeof APPROVAL_STATES)[number];

/**
 * The approval machine as a table ("from: the states it may move to"): a pending version is
 * approved or rejected once; the decision is final (a rejected proposal is proposed again as a
 * new version).
 */
export const APPROVAL_TRANSITIONS: Readonly<Record<ApprovalState, ReadonlyArray<ApprovalState>>> =
  Object.freeze({
    pending: Object.freeze(["approved", "rejected"] as const),
    approved: Object.freeze([] as const),
    rejected: Object.freeze([] as const),
  });

/** What a store keeps of a version's approval (null on versions written while approval was off). */
export interface ModelApprovalRecord {
  readonly state: ApprovalState;
  /** Who wrote the version (`user:<e-mail>`, an API key id); null when unknown. */
  readonly proposedBy: string | null;
  /** True when the version also makes its model the account's default once approved. */
  readonly makeDefault: boolean;
  /** Who approved or rejected it; null while pending. */
  readonly decidedBy: string | null;
  readonly decidedAt: Millis | null;
  /** Why it was rejected (required) or approved (optional); null while pending. */
  readonly reason: string | null;
}

/** A decision an admin asks for. */
export type ApprovalDecision = "approved" | "rejected";

/** Who asks, and about which version. */
export interface ApprovalRequest {
  readonly decision: ApprovalDecision;
  /** The caller (`user:<e-mail>` from the console, an API key id otherwise). */
  readonly actor: string | null;
  /** The version's approval record; null: written while approval was off. */
  readonly approval: ModelApprovalRecord | null;
  /** The reason given (required to reject). */
  readonly reason: string | null;
}

/** Why a decision is refused, as a result value. */
export type ApprovalRefusal = "not_pending" | "not_a_person" | "own_version" | "reason_required";

/** The outcome of {@link decideApproval}: the new record, or why not. */
export type ApprovalOutcome =
  | { readonly ok: true; readonly approval: ModelApprovalRecord }
  | { readonly ok: false; readonly refusal: ApprovalRefusal; readonly message: string };

/** True when `actor` names a signed-in person (`user:<e-mail>`), not an API key. */
export function isPersonActor(actor: string | null): actor is string {
  return typeof actor === "string" && actor.startsWith("user:") && actor.length > "user:".length;
}

/**
 * Decides whether `request.actor` may approve or reject the version, and the record it leaves.
 * The rules: only a pending version is decided, once; the decider is a person (an API key names
 * nobody, so it cannot be the second pair of eyes); an approver is not the version's author; a
 * rejection says why. Never changes its input.
 */
export function decideApproval(request: ApprovalRequest, at: Millis): ApprovalOutcome {
  const { approval, actor, decision } = request;
  if (approval === null || !APPROVAL_TRANSITIONS[approval.state].includes(decision))
    return {
      ok: false,
      refusal: "not_pending",
      message: `this version is ${approval?.state ?? "in force"}, not pending approval`,
    };
  if (!isPersonActor(actor))
    return {
      ok: false,
      refusal: "not_a_person",
      message: "approving or rejecting a version needs a signed-in admin, not an API key",
    };
  if (decision === "approved" && actor === approval.proposedBy)
    return {
      ok: false,
      refusal: "own_version",
      message: "the author of a version cannot approve it; another admin must",
    };
  const reason = request.reason?.trim() || null;
  if (decision === "rejected" && reason === null)
    return { ok: false, refusal: "reason_required", message: "a rejection needs a reason" };
  return {
    ok: true,
    approval: Object.freeze({ ...approval, state: decision, decidedBy: actor, decidedAt: at, reason }),
  };
}

/** The approval a new version starts with: pending when the account requires approval, else none. */
export function initialApproval(
  required: boolean,
  proposedBy: string | null,
  makeDefault: boolean,
): ModelApprovalRecord | null {
  if (!required) return null;
  return Object.freeze({
    state: "pending",
    proposedBy,
    makeDefault,
    decidedBy: null,
    decidedAt: null,
    reason: null,
  });
}

/** True when a version with this approval may check transfers (none, or approved). */
export function isInForce(approval: { readonly state: ApprovalState } | null | undefined): boolean {
  return approval === null || approval === undefined || approval.state === "approved";
}

/** A version as the rules below read it (a stored version, or one as the API answers it). */
export interface VersionApproval {
  readonly version: number;
  readonly approval?: { readonly state: ApprovalState } | null;
}

/**
 * The version in force among a model's versions: the newest one that is not pending or
 * rejected; undefined when none is. With approval never turned on it is simply the newest.
 */
export function versionInForce<T extends VersionApproval>(versions: ReadonlyArray<T>): T | undefined {
  let found: T | undefined;
  for (const v of versions) if (isInForce(v.approval) && (!found || v.version > found.version)) found = v;
  return found;
}

/**
 * What a version's diff is taken against: the newest version before it that is in force (so a
 * pending version is compared with what it would replace, past any rejected proposal); null for
 * the first.
 */
export function diffBaseOf<T extends VersionApproval>(versions: ReadonlyArray<T>, version: number): T | null {
  return versionInForce(versions.filter((v) => v.version < version)) ?? null;
}
