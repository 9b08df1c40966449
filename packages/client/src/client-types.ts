/**
 * Request and response types of the client. Responses and request bodies come from core's
 * zod schemas (the wire input side of the request schemas); list queries are written out here,
 * their names kept equal to the server's query schemas by a test.
 */
import type {
  bindTransactionSchema,
  checkAddressSchema,
  checkTransferSchema,
  registerAttemptSchema,
  registerTransferSchema,
} from "@openkyt/core";

export type {
  AddressExposureResponse,
  AlertDetailResponse,
  AlertResponse,
  EntityCategoryInfoResponse,
  ErrorBody,
  ManualCheckResponse,
  NetworkInfoResponse,
  Page,
  RiskResponse,
  TokenInfoResponse,
  TransferExposureResponse,
  TransferResponse,
} from "@openkyt/core";

/** The wire (input) type of a zod schema, without importing zod. */
type WireInput<S> = S extends { _zod: { input: infer I } } ? I : never;

/** Body of POST /v1/transfers/register/. */
export type RegisterTransferBody = WireInput<typeof registerTransferSchema>;
/** Body of POST /v1/transfers/register-attempt/. */
export type RegisterAttemptBody = WireInput<typeof registerAttemptSchema>;
/** Body of POST /v1/transfers/{id}/bind-transaction/. */
export type BindTransactionBody = WireInput<typeof bindTransactionSchema>;
/** Body of POST /v1/manual-checks/check-transfer/. */
export type CheckTransferBody = WireInput<typeof checkTransferSchema>;
/** Body of POST /v1/manual-checks/check-address/. */
export type CheckAddressBody = WireInput<typeof checkAddressSchema>;

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
