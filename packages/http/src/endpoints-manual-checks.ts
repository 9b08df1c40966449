/** The manual-check endpoints: creation, reads, exposures, risks and PDF reports. */
import {
  addressExposureResponseSchema,
  checkAddressSchema,
  checkTransferSchema,
  manualCheckListQuerySchema,
  manualCheckPageSchema,
  manualCheckResponseSchema,
  riskResponseSchema,
  transferExposureResponseSchema,
} from "@openkyt/core";
import { z } from "zod";
import { type Endpoint, json, pdf, waitOf, waitQuerySchema, wireBody } from "./endpoint-types.js";

const tag = "manual-checks" as const;

const pdfEndpoint = (segment: string, withRisks: boolean): Endpoint => ({
  operationId: `manualCheckReport_${segment.replaceAll("-", "_")}`,
  method: "GET",
  path: `/v1/manual-checks/{id}/${segment}/`,
  summary: withRisks
    ? "PDF report of a manual check."
    : "PDF report of a manual check without the list of detected risks.",
  tag,
  status: 200,
  response: "pdf",
  errors: [404, 503],
  run: async (api, { id }) => pdf(await api.manualCheckReport(id, { withRisks })),
});

/** The manual-check endpoints, static paths first. */
export const MANUAL_CHECK_ENDPOINTS: ReadonlyArray<Endpoint> = [
  {
    operationId: "checkTransfer",
    method: "POST",
    path: "/v1/manual-checks/check-transfer/",
    summary:
      "Creates a manual check of one transfer (check_status checking). " +
      "With `?wait=SECONDS`, answers once it is checked (or in error), or at the end of the wait.",
    tag,
    status: 200,
    body: checkTransferSchema,
    query: waitQuerySchema,
    response: manualCheckResponseSchema,
    errors: [],
    run: async (api, { body, query, origin }) =>
      json(await api.checkTransfer(wireBody(body), { ...waitOf(query), origin })),
  },
  {
    operationId: "checkAddress",
    method: "POST",
    path: "/v1/manual-checks/check-address/",
    summary:
      "Creates a manual check of one address (check_status checking). " +
      "With `?wait=SECONDS`, answers once it is checked (or in error), or at the end of the wait.",
    tag,
    status: 200,
    body: checkAddressSchema,
    query: waitQuerySchema,
    response: manualCheckResponseSchema,
    errors: [],
    run: async (api, { body, query, origin }) =>
      json(await api.checkAddress(wireBody(body), { ...waitOf(query), origin })),
  },
  {
    operationId: "listManualChecks",
    method: "GET",
    path: "/v1/manual-checks/",
    summary: "The account's manual checks, newest first.",
    tag,
    status: 200,
    query: manualCheckListQuerySchema,
    response: manualCheckPageSchema,
    errors: [],
    run: async (api, { query }) => json(await api.listManualChecks(query)),
  },
  {
    operationId: "getManualCheck",
    method: "GET",
    path: "/v1/manual-checks/{id}/",
    summary: "One manual check.",
    tag,
    status: 200,
    response: manualCheckResponseSchema,
    errors: [404],
    run: async (api, { id }) => json(await api.getManualCheck(id)),
  },
  {
    operationId: "getManualCheckRisks",
    method: "GET",
    path: "/v1/manual-checks/{id}/risks/",
    summary: "The manual check's detected risks (a bare array).",
    tag,
    status: 200,
    response: z.array(riskResponseSchema).describe("The detected risks."),
    errors: [404],
    run: async (api, { id }) => json(await api.getManualCheckRisks(id)),
  },
  {
    operationId: "getManualCheckTransferExposure",
    method: "GET",
    path: "/v1/manual-checks/{id}/transfer-exposure/",
    summary: "The exposure of a transfer check's transfer (404 for address checks).",
    tag,
    status: 200,
    response: transferExposureResponseSchema,
    errors: [404],
    run: async (api, { id }) => json(await api.getManualCheckTransferExposure(id)),
  },
  {
    operationId: "getManualCheckAddressExposure",
    method: "GET",
    path: "/v1/manual-checks/{id}/address-exposure/",
    summary: "The address exposure: the checked address, or the transfer's counterparty.",
    tag,
    status: 200,
    response: addressExposureResponseSchema,
    errors: [404],
    run: async (api, { id }) => json(await api.getManualCheckAddressExposure(id)),
  },
  pdfEndpoint("pdf-report", true),
  pdfEndpoint("pdf-report-without-risks", false),
];
