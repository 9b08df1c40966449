/**
 * `createKytClient`: a typed method for every endpoint of the KYT interface and of OpenKYT's
 * additions (alert workflow, risk models, webhooks), signing each request as the interface says. Errors are {@link KytHttpError}s carrying status, code, detail
 * and field errors.
 */
import type {
  AddressExposureResponse,
  AlertDetailResponse,
  AlertResponse,
  EntityCategoryInfoResponse,
  ManualCheckResponse,
  NetworkInfoResponse,
  Page,
  RiskResponse,
  TokenInfoResponse,
  TransferExposureResponse,
  TransferResponse,
} from "@openkyt/core";
import { eachItem } from "./client-pagination.js";
import { manualCheckSettled, pollUntil, transferSettled } from "./client-polling.js";
import { type Answer, createTransport, type SendOptions, type TransportOptions } from "./client-transport.js";
import type {
  AlertListQuery,
  BatchRegistrationItem,
  BindTransactionBody,
  CheckAddressBody,
  CheckTransferBody,
  CreationOptions,
  PageParams,
  PdfReport,
  RegisterAttemptBody,
  RegisterTransferBody,
  TokenListQuery,
  TransferListQuery,
  WaitOptions,
} from "./client-types.js";
import { workflowMethods } from "./kyt-client-workflow.js";

/** Options of {@link createKytClient}. */
export type KytClientOptions = TransportOptions;

const seg = (id: string) => encodeURIComponent(id);

function fileNameOf(headers: Headers): string | null {
  const match = /filename="?([^";]+)"?/i.exec(headers.get("content-disposition") ?? "");
  return match?.[1] ?? null;
}

