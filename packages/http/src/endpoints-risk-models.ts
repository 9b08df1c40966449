/**
 * Risk-model management beyond the published interface: the account's models and the
 * built-in one (readable and copyable, not editable). A change writes a new version; checks
 * already made keep the version that made them. A backtest tries a model on the stored results
 * of the account's transfers (docs/backtesting.md).
 */
import {
  backtestBodySchema,
  backtestResponseSchema,
  riskModelBodySchema,
  riskModelReplaceSchema,
  riskModelResponseSchema,
  riskModelVersionResponseSchema,
} from "@openkyt/core";
import { z } from "zod";
import { bodiless, deletedResponseSchema, type Endpoint, json, pdf, wireBody } from "./endpoint-types.js";

const tag = "risk-models" as const;

/** The risk-model endpoints. */
export const RISK_MODEL_ENDPOINTS: ReadonlyArray<Endpoint> = [
  {
    operationId: "listRiskModels",
    method: "GET",
    path: "/v1/risk-models/",
    summary: "The built-in model, then the account's models by name (a bare array).",
    tag,
    status: 200,
    response: z.array(riskModelResponseSchema).describe("The risk models."),
    errors: [],
    run: async (api) => json(await api.riskModels.list()),
  },
  {
    operationId: "createRiskModel",
    method: "POST",
    path: "/v1/risk-models/",
    summary:
      'Creates a model (version 1) from its rules, or from the rules of another (`copy_from`, "default" for the built-in model). ' +
      "When the account requires approval, version 1 is `pending` until another admin approves it.",
    tag,
    status: 201,
    body: riskModelBodySchema,
    response: riskModelResponseSchema,
    errors: [],
    run: async (api, { body, keyId }) =>
      json(await api.riskModels.create(wireBody(body), { actor: keyId }), 201),
  },
  {
    operationId: "getRiskModel",
    method: "GET",
    path: "/v1/risk-models/{id}/",
    summary: 'One model, its latest version ("default" is the built-in model).',
    tag,
    status: 200,
    response: riskModelResponseSchema,
    errors: [404],
    run: async (api, { id }) => json(await api.riskModels.get(id)),
  },
  {
    operationId: "replaceRiskModel",
    method: "PUT",
    path: "/v1/risk-models/{id}/",
    summary:
      "Replaces a model's name and rules: a new version, used by checks from now on; past results keep " +
      "theirs. `change_reason` (why) is required and kept with the version. The built-in model is a 409. When the " +
      "account requires approval (GET /v1/model-approval/) the version is `pending` and checks nothing until another " +
      "admin approves it; a model with a pending version takes no other (409).",
    tag,
    status: 200,
    body: riskModelReplaceSchema,
    response: riskModelResponseSchema,
    errors: [404, 409],
    run: async (api, { id, body, keyId }) =>
      json(await api.riskModels.replace(id, wireBody(body), { actor: keyId })),
  },
  {
    operationId: "riskModelVersions",
    method: "GET",
    path: "/v1/risk-models/{id}/versions/",
    summary:
      "Every version of a model, newest first: when it was written, why (`change_reason`) and its diff " +
      "against the version before (rules added, removed and changed, by number). The built-in model: [].",
    tag,
    status: 200,
    response: z.array(riskModelVersionResponseSchema).describe("The versions, newest first."),
    errors: [404],
    run: async (api, { id }) => json(await api.riskModels.versions(id)),
  },
  {
    operationId: "deleteRiskModel",
    method: "DELETE",
    path: "/v1/risk-models/{id}/",
    summary:
      "Deletes a model: it checks nothing new (the account falls back to the built-in default when it " +
      "was the default); past results keep it. The built-in model is a 409.",
    tag,
    status: 200,
    response: deletedResponseSchema,
    errors: [404, 409],
    ...bodiless((api, { id }) => api.riskModels.remove(id)),
  },
  {
    operationId: "backtestRiskModel",
    method: "POST",
    path: "/v1/risk-models/{id}/backtest/",
    summary:
      'Starts a backtest of the model (its latest version; "default" is the built-in model) on the account\'s ' +
      "transfers registered from `from` to `to`: a job whose progress and report GET /v1/backtests/{id}/ answers. " +
      "It re-evaluates stored results only: it writes no result of a transfer and opens no alert.",
    tag,
    status: 201,
    body: backtestBodySchema,
    response: backtestResponseSchema,
    errors: [404],
    run: async (api, { id, body, origin }) =>
      json(await api.backtests.start(id, wireBody(body), { origin }), 201),
  },
  {
    operationId: "getBacktest",
    method: "GET",
    path: "/v1/backtests/{id}/",
    summary:
      "A backtest: `queued` or `running` with its progress (transfers read of those in scope), then `done` " +
      "with its report, or `error` with the reason.",
    tag,
    status: 200,
    response: backtestResponseSchema,
    errors: [404],
    run: async (api, { id }) => json(await api.backtests.get(id)),
  },
  {
    operationId: "backtestReport",
    method: "GET",
    path: "/v1/backtests/{id}/report/",
    summary:
      "PDF report of a done backtest: transfers by level under both models, the level shift (chart and " +
      "from/to table), alerts by risk type and category, the first transfers whose level moves, throughput. " +
      "409 while it is queued or running, or when it ended in error.",
    tag,
    status: 200,
    response: "pdf",
    errors: [404, 409, 503],
    run: async (api, { id }) => pdf(await api.backtests.report(id)),
  },
];
