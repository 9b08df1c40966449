/**
 * Risk-model management beyond the published interface: the account's models and the
 * built-in one (readable and copyable, not editable). A change writes a new version; checks
 * already made keep the version that made them.
 */
import { riskModelBodySchema, riskModelResponseSchema } from "@openkyt/core";
import { z } from "zod";
import { deletedResponseSchema, type Endpoint, expectNoBody, json, noBodySchema } from "./endpoint-types.js";

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
      'Creates a model (version 1) from its rules, or from the rules of another (`copy_from`, "default" for the built-in model).',
    tag,
    status: 201,
    body: riskModelBodySchema,
    response: riskModelResponseSchema,
    errors: [],
    run: async (api, { body }) => json(await api.riskModels.create(body), 201),
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
      "theirs. The built-in model is a 409.",
    tag,
    status: 200,
    body: riskModelBodySchema,
    response: riskModelResponseSchema,
    errors: [404, 409],
    run: async (api, { id, body }) => json(await api.riskModels.replace(id, body)),
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
    body: noBodySchema,
    response: deletedResponseSchema,
    errors: [404, 409],
    run: async (api, { id, body }) => {
      expectNoBody(body);
      return json(await api.riskModels.remove(id));
    },
  },
];
