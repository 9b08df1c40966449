/**
 * The casework endpoints (beyond the published interface): the analyst's queue and its
 * overview counts, cases (a transfer's alerts side by side) and their decisions, the bulk change
 * answered alert by alert, and the account's SLA policy. Changes are made in the name of the
 * caller (the API key id, or `user:<e-mail>` from the console).
 */
import {
  alertBulkChangeSchema,
  type BulkChangeResult,
  bulkChangeItemSchema,
  caseDecisionSchema,
  caseResponseSchema,
  pageSchema,
  queueItemSchema,
  queueQuerySchema,
  queueSummaryQuerySchema,
  queueSummarySchema,
  slaPolicyResponseSchema,
  slaPolicySchema,
} from "@openkyt/core";
import { z } from "zod";
import { type Endpoint, json } from "./endpoint-types.js";
import { answerError } from "./http-errors.js";

const tag = "cases" as const;

/** One answer of the bulk change, with the status the alert alone would have had. */
function bulkItem(
  result: { id: string; ok: true; alert: unknown } | Extract<BulkChangeResult, { ok: false }>,
) {
  if (result.ok) return { id: result.id, status: 200, alert: result.alert };
  const { status, body } = answerError(result.error, "bulk-change");
  return { id: result.id, status, error: body };
}

/** The casework endpoints, static paths first. */
export const CASE_ENDPOINTS: ReadonlyArray<Endpoint> = [
  {
    operationId: "listQueue",
    method: "GET",
    path: "/v1/queue/",
    summary:
      "The alert queue: every filter of GET /v1/alerts/ plus assignee, unassigned, active, breached, a search " +
      "(`q`: alert, transfer or client id, or a part of a tx hash or address) and a sort; each alert with its " +
      "assignee, SLA due time and breach.",
    tag,
    status: 200,
    query: queueQuerySchema,
    response: pageSchema(queueItemSchema),
    errors: [],
    run: async (api, { query }) => json(await api.casework.listQueue(query)),
  },
  {
    operationId: "queueSummary",
    method: "GET",
    path: "/v1/queue/summary/",
    summary:
      "The overview's counts: an assignee's open alerts and breaches, unassigned, breached and open alerts.",
    tag,
    status: 200,
    query: queueSummaryQuerySchema,
    response: queueSummarySchema,
    errors: [],
    run: async (api, { query }) => json(await api.casework.queueSummary(query)),
  },
  {
    operationId: "bulkChangeAlerts",
    method: "POST",
    path: "/v1/alerts/bulk-change/",
    summary:
      "Applies one change (status, assignee, comment) to each alert named on its own, and answers alert by " +
      "alert in order: 200 with the alert, or the error it alone would get. One refusal leaves the others changed.",
    tag,
    status: 200,
    body: alertBulkChangeSchema,
    response: z.strictObject({ items: z.array(bulkChangeItemSchema) }).describe("One answer per alert."),
    errors: [],
    run: async (api, { body, keyId, origin }) =>
      json({
        items: (await api.casework.bulkChangeAlerts(body, { actor: keyId }, { origin })).map(bulkItem),
      }),
  },
  {
    operationId: "getSlaPolicy",
    method: "GET",
    path: "/v1/sla-policy/",
    summary:
      "The account's SLA policy: hours an alert of each risk level may stay open (defaults until set).",
    tag,
    status: 200,
    response: slaPolicyResponseSchema,
    errors: [],
    run: async (api) => json(await api.casework.getSlaPolicy()),
  },
  {
    operationId: "setSlaPolicy",
    method: "PUT",
    path: "/v1/sla-policy/",
    summary: "Sets the account's SLA policy (console: admins only); audited.",
    tag,
    status: 200,
    body: slaPolicySchema,
    response: slaPolicyResponseSchema,
    errors: [],
    run: async (api, { body, keyId }) => json(await api.casework.setSlaPolicy(body, { actor: keyId })),
  },
  {
    operationId: "getCase",
    method: "GET",
    path: "/v1/cases/{id}/",
    summary:
      "A case: the transfer's alerts side by side (with assignee and SLA) and its decisions. The id is the transfer's.",
    tag,
    status: 200,
    response: caseResponseSchema,
    errors: [404],
    run: async (api, { id }) => json(await api.casework.getCase(id)),
  },
  {
    operationId: "decideCase",
    method: "POST",
    path: "/v1/cases/{id}/decision/",
    summary:
      "Decides a case: closes its alerts not done (or those named) with an outcome and a required comment, " +
      "each through the alert state machine (open -> in_progress -> done), in one transaction. A case with " +
      "nothing open, or a named alert that is done, is a 409.",
    tag,
    status: 200,
    body: caseDecisionSchema,
    response: caseResponseSchema,
    errors: [404, 409],
    run: async (api, { id, body, keyId, origin }) =>
      json(await api.casework.decideCase(id, body, { actor: keyId }, { origin })),
  },
];
