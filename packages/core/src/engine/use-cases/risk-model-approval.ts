/**
 * Approving and rejecting a pending risk model version (the account requires a second admin's
 * approval): `decideApproval` says who may, the store records the decision compare-and-set, and
 * the audit entry lands in the same transaction. An approval that asked to make the model the
 * default makes it so.
 */
import { type ApprovalDecision, decideApproval, diffBaseOf } from "../../domain/model-approval.js";
import { KytError, notFound } from "../../errors.js";
import {
  lookupId,
  modelApproveSchema,
  modelRejectSchema,
  parseInput,
  presentRiskModelVersion,
} from "../../schemas/index.js";
import { recordAudit } from "../casework/audit-log.js";
import type { EngineContext } from "../engine-context.js";
import { type Actor, actorOf } from "./alert-workflow.js";
import { getApprovalSetting, setApprovalSetting } from "./model-approval-setting.js";
import { defaultModelSetting, isBuiltin } from "./risk-model-management.js";

/** Approves or rejects version `body.version` of model `id`; answers the version as decided. */
export async function decideModelVersion(
  ctx: EngineContext,
  accountId: string,
  id: string,
  decision: ApprovalDecision,
  body: unknown,
  by: Actor,
) {
  const actor = actorOf(by);
  const input =
    decision === "approved"
      ? parseInput(modelApproveSchema, body, "approval")
      : parseInput(modelRejectSchema, body, "rejection");
  if (isBuiltin(ctx, id))
    throw new KytError("ILLEGAL_TRANSITION", "the built-in risk model has no versions to approve");
  const now = ctx.clock.now();
  return ctx.store.transaction(async (tx) => {
    const versions = await tx.listRiskModelVersions(accountId, lookupId("risk model", id));
    if (versions.length === 0 || versions.some((m) => m.deletedAt !== null)) throw notFound("risk model", id);
    const found = versions.find((m) => m.version === input.version);
    if (!found) throw notFound("risk model version", `${id}@${input.version}`);
    const outcome = decideApproval(
      { decision, actor, approval: found.approval, reason: input.reason ?? null },
      now,
    );
    if (!outcome.ok) {
      if (outcome.refusal === "reason_required")
        throw new KytError("VALIDATION_ERROR", outcome.message, { errors: { reason: [outcome.message] } });
      throw new KytError("ILLEGAL_TRANSITION", outcome.message, {
        details: { refusal: outcome.refusal, version: found.version },
      });
    }
    if (!(await tx.decideRiskModelVersion(accountId, id, found.version, outcome.approval)))
      throw new KytError("CONFLICT", `version ${found.version} was decided meanwhile`);
    if (decision === "approved" && outcome.approval.makeDefault)
      await tx.putSetting(defaultModelSetting(accountId), id);
    await recordAudit(ctx, tx, accountId, {
      action: decision === "approved" ? "risk_model.approved" : "risk_model.rejected",
      actor,
      subject: id,
      details: {
        name: found.name,
        version: found.version,
        proposed_by: outcome.approval.proposedBy,
        ...(outcome.approval.reason === null ? {} : { reason: outcome.approval.reason }),
        ...(outcome.approval.makeDefault ? { make_default: true } : {}),
      },
    });
    const decided = { ...found, approval: outcome.approval };
    const others = versions.map((m) => (m.version === found.version ? decided : m));
    return presentRiskModelVersion(decided, diffBaseOf(others, found.version));
  });
}

/** The approval operations of one account (`engine.account(id).modelApproval`). */
export function modelApprovalApi(ctx: EngineContext, accountId: string) {
  return Object.freeze({
    /** GET /v1/model-approval/: whether a second admin's approval is required. */
    getSetting() {
      return getApprovalSetting(ctx, accountId);
    },
    /** PUT /v1/model-approval/: requires approval, or stops requiring it; audited. */
    setSetting(body: unknown, by: Actor = {}) {
      return setApprovalSetting(ctx, accountId, body, actorOf(by));
    },
    /** POST /v1/risk-models/{id}/approve/: another admin than the author approves a pending version. */
    approve(id: string, body: unknown, by: Actor = {}) {
      return decideModelVersion(ctx, accountId, id, "approved", body, by);
    },
    /** POST /v1/risk-models/{id}/reject/: an admin rejects a pending version, with a reason. */
    reject(id: string, body: unknown, by: Actor = {}) {
      return decideModelVersion(ctx, accountId, id, "rejected", body, by);
    },
  });
}
