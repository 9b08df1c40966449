/**
 * Request and response types of the client. Responses and request bodies come from core's
 * zod schemas (the wire input side of the request schemas); list queries are written out here,
 * their names kept equal to the server's query schemas by a test.
 */
import type {
  AlertWorkflowResponse,
  alertBulkUpdateSchema,
  alertUpdateSchema,
  backtestBodySchema,
  bindTransactionSchema,
  checkAddressSchema,
  checkTransferSchema,
  ErrorBody,
  ManualCheckResponse,
  registerAttemptSchema,
  registerTransferSchema,
  riskModelBodySchema,
  riskModelReplaceSchema,
  TransferResponse,
  TxStatus,
  WebhookEventType,
  webhookCreateSchema,
} from "@openkyt/core";

export type {
  AddressExposureResponse,
  AlertDetailResponse,
  AlertHistoryEntryResponse,
  AlertResponse,
  AlertWorkflowResponse,
  BacktestReportResponse,
  BacktestResponse,
  EntityCategoryInfoResponse,
  ErrorBody,
  ManualCheckResponse,
  NetworkInfoResponse,
  Page,
  RiskModelResponse,
  RiskModelVersionResponse,
  RiskResponse,
  TokenInfoResponse,
  TransferExposureResponse,
  TransferResponse,
  WebhookDeliveryResponse,
  WebhookEventType,
  WebhookResponse,
} from "@openkyt/core";

/** The wire (input) type of a zod schema, without importing zod. */
type WireInput<S> = S extends { _zod: { input: infer I } } ? I : never;

/** Body of POST /v1/transfers/register/. */
export type RegisterTransferBody = WireInput<typeof registerTransferSchema>;
/** One item of the answer of POST /v1/transfers/register-batch/, in the order sent. */
export type BatchRegistrationItem =
  | {
      readonly index: number;
      readonly status: 201;
      /** True when the transfer was created now, false when it was registered before. */
      readonly created: boolean;
      readonly transfer: TransferResponse;
    }
  | {
      readonly index: number;
      /** The status the item alone would have had (400, 404, 409). */
      readonly status: number;
      readonly error: ErrorBody;
    };
/** Body of POST /v1/transfers/register-attempt/. */
export type RegisterAttemptBody = WireInput<typeof registerAttemptSchema>;
/** Body of POST /v1/transfers/{id}/bind-transaction/. */
export type BindTransactionBody = WireInput<typeof bindTransactionSchema>;
/** Body of POST /v1/manual-checks/check-transfer/. */
export type CheckTransferBody = WireInput<typeof checkTransferSchema>;
/** Body of POST /v1/manual-checks/check-address/. */
export type CheckAddressBody = WireInput<typeof checkAddressSchema>;

/** Body of PATCH /v1/alerts/{id}/. */
export type AlertUpdateBody = WireInput<typeof alertUpdateSchema>;
/** Body of POST /v1/alerts/bulk-update/. */
export type AlertBulkUpdateBody = WireInput<typeof alertBulkUpdateSchema>;
/** Body of POST /v1/risk-models/. */
export type RiskModelBody = WireInput<typeof riskModelBodySchema>;
/** Body of PUT /v1/risk-models/{id}/: the new version and why (`change_reason`, required). */
export type RiskModelReplaceBody = WireInput<typeof riskModelReplaceSchema>;
/** Body of POST /v1/risk-models/{id}/backtest/. */
export type BacktestBody = WireInput<typeof backtestBodySchema>;
/** Body of POST /v1/webhooks/. */
export type WebhookCreateBody = WireInput<typeof webhookCreateSchema>;

/** Option of the four creation calls (register, register-attempt, check-transfer, check-address). */
export interface CreationOptions {
  /**
   * Seconds (0 to 30) the server may hold the request for the finished result (`?wait=`); the
   * in-progress object comes back when the checks do not finish in time.
   */
  readonly wait?: number;
}

/** The `data` of each webhook event type. */
export interface WebhookEventData {
  "transfer.checked": { transfer: TransferResponse };
  "transfer.status_changed": { transfer: TransferResponse; from: TxStatus };
  "alert.created": { alert: AlertWorkflowResponse };
  "alert.updated": { alert: AlertWorkflowResponse };
  "manual_check.completed": { manual_check: ManualCheckResponse };
  "webhook.test": { webhook_id: string; message: string };
}

/** The body OpenKYT POSTs to a webhook: `{id, type, created_at, data}`. */
export type WebhookEvent = {
  [K in WebhookEventType]: { id: string; type: K; created_at: string; data: WebhookEventData[K] };
}[WebhookEventType];

/** page and page_size. */
export interface PageParams {
  readonly page?: number;
  readonly page_size?: number;
}

/** Filters of GET /v1/transfers/. */
export const TRANSFER_FILTERS = [
  "client_id",
  "direction",
  "network",
  "token_id",
  "token_symbol",
  "tx_hash",
  "input_address",
  "output_address",
  "registered_from",
  "registered_to",
  "occurred_from",
  "occurred_to",
  "risk_level",
  "tx_status",
  "counterparty_name",
  "counterparty_category",
] as const;

/** Filters of GET /v1/alerts/ (the last three deprecated). */
export const ALERT_FILTERS = [
  "client_id",
  "risk_type",
  "risk_level",
  "alert_status",
  "created_from",
  "created_to",
  "occurred_from",
  "occurred_to",
  "network",
  "token_id",
  "token_symbol",
  "entity_category",
  "proximity",
  "type",
  "interaction",
  "status",
] as const;

/** Filters of GET /v1/basics/tokens/. */
export const TOKEN_FILTERS = ["network", "token_id"] as const;

/** Query of GET /v1/transfers/ (dates: YYYY-MM-DD, whole UTC days inclusive, or ISO datetimes). */
export type TransferListQuery = PageParams & Partial<Record<(typeof TRANSFER_FILTERS)[number], string>>;
/** Query of GET /v1/alerts/. */
export type AlertListQuery = PageParams & Partial<Record<(typeof ALERT_FILTERS)[number], string>>;
/** Query of GET /v1/basics/tokens/. */
export type TokenListQuery = PageParams & Partial<Record<(typeof TOKEN_FILTERS)[number], string>>;

/** A downloaded PDF report. */
export interface PdfReport {
  readonly bytes: Uint8Array;
  /** The file name from Content-Disposition, when given. */
  readonly fileName: string | null;
}

/** Options of the polling helpers. */
export interface WaitOptions {
  /** Give up after this long; default 60 s. */
  readonly timeoutMs?: number;
  /** Delay between polls; default 1 s. */
  readonly intervalMs?: number;
}
