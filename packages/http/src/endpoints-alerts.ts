/**
 * The alert endpoints: the published reads, and the workflow beyond the interface (a status
 * change through the alert state machine, a bulk change, the history). Changes are made in the
 * name of the API key that signed the request.
 */
import {
  alertBulkUpdateSchema,
  alertDetailResponseSchema,
  alertHistoryEntrySchema,
  alertListQuerySchema,
  alertPageSchema,
  alertUpdateSchema,
  alertWorkflowResponseSchema,
} from "@openkyt/core";
import { z } from "zod";
import { type Endpoint, json, wireBody } from "./endpoint-types.js";

const tag = "alerts" as const;

/** The alert endpoints, static paths first. */
export const ALERT_ENDPOINTS: ReadonlyArray<Endpoint> = [
  {
    operationId: "listAlerts",
    method: "GET",
    path: "/v1/alerts/",
    summary: "The account's alerts, newest first (deprecated filters type, interaction, status accepted).",
    tag,
    status: 200,
    query: alertListQuerySchema,
    response: alertPageSchema,
    errors: [],
    run: async (api, { query }) => json(await api.listAlerts(query)),
  },
  {
    operationId: "bulkUpdateAlerts",
    method: "POST",
    path: "/v1/alerts/bulk-update/",
    summary:
      "Changes the status of several alerts, all or nothing: the first refused transition (409, with " +
      "`allowed`) or unknown id (404) leaves every alert as it was. Answers the updated alerts in the order given.",
    tag,
    status: 200,
    body: alertBulkUpdateSchema,
    response: z.array(alertWorkflowResponseSchema).describe("The updated alerts."),
    errors: [404, 409],
    run: async (api, { body, keyId, origin }) =>
      json(await api.bulkUpdateAlerts(wireBody(body), { actor: keyId }, { origin })),
  },
  {
    operationId: "getAlert",
    method: "GET",
    path: "/v1/alerts/{id}/",
    summary: "One alert with its transfer and entity interaction.",
    tag,
    status: 200,
    response: alertDetailResponseSchema,
    errors: [404],
    run: async (api, { id }) => json(await api.getAlert(id)),
  },
  {
    operationId: "updateAlert",
    method: "PATCH",
    path: "/v1/alerts/{id}/",
    summary:
      "Changes an alert's status (through the alert state machine), assignee or adds a comment; " +
      "an illegal transition is a 409 whose `allowed` lists the next states.",
    tag,
    status: 200,
    body: alertUpdateSchema,
    response: alertWorkflowResponseSchema,
    errors: [404, 409],
    run: async (api, { id, body, keyId, origin }) =>
      json(await api.updateAlert(id, wireBody(body), { actor: keyId }, { origin })),
  },
  {
    operationId: "getAlertHistory",
    method: "GET",
    path: "/v1/alerts/{id}/history/",
    summary: "Every change of the alert, oldest first, the opening included (a bare array).",
    tag,
    status: 200,
    response: z.array(alertHistoryEntrySchema).describe("The alert's history."),
    errors: [404],
    run: async (api, { id }) => json(await api.getAlertHistory(id)),
  },
];
