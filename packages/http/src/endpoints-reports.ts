/**
 * Reports a regulator takes, beyond the published interface: the case file of an alert (PDF),
 * its goAML report (XML, schema 5.0.1, for the FIU of the configured profile), the CSV export of
 * the account's alerts with their decisions, and the report settings the console reads
 * (explorer links, whether goAML is configured). Static paths come before `{id}` paths.
 */
import {
  addressProfileQuerySchema,
  addressProfileResponseSchema,
  alertListQuerySchema,
  explorersInForce,
  KytError,
} from "@openkyt/core";
import { alertsCsv } from "./alerts-csv.js";
import { type Endpoint, file, json, pdf } from "./endpoint-types.js";
import { GOAML_SCHEMA_VERSION, goamlReport } from "./goaml-report.js";
import { reportSettingsResponseSchema } from "./report-settings.js";

/** Why a goAML export is refused on a server without a profile. */
export const NO_GOAML_PROFILE =
  "goAML exports need the FIU profile: give `goaml` in the reports configuration (openkyt serve --reports-config FILE; docs/reports.md)";

/** A file name part from a timestamp: 2026-11-27T23-30-00Z. */
const stamp = (ms: number) => new Date(ms).toISOString().slice(0, 19).replaceAll(":", "-");

/** The report endpoints. */
export const REPORT_ENDPOINTS: ReadonlyArray<Endpoint> = [
  {
    operationId: "getReportSettings",
    method: "GET",
    path: "/v1/basics/report-settings/",
    summary:
      "The block explorer URL templates per network (the server's, with the account's own from " +
      "PUT /v1/explorer-settings/ over them), and whether goAML exports are configured.",
    tag: "basics",
    status: 200,
    response: reportSettingsResponseSchema,
    errors: [],
    run: async (api, { settings }) =>
      json({
        explorers: explorersInForce(settings.explorers, await api.explorers.own()),
        goaml_configured: settings.goaml !== null,
      }),
  },
  {
    operationId: "exportAlerts",
    method: "GET",
    path: "/v1/alerts/export/",
    summary:
      "Every alert that matches the filters of GET /v1/alerts/ (page fields ignored; at most 10,000), newest first, as CSV: the alert, its transfer, its assignee, the decision and the comments.",
    tag: "alerts",
    status: 200,
    query: alertListQuerySchema,
    response: "csv",
    errors: [],
    run: async (api, { query }) =>
      file(
        "text/csv; charset=utf-8",
        `openkyt-alerts-${stamp(Date.now())}.csv`,
        alertsCsv(await api.exportAlerts(query)),
      ),
  },
  {
    operationId: "getAlertCaseFile",
    method: "GET",
    path: "/v1/alerts/{id}/case-file/",
    summary:
      "The case file of an alert as a PDF: the transfer, the findings with their paths and the listings on them, the transfer's alerts, the decision, and the history with its comments.",
    tag: "alerts",
    status: 200,
    response: "pdf",
    errors: [404, 503],
    run: async (api, { id }) => pdf(await api.caseFileReport(id)),
  },
  {
    operationId: "getAlertGoaml",
    method: "GET",
    path: "/v1/alerts/{id}/goaml/",
    summary: `The case of an alert as a goAML report (XML, schema ${GOAML_SCHEMA_VERSION}) for the FIU of the configured profile; 503 when no profile is configured.`,
    tag: "alerts",
    status: 200,
    response: "xml",
    errors: [404, 503],
    run: async (api, { id, settings }) => {
      const data = await api.caseFile(id);
      if (settings.goaml === null) throw new KytError("NOT_CONFIGURED", NO_GOAML_PROFILE);
      const now = Date.now();
      return file(
        "application/xml; charset=utf-8",
        `openkyt-goaml-${data.alert.id}.xml`,
        goamlReport(data, settings.goaml, now),
      );
    },
  },
];

/** The address page's endpoint (static paths of /v1/addresses/ have none to precede). */
export const ADDRESS_ENDPOINTS: ReadonlyArray<Endpoint> = [
  {
    operationId: "getAddressProfile",
    method: "GET",
    path: "/v1/addresses/{id}/",
    summary:
      "What the account knows of an address of `network`: its entity, sanctions listings and cluster (UTXO), and the account's transfers, alerts and manual checks that touch it.",
    tag: "basics",
    status: 200,
    query: addressProfileQuerySchema,
    response: addressProfileResponseSchema,
    errors: [],
    run: async (api, { id, query }) => json(await api.addressProfile(query.network ?? "", id)),
  },
];
