/**
 * The client methods of the additions beyond the published interface: the alert workflow,
 * risk-model management and backtests, and webhooks.
 */
import type {
  AlertHistoryEntryResponse,
  AlertWorkflowResponse,
  BacktestResponse,
  Page,
  RiskModelResponse,
  RiskModelVersionResponse,
  WebhookDeliveryResponse,
  WebhookResponse,
} from "@openkyt/core";
import { eachItem } from "./client-pagination.js";
import type { Transport } from "./client-transport.js";
import type {
  AlertBulkUpdateBody,
  AlertUpdateBody,
  BacktestBody,
  PageParams,
  RiskModelBody,
  RiskModelReplaceBody,
  WebhookCreateBody,
} from "./client-types.js";

/** The answer of a DELETE. */
export interface Deleted {
  readonly id: string;
  readonly deleted: true;
}

const seg = (id: string) => encodeURIComponent(id);

/** The workflow, risk-model and webhook methods over a transport. */
export function workflowMethods(t: Transport) {
  const call = async <T>(method: string, path: string, body?: unknown, query?: object) =>
    (await t.send<T>(method, path, { body, query })).body;
  const methods = {
    /** PATCH /v1/alerts/{id}/: status (409 with `allowed` when the machine refuses), assignee, comment. */
    updateAlert: (id: string, body: AlertUpdateBody) =>
      call<AlertWorkflowResponse>("PATCH", `/v1/alerts/${seg(id)}/`, body),
    /** POST /v1/alerts/bulk-update/: the same status change for every alert named, or for none. */
    bulkUpdateAlerts: (body: AlertBulkUpdateBody) =>
      call<AlertWorkflowResponse[]>("POST", "/v1/alerts/bulk-update/", body),
    /** GET /v1/alerts/{id}/history/: every change, oldest first. */
    alertHistory: (id: string) => call<AlertHistoryEntryResponse[]>("GET", `/v1/alerts/${seg(id)}/history/`),

    /** GET /v1/risk-models/: the built-in model, then the account's. */
    listRiskModels: () => call<RiskModelResponse[]>("GET", "/v1/risk-models/"),
    /** POST /v1/risk-models/ (201): from rules, or `copy_from` another model ("default"). */
    createRiskModel: (body: RiskModelBody) => call<RiskModelResponse>("POST", "/v1/risk-models/", body),
    /** GET /v1/risk-models/{id}/ */
    getRiskModel: (id: string) => call<RiskModelResponse>("GET", `/v1/risk-models/${seg(id)}/`),
    /** PUT /v1/risk-models/{id}/: a new version, with its `change_reason` (the built-in model is a 409). */
    replaceRiskModel: (id: string, body: RiskModelReplaceBody) =>
      call<RiskModelResponse>("PUT", `/v1/risk-models/${seg(id)}/`, body),
    /** GET /v1/risk-models/{id}/versions/: every version, newest first, with its reason and diff. */
    riskModelVersions: (id: string) =>
      call<RiskModelVersionResponse[]>("GET", `/v1/risk-models/${seg(id)}/versions/`),
    /** DELETE /v1/risk-models/{id}/ */
    deleteRiskModel: (id: string) => call<Deleted>("DELETE", `/v1/risk-models/${seg(id)}/`),
    /** POST /v1/risk-models/{id}/backtest/ (201): starts a backtest of the model; poll `getBacktest`. */
    backtestRiskModel: (id: string, body: BacktestBody) =>
      call<BacktestResponse>("POST", `/v1/risk-models/${seg(id)}/backtest/`, body),
    /** GET /v1/backtests/{id}/: progress, then the report (`status` done) or the reason (`error`). */
    getBacktest: (id: string) => call<BacktestResponse>("GET", `/v1/backtests/${seg(id)}/`),

    /** POST /v1/webhooks/ (201): the answer's `secret` is shown this once. */
    createWebhook: (body: WebhookCreateBody) => call<WebhookResponse>("POST", "/v1/webhooks/", body),
    /** GET /v1/webhooks/ */
    listWebhooks: () => call<WebhookResponse[]>("GET", "/v1/webhooks/"),
    /** GET /v1/webhooks/{id}/ */
    getWebhook: (id: string) => call<WebhookResponse>("GET", `/v1/webhooks/${seg(id)}/`),
    /** DELETE /v1/webhooks/{id}/ */
    deleteWebhook: (id: string) => call<Deleted>("DELETE", `/v1/webhooks/${seg(id)}/`),
    /** POST /v1/webhooks/{id}/resume/: a paused webhook is `active` again. */
    resumeWebhook: (id: string) => call<WebhookResponse>("POST", `/v1/webhooks/${seg(id)}/resume/`),
    /** GET /v1/webhooks/{id}/deliveries/: every attempt, newest first. */
    listWebhookDeliveries: (id: string, query: PageParams = {}) =>
      call<Page<WebhookDeliveryResponse>>("GET", `/v1/webhooks/${seg(id)}/deliveries/`, undefined, query),
    /** Every delivery attempt of a webhook, across pages. */
    eachWebhookDelivery: (id: string, query: PageParams = {}) =>
      eachItem((q: PageParams) => methods.listWebhookDeliveries(id, q), query),
  };
  return methods;
}
