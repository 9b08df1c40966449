/**
 * What each console role may call. Analysts work alerts and transfers, run manual checks and
 * read risk models; only admins change risk models and manage webhooks (and API keys, through
 * session-api-keys.ts). API keys are not subject to roles: a key acts for its account.
 */
import type { UserRole } from "@openkyt/core";
import type { Endpoint } from "./endpoint-types.js";

/** The role an endpoint needs when called from a console session. */
export function roleNeeded(endpoint: Pick<Endpoint, "tag" | "method">): UserRole {
  if (endpoint.tag === "webhooks") return "admin";
  if (endpoint.tag === "risk-models" && endpoint.method !== "GET") return "admin";
  return "analyst";
}

/** True when `role` may call what needs `needed`. */
export function roleAllows(role: UserRole, needed: UserRole): boolean {
  return role === "admin" || needed === "analyst";
}
