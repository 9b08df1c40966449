/**
 * What each console role may call. Analysts read the account's data, work alerts, run manual
 * checks, recheck transfers and read risk models; only admins register transfers (one, a
 * batch, an attempt, or a transaction bound to one), change, approve or reject risk models and
 * the approval setting, run backtests, set the account's explorers and manage webhooks (and API keys, through session-api-keys.ts). API keys are not subject to
 * roles: a key acts for its account. docs/console.md's role table is this file in words.
 */
import type { UserRole } from "@openkyt/core";
import type { Endpoint } from "./endpoint-types.js";

/**
 * Operations that create transfers or change what a transfer is: the exchange's systems make
 * them with an API key; from the console, only an admin.
 */
export const ADMIN_TRANSFER_OPERATIONS: ReadonlySet<string> = new Set([
  "registerTransfer",
  "registerTransfers",
  "registerAttempt",
  "bindTransaction",
]);

/** The role an endpoint needs when called from a console session. */
export function roleNeeded(endpoint: Pick<Endpoint, "tag" | "method" | "operationId">): UserRole {
  if (endpoint.tag === "webhooks") return "admin";
  if (endpoint.tag === "risk-models" && endpoint.method !== "GET") return "admin";
  if (ADMIN_TRANSFER_OPERATIONS.has(endpoint.operationId)) return "admin";
  if (endpoint.operationId === "setSlaPolicy") return "admin";
  if (endpoint.operationId === "setExplorerSettings") return "admin";
  return "analyst";
}

/** True when `role` may call what needs `needed`. */
export function roleAllows(role: UserRole, needed: UserRole): boolean {
  return role === "admin" || needed === "analyst";
}