/** Creates a client for one API key. */
export function createKytClient(options: KytClientOptions) {
  const t = createTransport(options);
  const get = async <T>(path: string, query?: object) => (await t.send<T>("GET", path, { query })).body;
  const post = async <T>(path: string, body?: unknown, options: CreationOptions = {}) =>
    (await t.send<T>("POST", path, { body, query: { wait: options.wait } })).body;
  const report = async (path: string): Promise<PdfReport> => {
    const answer = await t.bytes(path);
    return { bytes: answer.body, fileName: fileNameOf(answer.headers) };
  };

  const client = {
    /** Any signed request, with status and headers (for what the typed methods do not cover). */
    send<T>(method: string, path: string, send?: SendOptions): Promise<Answer<T>> {
      return t.send<T>(method, path, send);
    },

    /** POST /v1/transfers/register/ (201; an already registered transfer comes back as it is). */
    registerTransfer: (body: RegisterTransferBody, options?: CreationOptions) =>
      post<TransferResponse>("/v1/transfers/register/", body, options),
    /**
     * POST /v1/transfers/register-batch/: up to 1,000 registrations in one request, answered
     * item by item in order; the valid items are stored even when others are refused.
     */
    registerTransfers: async (transfers: ReadonlyArray<RegisterTransferBody>) =>
      (await post<{ items: BatchRegistrationItem[] }>("/v1/transfers/register-batch/", { transfers })).items,
    /** POST /v1/transfers/register-attempt/ (201). */
    registerAttempt: (body: RegisterAttemptBody, options?: CreationOptions) =>
      post<TransferResponse>("/v1/transfers/register-attempt/", body, options),
    /** POST /v1/transfers/{id}/bind-transaction/ */
    bindTransaction: (id: string, body: BindTransactionBody) =>
      post<TransferResponse>(`/v1/transfers/${seg(id)}/bind-transaction/`, body),
    /** POST /v1/transfers/{id}/recheck-counterparty/ */
    recheckCounterparty: (id: string) =>
      post<TransferResponse>(`/v1/transfers/${seg(id)}/recheck-counterparty/`),
    /** POST /v1/transfers/{id}/recheck-exposure/ */
    recheckExposure: (id: string) => post<TransferResponse>(`/v1/transfers/${seg(id)}/recheck-exposure/`),
    /** GET /v1/transfers/{id}/ */
    getTransfer: (id: string) => get<TransferResponse>(`/v1/transfers/${seg(id)}/`),
    /** GET /v1/transfers/ */
    listTransfers: (query: TransferListQuery = {}) => get<Page<TransferResponse>>("/v1/transfers/", query),
    /** Every transfer matching the query, across pages. */
    eachTransfer: (query: TransferListQuery = {}) => eachItem(client.listTransfers, query),
    /** GET /v1/transfers/{id}/exposure/ */
    getTransferExposure: (id: string) => get<TransferExposureResponse>(`/v1/transfers/${seg(id)}/exposure/`),
    /** GET /v1/transfers/{id}/counterparty/ */
    getTransferCounterparty: (id: string) =>
      get<AddressExposureResponse>(`/v1/transfers/${seg(id)}/counterparty/`),
    /** GET /v1/transfers/{id}/risks/ (a bare array). */
    getTransferRisks: (id: string) => get<RiskResponse[]>(`/v1/transfers/${seg(id)}/risks/`),
    /** GET /v1/transfers/{id}/pdf-report/ (or /pdf/), or -without-risks/. */
    transferReport: (id: string, opts: { withRisks?: boolean; path?: "pdf" | "pdf-report" } = {}) =>
      report(
        `/v1/transfers/${seg(id)}/${opts.withRisks === false ? "pdf-report-without-risks" : (opts.path ?? "pdf-report")}/`,
      ),
    /** Polls a transfer until it is no longer binding and no check is queued or checking. */
    waitUntilChecked: (id: string, wait?: WaitOptions) =>
      pollUntil(`transfer ${id}`, () => client.getTransfer(id), transferSettled, wait),

    /** POST /v1/manual-checks/check-transfer/ (200). */
    checkTransfer: (body: CheckTransferBody, options?: CreationOptions) =>
      post<ManualCheckResponse>("/v1/manual-checks/check-transfer/", body, options),
    /** POST /v1/manual-checks/check-address/ (200). */
    checkAddress: (body: CheckAddressBody, options?: CreationOptions) =>
      post<ManualCheckResponse>("/v1/manual-checks/check-address/", body, options),
    /** GET /v1/manual-checks/{id}/ */
    getManualCheck: (id: string) => get<ManualCheckResponse>(`/v1/manual-checks/${seg(id)}/`),
    /** GET /v1/manual-checks/ */
    listManualChecks: (query: PageParams = {}) => get<Page<ManualCheckResponse>>("/v1/manual-checks/", query),
    /** Every manual check, across pages. */
    eachManualCheck: (query: PageParams = {}) => eachItem(client.listManualChecks, query),
    /** GET /v1/manual-checks/{id}/risks/ (a bare array). */
    getManualCheckRisks: (id: string) => get<RiskResponse[]>(`/v1/manual-checks/${seg(id)}/risks/`),
    /** GET /v1/manual-checks/{id}/transfer-exposure/ */
    getManualCheckTransferExposure: (id: string) =>
      get<TransferExposureResponse>(`/v1/manual-checks/${seg(id)}/transfer-exposure/`),
    /** GET /v1/manual-checks/{id}/address-exposure/ */
    getManualCheckAddressExposure: (id: string) =>
      get<AddressExposureResponse>(`/v1/manual-checks/${seg(id)}/address-exposure/`),
    /** GET /v1/manual-checks/{id}/pdf-report/, or -without-risks/. */
    manualCheckReport: (id: string, opts: { withRisks?: boolean } = {}) =>
      report(
        `/v1/manual-checks/${seg(id)}/${opts.withRisks === false ? "pdf-report-without-risks" : "pdf-report"}/`,
      ),
    /**
     * GET /v1/backtests/{id}/report/: the PDF report of a done backtest (409 while it is queued or
     * running, or when it ended in error).
     */
    backtestReport: (id: string) => report(`/v1/backtests/${seg(id)}/report/`),
    /** Polls a manual check until it is checked or in error. */
    waitForManualCheck: (id: string, wait?: WaitOptions) =>
      pollUntil(`manual check ${id}`, () => client.getManualCheck(id), manualCheckSettled, wait),

    /** GET /v1/alerts/ */
    listAlerts: (query: AlertListQuery = {}) => get<Page<AlertResponse>>("/v1/alerts/", query),
    /** Every alert matching the query, across pages. */
    eachAlert: (query: AlertListQuery = {}) => eachItem(client.listAlerts, query),
    /** GET /v1/alerts/{id}/ */
    getAlert: (id: string) => get<AlertDetailResponse>(`/v1/alerts/${seg(id)}/`),

    /** GET /v1/basics/networks/ */
    listNetworks: (query: PageParams = {}) => get<Page<NetworkInfoResponse>>("/v1/basics/networks/", query),
    /** GET /v1/basics/tokens/ */
    listTokens: (query: TokenListQuery = {}) => get<Page<TokenInfoResponse>>("/v1/basics/tokens/", query),
    /** GET /v1/basics/entity-categories/ */
    listEntityCategories: (query: PageParams = {}) =>
      get<Page<EntityCategoryInfoResponse>>("/v1/basics/entity-categories/", query),

    ...workflowMethods(t),
  };
  return Object.freeze(client);
}

/** A KYT client. */
export type KytClient = ReturnType<typeof createKytClient>;
