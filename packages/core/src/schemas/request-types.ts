/**
 * What a program passes to the engine's operations in process (`engine.forAccount(id)`): the
 * published request bodies and list queries, snake_case as on the wire, typed from the same
 * zod schemas that validate them (`z.input`), so the types cannot drift from the checks. The
 * operations still validate at run time, exactly as over HTTP; the camelCase `...Input` types
 * beside the schemas are what validation produces, internal to the engine.
 */
import type { z } from "zod";
import type { backtestBodySchema, backtestRunSchema } from "./backtest-schemas.js";
import type { pageQuerySchema, tokenListQuerySchema, transferListQuerySchema } from "./queries.js";
import type { alertListQuerySchema } from "./queries-alerts.js";
import type { bindTransactionSchema, registerAttemptSchema, registerTransferSchema } from "./requests.js";
import type { checkAddressSchema, checkTransferSchema } from "./requests-manual-checks.js";
import type {
  alertBulkUpdateSchema,
  alertUpdateSchema,
  riskModelBodySchema,
  riskModelReplaceSchema,
  webhookCreateSchema,
  webhookRedeliverSchema,
} from "./requests-workflow.js";

/** Body of POST /v1/transfers/register/ (`registerTransfer`; each item of `registerTransfers`). */
export type RegisterTransferRequest = z.input<typeof registerTransferSchema>;
/** Body of POST /v1/transfers/register-attempt/ (`registerAttempt`). */
export type RegisterAttemptRequest = z.input<typeof registerAttemptSchema>;
/** Body of POST /v1/transfers/{id}/bind-transaction/ (`bindTransaction`). */
export type BindTransactionRequest = z.input<typeof bindTransactionSchema>;
/** Body of POST /v1/manual-checks/check-transfer/ (`checkTransfer`). */
export type CheckTransferRequest = z.input<typeof checkTransferSchema>;
/** Body of POST /v1/manual-checks/check-address/ (`checkAddress`). */
export type CheckAddressRequest = z.input<typeof checkAddressSchema>;
/** Body of PATCH /v1/alerts/{id}/ (`updateAlert`). */
export type AlertUpdateRequest = z.input<typeof alertUpdateSchema>;
/** Body of POST /v1/alerts/bulk-update/ (`bulkUpdateAlerts`). */
export type AlertBulkUpdateRequest = z.input<typeof alertBulkUpdateSchema>;
/** Body of POST /v1/risk-models/ (`riskModels.create`). */
export type RiskModelRequest = z.input<typeof riskModelBodySchema>;
/** Body of PUT /v1/risk-models/{id}/ (`riskModels.replace`): a new version and why. */
export type RiskModelReplaceRequest = z.input<typeof riskModelReplaceSchema>;
/** Body of POST /v1/webhooks/ (`webhooks.create`). */
export type WebhookCreateRequest = z.input<typeof webhookCreateSchema>;
/** The body of POST /v1/webhooks/{id}/redeliver/. */
export type WebhookRedeliverRequest = z.input<typeof webhookRedeliverSchema>;
/** Body of POST /v1/risk-models/{id}/backtest/ (`backtests.start`). */
export type BacktestStartRequest = z.input<typeof backtestBodySchema>;
/** An in-process backtest (`backtests.run`): the window and filters, and the model by id or as rules. */
export type BacktestRunRequest = Omit<z.input<typeof backtestRunSchema>, "model"> & {
  readonly model: string | RiskModelRequest;
};

/** page (from 1) and page_size (1 to 100): numbers, or their text as in a query string. */
export interface PageParams {
  readonly page?: number | string;
  readonly page_size?: number | string;
}

/** A list query's parameters: its filters as the schema takes them, and the page. */
type ListParams<S extends { readonly out: z.ZodType }> = Omit<z.input<S["out"]>, "page" | "page_size"> &
  PageParams;

/** Query of GET /v1/transfers/ (`listTransfers`, e.g. `{ tx_status: "binding", page_size: 100 }`). */
export type TransferListParams = ListParams<typeof transferListQuerySchema>;
/** Query of GET /v1/alerts/ (`listAlerts`). */
export type AlertListParams = ListParams<typeof alertListQuerySchema>;
/** Query of GET /v1/basics/tokens/ (`listTokens`). */
export type TokenListParams = ListParams<typeof tokenListQuerySchema>;
/** Query of the plain paginated lists (manual checks, networks, entity categories, deliveries). */
export type PageListParams = ListParams<typeof pageQuerySchema>;
