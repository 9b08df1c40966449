/** The transfer endpoints: register, attempts, binding, rechecks, reads and PDF reports. */
import {
  addressExposureResponseSchema,
  bindTransactionSchema,
  MAX_BATCH_REGISTRATIONS,
  parseInput,
  registerAttemptSchema,
  registerTransferSchema,
  riskResponseSchema,
  transferExposureResponseSchema,
  transferListQuerySchema,
  transferPageSchema,
  transferResponseSchema,
} from "@openkyt/core";
import { z } from "zod";
import { bodiless, type Endpoint, json, pdf, waitOf, waitQuerySchema, wireBody } from "./endpoint-types.js";
import { answerError } from "./http-errors.js";

/** Response header of register: "true" when the transfer was created, "false" when it existed. */
export const CREATED_HEADER = "OpenKYT-Created";

const tag = "transfers" as const;

const pdfEndpoint = (segment: string, withRisks: boolean): Endpoint => ({
  operationId: `transferReport_${segment.replaceAll("-", "_")}`,
  method: "GET",
  path: `/v1/transfers/{id}/${segment}/`,
  summary: withRisks
    ? "PDF report of a transfer."
    : "PDF report of a transfer without the list of detected risks.",
  tag,
  status: 200,
  response: "pdf",
  errors: [404, 503],
  run: async (api, { id }) => pdf(await api.transferReport(id, { withRisks })),
});

/** The body of a batch registration: the transfers, each a body of `POST /v1/transfers/register/`. */
const registerBatchSchema = z
  .strictObject({
    transfers: z
      .array(registerTransferSchema)
      .min(1)
      .max(MAX_BATCH_REGISTRATIONS)
      .describe(
        `1 to ${MAX_BATCH_REGISTRATIONS.toLocaleString("en-US")} transfers, each a body of POST /v1/transfers/register/.`,
      ),
  })
  .describe("Transfers to register together.");

/** The envelope as the runner checks it: each item is validated on its own by the engine. */
const registerBatchEnvelope = z.strictObject({ transfers: z.array(z.unknown()) });

/** One item of a batch registration's answer. */
const batchItemSchema = z.union([
  z
    .strictObject({
      index: z.number().int().describe("Position of the item in `transfers`."),
      status: z.literal(201),
      created: z.boolean().describe("True when the transfer was created now, false when it existed."),
      transfer: transferResponseSchema,
    })
    .describe("A registered transfer (as from POST /v1/transfers/register/)."),
  z
    .strictObject({
      index: z.number().int(),
      status: z.number().int().describe("The status the item alone would have had (400, 404, 409)."),
      error: z.strictObject({
        detail: z.string(),
        code: z.string(),
        errors: z.record(z.string(), z.array(z.string())),
      }),
    })
    .describe("A refused item: nothing of it was stored."),
]);

/** The per-item answer of a batch, as JSON. */
function batchItem(
  result: { ok: true; created: boolean; transfer: unknown } | { ok: false; error: unknown },
  index: number,
) {
  if (result.ok) return { index, status: 201, created: result.created, transfer: result.transfer };
  const { status, body } = answerError(result.error, "batch");
  return { index, status, error: body };
}

