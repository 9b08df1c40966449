/** The transfer endpoints: register, attempts, binding, rechecks, reads and PDF reports. */
import {
  addressExposureResponseSchema,
  bindTransactionSchema,
  registerAttemptSchema,
  registerTransferSchema,
  riskResponseSchema,
  transferExposureResponseSchema,
  transferListQuerySchema,
  transferPageSchema,
  transferResponseSchema,
} from "@openkyt/core";
import { z } from "zod";
import {
  type Endpoint,
  expectNoBody,
  json,
  noBodySchema,
  pdf,
  waitOf,
  waitQuerySchema,
} from "./endpoint-types.js";

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
    run: async (api, { body, query }) => {
      const { transfer, created } = await api.registerTransfer(body, waitOf(query));
      return { kind: "json", status: 201, body: transfer, headers: { [CREATED_HEADER]: String(created) } };
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
    run: async (api, { body, query }) => json(await api.registerAttempt(body, waitOf(query)), 201),
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
    run: async (api, { id, body }) => json(await api.bindTransaction(id, body)),
  },
  {
    operationId: "recheckCounterparty",
    method: "POST",
    path: "/v1/transfers/{id}/recheck-counterparty/",
    summary: "Queues a new counterparty (and sanctions) check of the transfer.",
    tag,
    status: 200,
    body: noBodySchema,
    response: transferResponseSchema,
    errors: [404, 409],
    run: async (api, { id, body }) => {
      expectNoBody(body);
      return json(await api.recheckCounterparty(id));
    },
  },
  {
    operationId: "recheckExposure",
    method: "POST",
    path: "/v1/transfers/{id}/recheck-exposure/",
    summary: "Queues a new exposure check of a bound transfer.",
    tag,
    status: 200,
    body: noBodySchema,
    response: transferResponseSchema,
    errors: [404, 409],
    run: async (api, { id, body }) => {
      expectNoBody(body);
      return json(await api.recheckExposure(id));
    },
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
