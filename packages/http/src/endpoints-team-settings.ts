/**
 * An account's team settings, beyond the published interface: a second admin's approval of
 * risk model versions (the setting, and approving or rejecting a pending version) and the
 * account's own block explorers. From the console, every write here needs the admin role
 * (session-roles.ts); an API key acts for its account but cannot approve or reject (a key
 * names no person, so it cannot be the second pair of eyes).
 */
import {
  explorerSettingsResponseSchema,
  explorerSettingsSchema,
  modelApprovalSettingResponseSchema,
  modelApprovalSettingSchema,
  modelApproveSchema,
  modelRejectSchema,
  riskModelVersionResponseSchema,
} from "@openkyt/core";
import { type Endpoint, json } from "./endpoint-types.js";

/** The team-settings endpoints. */
export const TEAM_SETTINGS_ENDPOINTS: ReadonlyArray<Endpoint> = [
  {
    operationId: "getModelApproval",
    method: "GET",
    path: "/v1/model-approval/",
    summary:
      "Whether the account requires a second admin's approval of risk model versions (off unless an admin turned it on).",
    tag: "risk-models",
    status: 200,
    response: modelApprovalSettingResponseSchema,
    errors: [],
    run: async (api) => json(await api.modelApproval.getSetting()),
  },
  {
    operationId: "setModelApproval",
    method: "PUT",
    path: "/v1/model-approval/",
    summary:
      "Turns the approval requirement on or off (audited). While on, every new version (POST or PUT of a model) is " +
      "`pending`: it checks nothing, and its `is_default` waits, until another admin approves it. Versions already " +
      "pending stay pending when it is turned off.",
    tag: "risk-models",
    status: 200,
    body: modelApprovalSettingSchema,
    response: modelApprovalSettingResponseSchema,
    errors: [],
    run: async (api, { body, keyId }) => json(await api.modelApproval.setSetting(body, { actor: keyId })),
  },
  {
    operationId: "approveRiskModelVersion",
    method: "POST",
    path: "/v1/risk-models/{id}/approve/",
    summary:
      "Approves the pending `version`: it checks from now on (and becomes the default when it asked to). Needs a " +
      "signed-in admin who is not its author; a version not pending, the author or an API key: 409. Audited.",
    tag: "risk-models",
    status: 200,
    body: modelApproveSchema,
    response: riskModelVersionResponseSchema,
    errors: [404, 409],
    run: async (api, { id, body, keyId }) =>
      json(await api.modelApproval.approve(id, body, { actor: keyId })),
  },
  {
    operationId: "rejectRiskModelVersion",
    method: "POST",
    path: "/v1/risk-models/{id}/reject/",
    summary:
      "Rejects the pending `version` with a `reason` (required): it never checks; the version in force stays. Any " +
      "signed-in admin, its author too (a withdrawal). Audited.",
    tag: "risk-models",
    status: 200,
    body: modelRejectSchema,
    response: riskModelVersionResponseSchema,
    errors: [404, 409],
    run: async (api, { id, body, keyId }) => json(await api.modelApproval.reject(id, body, { actor: keyId })),
  },
  {
    operationId: "getExplorerSettings",
    method: "GET",
    path: "/v1/explorer-settings/",
    summary:
      "The account's own block explorers by network (the server's apply to networks not named; " +
      "GET /v1/basics/report-settings/ answers the two merged).",
    tag: "basics",
    status: 200,
    response: explorerSettingsResponseSchema,
    errors: [],
    run: async (api) => json(await api.explorers.get()),
  },
  {
    operationId: "setExplorerSettings",
    method: "PUT",
    path: "/v1/explorer-settings/",
    summary:
      "Replaces the account's explorers: per network an `address` template with `{address}` and a `tx` template " +
      "with `{tx}`, https only (every problem named at once). `{}` goes back to the server's. Audited.",
    tag: "basics",
    status: 200,
    body: explorerSettingsSchema,
    response: explorerSettingsResponseSchema,
    errors: [],
    run: async (api, { body, keyId }) => json(await api.explorers.set(body, { actor: keyId })),
  },
];