/** The transfer endpoints, static paths first. */
export const TRANSFER_ENDPOINTS: ReadonlyArray<Endpoint> = [
  {
    operationId: "registerTransfer",
    method: "POST",
    path: "/v1/transfers/register/",
    summary:
      "Registers a full transfer. 201 both when created and when the same transfer was registered before " +
      `(then the existing transfer; the ${CREATED_HEADER} header says which). ` +
      "With `?wait=SECONDS`, answers once bound and checked, or at the end of the wait.",
    tag,
    status: 201,
    body: registerTransferSchema,
    query: waitQuerySchema,
    response: transferResponseSchema,
    errors: [409],
    run: async (api, { body, query, origin }) => {
      const { transfer, created } = await api.registerTransfer(wireBody(body), { ...waitOf(query), origin });
      return { kind: "json", status: 201, body: transfer, headers: { [CREATED_HEADER]: String(created) } };
    },
  },
  {
    operationId: "registerTransfers",
    method: "POST",
    path: "/v1/transfers/register-batch/",
    summary:
      `Registers up to ${MAX_BATCH_REGISTRATIONS.toLocaleString("en-US")} full transfers at once (beyond the published interface, ` +
      "for ingestion pipelines). Each item is answered in order with its own status: 201 with the transfer " +
      "(created now or known before, as the single registration) or the error the item alone would get. " +
      "The valid items are stored, together and durably, even when others are refused.",
    tag,
    status: 200,
    body: registerBatchSchema,
    bodyLimit: "batch",
    response: z
      .strictObject({ items: z.array(batchItemSchema) })
      .describe("One answer per item, in the order sent."),
    errors: [],
    run: async (api, { body, origin }) => {
      const { transfers } = parseInput(registerBatchEnvelope, body, "register-batch");
      const results = await api.registerTransfers(wireBody(transfers), { origin });
      return json({ items: results.map(batchItem) });
    },
  },
  {
    operationId: "registerAttempt",
    method: "POST",
    path: "/v1/transfers/register-attempt/",
    summary:
      "Registers a deposit or withdrawal attempt (the transaction hash is not known yet). " +
      "With `?wait=SECONDS`, answers once its checks are done, or at the end of the wait.",
    tag,
    status: 201,
    body: registerAttemptSchema,
    query: waitQuerySchema,
    response: transferResponseSchema,
    errors: [],
    run: async (api, { body, query, origin }) =>
      json(await api.registerAttempt(wireBody(body), { ...waitOf(query), origin }), 201),
  },
  {
    operationId: "listTransfers",
    method: "GET",
    path: "/v1/transfers/",
    summary: "The account's transfers, newest first.",
    tag,
    status: 200,
    query: transferListQuerySchema,
    response: transferPageSchema,
    errors: [],
    run: async (api, { query }) => json(await api.listTransfers(query)),
  },
  {
    operationId: "getTransfer",
    method: "GET",
    path: "/v1/transfers/{id}/",
    summary: "One transfer.",
    tag,
    status: 200,
    response: transferResponseSchema,
    errors: [404],
    run: async (api, { id }) => json(await api.getTransfer(id)),
  },
  {
    operationId: "bindTransaction",
    method: "POST",
    path: "/v1/transfers/{id}/bind-transaction/",
    summary: "Binds a transaction hash to an attempt (tx_status none -> binding).",
    tag,
    status: 200,
    body: bindTransactionSchema,
    response: transferResponseSchema,
    errors: [404, 409],
    run: async (api, { id, body, origin }) => json(await api.bindTransaction(id, wireBody(body), { origin })),
  },
  {
    operationId: "recheckCounterparty",
    method: "POST",
    path: "/v1/transfers/{id}/recheck-counterparty/",
    summary: "Queues a new counterparty (and sanctions) check of the transfer.",
    tag,
    status: 200,
    response: transferResponseSchema,
    errors: [404, 409],
    ...bodiless((api, { id, origin }) => api.recheckCounterparty(id, { origin })),
  },
  {
    operationId: "recheckExposure",
    method: "POST",
    path: "/v1/transfers/{id}/recheck-exposure/",
    summary: "Queues a new exposure check of a bound transfer.",
    tag,
    status: 200,
    response: transferResponseSchema,
    errors: [404, 409],
    ...bodiless((api, { id, origin }) => api.recheckExposure(id, { origin })),
  },
  {
    operationId: "getTransferExposure",
    method: "GET",
    path: "/v1/transfers/{id}/exposure/",
    summary: "The transfer's exposure (origin of funds for incoming, destination for outgoing).",
    tag,
    status: 200,
    response: transferExposureResponseSchema,
    errors: [404],
    run: async (api, { id }) => json(await api.getTransferExposure(id)),
  },
  {
    operationId: "getTransferCounterparty",
    method: "GET",
    path: "/v1/transfers/{id}/counterparty/",
    summary: "The transfer's counterparty as an address exposure.",
    tag,
    status: 200,
    response: addressExposureResponseSchema,
    errors: [404],
    run: async (api, { id }) => json(await api.getTransferCounterparty(id)),
  },
  {
    operationId: "getTransferRisks",
    method: "GET",
    path: "/v1/transfers/{id}/risks/",
    summary: "The transfer's detected risks (a bare array).",
    tag,
    status: 200,
    response: z.array(riskResponseSchema).describe("The detected risks."),
    errors: [404],
    run: async (api, { id }) => json(await api.getTransferRisks(id)),
  },
  pdfEndpoint("pdf", true),
  pdfEndpoint("pdf-report", true),
  pdfEndpoint("pdf-report-without-risks", false),
];
