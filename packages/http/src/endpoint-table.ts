/** Every endpoint of the interface, in routing order (static paths before `{id}` paths). */
import type { Endpoint } from "./endpoint-types.js";
import { ALERT_ENDPOINTS } from "./endpoints-alerts.js";
import { CASE_ENDPOINTS } from "./endpoints-cases.js";
import { MANUAL_CHECK_ENDPOINTS } from "./endpoints-manual-checks.js";
import { REFERENCE_ENDPOINTS } from "./endpoints-reference.js";
import { ADDRESS_ENDPOINTS, REPORT_ENDPOINTS } from "./endpoints-reports.js";
import { RISK_MODEL_ENDPOINTS } from "./endpoints-risk-models.js";
import { TEAM_SETTINGS_ENDPOINTS } from "./endpoints-team-settings.js";
import { TRANSFER_ENDPOINTS } from "./endpoints-transfers.js";
import { WEBHOOK_ENDPOINTS } from "./endpoints-webhooks.js";

/** The endpoints served under /v1: the published interface, then the additions beyond it. */
export const ENDPOINTS: ReadonlyArray<Endpoint> = Object.freeze([
  ...TRANSFER_ENDPOINTS,
  ...MANUAL_CHECK_ENDPOINTS,
  ...CASE_ENDPOINTS,
  ...REPORT_ENDPOINTS,
  ...ALERT_ENDPOINTS,
  ...REFERENCE_ENDPOINTS,
  ...RISK_MODEL_ENDPOINTS,
  ...TEAM_SETTINGS_ENDPOINTS,
  ...WEBHOOK_ENDPOINTS,
  ...ADDRESS_ENDPOINTS,
]);

/** The Hono route of an interface path: `/v1/transfers/{id}/` -> `/v1/transfers/:id`. */
export function honoPath(path: string): string {
  return path.replace(/\{(\w+)\}/g, ":$1").replace(/\/$/, "");
}
