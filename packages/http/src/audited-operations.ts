/**
 * The interface's writes that the audit log records from the HTTP adapter, whoever calls them
 * (an API key or a console user): risk model and webhook changes. Decisions and alert changes
 * are recorded by the engine itself, in the transaction of the change; sign-ins, API keys and
 * users by the session routes.
 */
import type { AccountApi, AuditAction } from "@openkyt/core";
import type { EndpointInput, EndpointResult } from "./endpoint-types.js";

/** Operation id to the action it records. */
export const AUDITED_OPERATIONS: Readonly<Record<string, AuditAction>> = Object.freeze({
  createRiskModel: "risk_model.created",
  replaceRiskModel: "risk_model.replaced",
  deleteRiskModel: "risk_model.deleted",
  createWebhook: "webhook.created",
  deleteWebhook: "webhook.deleted",
  resumeWebhook: "webhook.resumed",
});

/** The id a JSON answer names, if any (what a creation made). */
function answeredId(result: EndpointResult): string | null {
  if (result.kind !== "json" || typeof result.body !== "object" || result.body === null) return null;
  const id = (result.body as { id?: unknown }).id;
  return typeof id === "string" ? id : null;
}

/** Records a successful audited operation; others pass. */
export async function auditOperation(
  api: AccountApi,
  operationId: string,
  input: Pick<EndpointInput, "id" | "keyId">,
  result: EndpointResult,
): Promise<void> {
  const action = AUDITED_OPERATIONS[operationId];
  if (action === undefined) return;
  const subject = input.id !== "" ? input.id : answeredId(result);
  const details: Record<string, unknown> = {};
  if (result.kind === "json" && typeof result.body === "object" && result.body !== null) {
    const body = result.body as Record<string, unknown>;
    for (const key of ["name", "version"] as const) if (key in body) details[key] = body[key];
    // A version written while the account requires approval says it waits for one.
    const approval = body.approval as { state?: unknown } | null | undefined;
    if (approval?.state === "pending") details.pending_approval = true;
  }
  await api.casework.recordAudit({ action, actor: input.keyId, subject, details });
}
