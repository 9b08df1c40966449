/**
 * SLA policies: how long an alert of each risk level may stay open, per account, and the due
 * time and breach of an alert under it. Accounts that never set one get `DEFAULT_SLA_HOURS`.
 */
import { DEFAULT_SLA_HOURS, type SlaHours, slaDueAt } from "../../domain/casework.js";
import type { AlertRecord, Millis } from "../../domain/records.js";
import type { StoreOps } from "../../ports/store.js";
import { parseInput, slaPolicySchema } from "../../schemas/index.js";
import { formatOffsetTimestampOrNull } from "../../schemas/timestamps.js";
import type { EngineContext } from "../engine-context.js";
import { recordAudit } from "./audit-log.js";

/** The hours in force for an account. */
export async function slaHoursOf(store: StoreOps, accountId: string): Promise<SlaHours> {
  return (await store.getSlaPolicy(accountId))?.hours ?? DEFAULT_SLA_HOURS;
}

/** An alert's due time and whether it is breached at `now`. */
export function slaOf(hours: SlaHours, alert: AlertRecord, now: Millis) {
  const due = slaDueAt(hours, alert.riskLevel, alert.createdAt);
  return {
    due_at: formatOffsetTimestampOrNull(due),
    breached: due !== null && alert.alertStatus !== "done" && now > due,
  };
}

/** GET /v1/sla-policy/ */
export async function getSlaPolicy(ctx: EngineContext, accountId: string) {
  const stored = await ctx.store.getSlaPolicy(accountId);
  return {
    hours: { ...(stored?.hours ?? DEFAULT_SLA_HOURS) },
    updated_at: formatOffsetTimestampOrNull(stored?.updatedAt ?? null),
    updated_by: stored?.updatedBy ?? null,
  };
}

/** PUT /v1/sla-policy/: replaces the account's hours, audited. */
export async function setSlaPolicy(
  ctx: EngineContext,
  accountId: string,
  body: unknown,
  actor: string | null,
) {
  const hours = parseInput(slaPolicySchema, body, "SLA policy");
  await ctx.store.transaction(async (tx) => {
    await tx.putSlaPolicy({ accountId, hours, updatedAt: ctx.clock.now(), updatedBy: actor });
    await recordAudit(ctx, tx, accountId, { action: "sla.updated", actor, details: { hours } });
  });
  return getSlaPolicy(ctx, accountId);
}
