/**
 * The account's setting that requires a second admin's approval of risk model versions (off by
 * default, so an account that never sets it works as before). Kept as a named setting of the
 * store (`risk-model:approval:<account>`, JSON), read inside the transaction of every model
 * write; changing it is audited.
 */
import type { Millis } from "../../domain/records.js";
import type { StoreOps } from "../../ports/store.js";
import { modelApprovalSettingSchema, parseInput } from "../../schemas/index.js";
import { formatOffsetTimestampOrNull } from "../../schemas/timestamps.js";
import { recordAudit } from "../casework/audit-log.js";
import type { EngineContext } from "../engine-context.js";

/** The setting that holds whether `accountId` requires approval. */
export const approvalSettingKey = (accountId: string) => `risk-model:approval:${accountId}`;

/** The stored setting. */
interface StoredApprovalSetting {
  readonly required: boolean;
  readonly updatedAt: Millis | null;
  readonly updatedBy: string | null;
}

/** The stored setting; approval off when never set (or unreadable). */
async function readSetting(store: StoreOps, accountId: string): Promise<StoredApprovalSetting> {
  const raw = await store.getSetting(approvalSettingKey(accountId));
  if (!raw) return { required: false, updatedAt: null, updatedBy: null };
  try {
    const parsed = JSON.parse(raw) as Partial<StoredApprovalSetting>;
    return {
      required: parsed.required === true,
      updatedAt: typeof parsed.updatedAt === "number" ? parsed.updatedAt : null,
      updatedBy: typeof parsed.updatedBy === "string" ? parsed.updatedBy : null,
    };
  } catch {
    return { required: false, updatedAt: null, updatedBy: null };
  }
}

/** True when `accountId` requires a second admin's approval of new versions. */
export async function approvalRequired(store: StoreOps, accountId: string): Promise<boolean> {
  return (await readSetting(store, accountId)).required;
}

/** The setting as answered. */
function present(s: StoredApprovalSetting) {
  return {
    required: s.required,
    updated_at: formatOffsetTimestampOrNull(s.updatedAt),
    updated_by: s.updatedBy,
  };
}

/** GET /v1/model-approval/ */
export async function getApprovalSetting(ctx: EngineContext, accountId: string) {
  return present(await readSetting(ctx.store, accountId));
}

/**
 * PUT /v1/model-approval/: turns the requirement on or off, audited. Versions already pending
 * stay pending when it is turned off: they are still approved or rejected one by one.
 */
export async function setApprovalSetting(
  ctx: EngineContext,
  accountId: string,
  body: unknown,
  actor: string | null,
) {
  const input = parseInput(modelApprovalSettingSchema, body, "approval setting");
  const stored: StoredApprovalSetting = {
    required: input.required,
    updatedAt: ctx.clock.now(),
    updatedBy: actor,
  };
  await ctx.store.transaction(async (tx) => {
    const before = await readSetting(tx, accountId);
    await tx.putSetting(approvalSettingKey(accountId), JSON.stringify(stored));
    await recordAudit(ctx, tx, accountId, {
      action: "risk_model.approval_setting_changed",
      actor,
      details: { required: input.required, was: before.required },
    });
  });
  return present(stored);
}
