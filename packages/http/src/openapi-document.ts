/**
 * The OpenAPI 3.1 document of the interface, generated from the endpoint table and the same
 * zod schemas that validate requests (their input side) and describe responses (output side).
 */
import { errorBodySchema } from "@openkyt/core";
import { z } from "zod";
import { type Endpoint, noBodySchema } from "./endpoint-types.js";
import { HTTP_ONLY_CODES, STATUS_OF_CODE } from "./http-errors.js";
import { openApiWebhooks } from "./openapi-webhooks.js";

type JsonObject = Record<string, unknown>;

const ERROR_REF = { $ref: "#/components/schemas/ErrorBody" };
const SECURITY = [{ ApiKeyId: [], ApiTimestamp: [], ApiSignature: [] }];

function jsonSchema(schema: z.ZodType, io: "input" | "output"): JsonObject {
  const { $schema: _dropped, ...rest } = z.toJSONSchema(schema, { io, unrepresentable: "any" }) as JsonObject;
  return rest;
}

function errorResponse(description: string): JsonObject {
  return { description, content: { "application/json": { schema: ERROR_REF } } };
}

const ERROR_DESCRIPTIONS: Readonly<Record<number, string>> = {
  400: "Validation error: `errors` names every invalid field (malformed JSON under non_field_errors).",
  401: "Authentication failed (missing header, unknown or revoked key, bad signature, timestamp outside the window, replay).",
  404: "Unknown id, or a resource of another account.",
  409: "A transition the state machine refuses (an alert's lists the allowed next states in `allowed`; the built-in risk model cannot change).",
  413: "The request body is too large.",
  429: "Rate limited; see Retry-After.",
  500: "Unexpected failure; the detail names the request id.",
  503: "A collaborator is not configured (e.g. no PDF renderer), or (REPLAY_GUARD_FULL) the replay guard is full: send the request again after Retry-After.",
};

function queryParameters(schema: z.ZodType): JsonObject[] {
  const json = jsonSchema(schema, "input") as { properties?: Record<string, JsonObject> };
  return Object.entries(json.properties ?? {}).map(([name, prop]) => {
    const { description, ...rest } = prop;
    return { name, in: "query", required: false, description, schema: rest };
  });
}

/** The media type of each file answer. */
const FILE_TYPES: Readonly<Record<"pdf" | "csv" | "xml", { readonly mime: string; readonly what: string }>> =
  {
    pdf: { mime: "application/pdf", what: "PDF report" },
    csv: { mime: "text/csv", what: "CSV file" },
    xml: { mime: "application/xml", what: "XML file" },
  };

function operation(endpoint: Endpoint): JsonObject {
  const parameters: JsonObject[] = [];
  if (endpoint.path.includes("{id}")) {
    parameters.push({ name: "id", in: "path", required: true, schema: { type: "string" } });
  }
  if (endpoint.query) parameters.push(...queryParameters(endpoint.query));
  const response = endpoint.response;
  const success =
    typeof response === "string"
      ? {
          description: `The ${FILE_TYPES[response].what} (Content-Disposition names the file).`,
          content: { [FILE_TYPES[response].mime]: { schema: { type: "string", format: "binary" } } },
        }
      : {
          description: "Success.",
          content: { "application/json": { schema: jsonSchema(response, "output") } },
        };
  const responses: JsonObject = { [String(endpoint.status)]: success };
  // A signed non-GET request is recorded against replay first: a full guard answers 503.
  const replay = endpoint.method === "GET" || endpoint.errors.includes(503) ? [] : [503];
  for (const status of [400, 401, ...endpoint.errors, 413, 429, 500, ...replay]) {
    responses[String(status)] = errorResponse(ERROR_DESCRIPTIONS[status] ?? "Error.");
  }
  return {
    operationId: endpoint.operationId,
    summary: endpoint.summary,
    tags: [endpoint.tag],
    parameters,
    ...(endpoint.body
      ? {
          requestBody: {
            required: endpoint.body !== noBodySchema,
            content: { "application/json": { schema: jsonSchema(endpoint.body, "input") } },
          },
        }
      : {}),
    responses,
    security: SECURITY,
  };
}

/** The error body, with the allowed next states of a refused alert transition. */
const answeredErrorSchema = errorBodySchema.extend({
  allowed: z
    .array(z.string())
    .optional()
    .describe("ILLEGAL_TRANSITION of an alert: the states it may go to from its current one."),
});

const header = (name: string, description: string) => ({ type: "apiKey", in: "header", name, description });

/** The OpenAPI 3.1 document of `endpoints`. */
export function openApiDocument(endpoints: ReadonlyArray<Endpoint>, version: string): JsonObject {
  const paths: Record<string, JsonObject> = {};
  for (const endpoint of endpoints) {
    paths[endpoint.path] = { ...paths[endpoint.path], [endpoint.method.toLowerCase()]: operation(endpoint) };
  }
  paths["/v1/openapi.json"] = {
    get: {
      operationId: "openApi",
      summary: "This document (no authentication).",
      security: [],
      responses: { 200: { description: "OpenAPI 3.1" } },
    },
  };
  return {
    openapi: "3.1.0",
    info: {
      title: "OpenKYT: the KYT interface",
      version,
      description:
        "Every request is signed: API-SIGNATURE = base64(HMAC-SHA256(secret, METHOD \\n PATH?QUERY \\n TIMESTAMP [\\n BODY])). " +
        `Error codes: ${[...Object.keys(STATUS_OF_CODE), ...Object.keys(HTTP_ONLY_CODES)].join(", ")}.`,
    },
    tags: ["transfers", "manual-checks", "alerts", "cases", "basics", "risk-models", "webhooks"].map(
      (name) => ({
        name,
      }),
    ),
    paths,
    webhooks: openApiWebhooks((schema) => jsonSchema(schema, "output")),
    components: {
      schemas: { ErrorBody: jsonSchema(answeredErrorSchema, "output") },
      securitySchemes: {
        ApiKeyId: header("API-KEY-ID", "The key id."),
        ApiTimestamp: header("API-TIMESTAMP", "Current time in milliseconds."),
        ApiSignature: header("API-SIGNATURE", "Base64 HMAC-SHA256 of the string to sign."),
      },
    },
    security: SECURITY,
  };
}
