/**
 * Every operation of the KYT interface for one account, taking the interface's request
 * bodies (typed: `RegisterTransferRequest` and its siblings, request-types.ts; validated at run
 * time all the same) and returning its response objects. The HTTP adapter is a thin layer over this: it
 * builds an account's operations once and gives each call that enqueues work the request it
 * serves (`{ origin }`, call-origin.ts).
 */

import { ENTITY_CATEGORIES } from "../../domain/entity-categories.js";
import { NETWORKS } from "../../domain/networks.js";
import type { ManualCheckRecord, TransferRecord } from "../../domain/records.js";
import { KytError, notFound } from "../../errors.js";
import {
  alertListQuerySchema,
  lookupId,
  manualCheckListQuerySchema,
  pageQuerySchema,
  parseInput,
  presentAddressExposure,
  presentAlert,
  presentAlertHistoryEntry,
  presentEntityCategory,
  presentManualCheck,
  presentNetwork,
  presentPage,
  presentRisk,
  presentToken,
  presentTransfer,
  presentTransferExposure,
  textProblem,
  tokenListQuerySchema,
} from "../../schemas/index.js";
import type {
  AlertBulkUpdateRequest,
  AlertListParams,
  AlertUpdateRequest,
  BindTransactionRequest,
  CheckAddressRequest,
  CheckTransferRequest,
  PageListParams,
  RegisterAttemptRequest,
  RegisterTransferRequest,
  TokenListParams,
  TransferListParams,
} from "../../schemas/request-types.js";
import { presentPathSanctions, presentScreeningDetails } from "../../schemas/sanctions-details.js";
import { caseworkApi } from "../casework/casework-api.js";
import type { EngineContext } from "../engine-context.js";
import { addressProfile } from "./address-profile.js";
import { exportAlerts } from "./alert-export.js";
import { type Actor, alertHistory, bulkUpdateAlerts, updateAlert } from "./alert-workflow.js";
import { backtestRuns } from "./backtest-runs.js";
import { type CallOptions, callContext } from "./call-origin.js";
import { caseFileData, caseFileReport } from "./case-file.js";
import { explorerSettingsApi } from "./explorer-settings.js";
import { checkAddress, checkTransfer, loadManualCheck, manualCheckState } from "./manual-check-use-cases.js";
import { pathSanctions } from "./path-sanctions.js";
import { manualCheckReport, transferReport } from "./report-assembly.js";
import { modelApprovalApi } from "./risk-model-approval.js";
import { riskModelManagement } from "./risk-model-management.js";
import {
  listTransfers,
  loadTransferSummary,
  recheckCounterparty,
  recheckExposure,
} from "./transfer-reads.js";
import {
  bindTransaction,
  loadTransfer,
  registerAttempt,
  registerTransfer,
  registerTransfers,
} from "./transfer-registration.js";
import {
  manualCheckSettled,
  transferSettled,
  type WaitOptions,
  waitBudget,
  waitUntil,
} from "./wait-for-result.js";
import { webhookManagement } from "./webhook-management.js";

/** A slice of a static table as a page. */
function pageOf<T, W>(rows: ReadonlyArray<T>, query: unknown, present: (row: T) => W) {
  const q = parseInput(pageQuerySchema, query, "page query");
  const start = (q.page - 1) * q.pageSize;
  return presentPage(rows.slice(start, start + q.pageSize).map(present), rows.length, q);
}

/** What the path sanctions lookup reads of a transfer. */
export function transferPathSubject(t: TransferRecord, now: number) {
  return {
    exposure: t.exposure,
    counterpartyExposure: t.counterparty?.exposure ?? null,
    from: t.occurredAt ?? t.registeredAt,
    to: t.checks.exposure.at ?? now,
    counterparty: t.sanctions?.address ?? t.counterparty?.address ?? null,
  };
}

/** Builds the operations of one account. */
export function accountApi(ctx: EngineContext, accountId: string) {
  if (typeof accountId !== "string" || accountId.length === 0) {
    throw new KytError("VALIDATION_ERROR", "accountId must be a non-empty string");
  }
  const accountProblem = textProblem(accountId);
  if (accountProblem !== null) throw new KytError("VALIDATION_ERROR", `accountId ${accountProblem}`);
  const waitForTransfer = (t: TransferRecord, ms: number) =>
    waitUntil(ctx, ms, () => loadTransfer(ctx.store, accountId, t.id), transferSettled, t);
  const waitForCheck = (c: ManualCheckRecord, ms: number) =>
    waitUntil(ctx, ms, () => loadManualCheck(ctx.store, accountId, c.id), manualCheckSettled, c);
  return Object.freeze({
    /** POST /v1/transfers/register/: the transfer, and whether it was created now or already known. */
    async registerTransfer(body: RegisterTransferRequest, options?: WaitOptions & CallOptions) {
      const ms = waitBudget(ctx, options);
      const { transfer, created } = await registerTransfer(callContext(ctx, options), accountId, body);
      if (created) ctx.events.emit("transfer.registered", transfer);
      ctx.wake();
      const final = await waitForTransfer(transfer, ms);
      return { transfer: presentTransfer(final), created };
    },
    /**
     * POST /v1/transfers/register-batch/: up to 1,000 registrations at once, answered item by
     * item in order (the transfer and whether it was created now, or why the item was refused);
     * the valid ones are durable when this resolves, even when others were refused.
     */
    async registerTransfers(bodies: ReadonlyArray<RegisterTransferRequest>, options?: CallOptions) {
      const results = await registerTransfers(callContext(ctx, options), accountId, bodies);
      for (const r of results) if (r.ok && r.created) ctx.events.emit("transfer.registered", r.transfer);
      ctx.wake();
      return results.map((r) =>
        r.ok
          ? { ok: true as const, created: r.created, transfer: presentTransfer(r.transfer) }
          : { ok: false as const, error: r.error },
      );
    },
    /** POST /v1/transfers/register-attempt/ */
    async registerAttempt(body: RegisterAttemptRequest, options?: WaitOptions & CallOptions) {
      const ms = waitBudget(ctx, options);
      const transfer = await registerAttempt(callContext(ctx, options), accountId, body);
      ctx.events.emit("transfer.registered", transfer);
      ctx.wake();
      return presentTransfer(await waitForTransfer(transfer, ms));
    },
    /** POST /v1/transfers/{id}/bind-transaction/ */
    async bindTransaction(id: string, body: BindTransactionRequest, options?: CallOptions) {
      const transfer = await bindTransaction(callContext(ctx, options), accountId, id, body);
      ctx.events.emit("transfer.status_changed", transfer, "none");
      ctx.wake();
      return presentTransfer(transfer);
    },
    /** POST /v1/transfers/{id}/recheck-counterparty/ */
    async recheckCounterparty(id: string, options?: CallOptions) {
      return presentTransfer(await recheckCounterparty(callContext(ctx, options), accountId, id));
    },
    /** POST /v1/transfers/{id}/recheck-exposure/ */
    async recheckExposure(id: string, options?: CallOptions) {
      return presentTransfer(await recheckExposure(callContext(ctx, options), accountId, id));
    },
    /** GET /v1/transfers/{id}/ */
    async getTransfer(id: string) {
      return presentTransfer(await loadTransferSummary(ctx, accountId, id));
    },
    /** GET /v1/transfers/ */
    async listTransfers(query: TransferListParams = {}) {
      const page = await listTransfers(ctx, accountId, query);
      return presentPage(page.items.map(presentTransfer), page.total, page);
    },
    /** GET /v1/transfers/{id}/exposure/, with OpenKYT's sanctions and risk_model additions. */
    async getTransferExposure(id: string) {
      const t = await loadTransfer(ctx.store, accountId, id);
      const onPath = await pathSanctions(ctx.sanctions, transferPathSubject(t, ctx.clock.now()));
      return {
        ...presentTransferExposure(t.exposure, t.checks.exposure),
        ...presentScreeningDetails(t),
        path_sanctions: presentPathSanctions(onPath),
      };
    },
    /** GET /v1/transfers/{id}/counterparty/ */
    async getTransferCounterparty(id: string) {
      const t = await loadTransfer(ctx.store, accountId, id);
      return presentAddressExposure(t.counterparty, t.checks.counterparty);
    },
    /** GET /v1/transfers/{id}/risks/: a bare array. */
    async getTransferRisks(id: string) {
      const t = await loadTransfer(ctx.store, accountId, id);
      return (await ctx.store.listRisks("transfer", t.id)).map(presentRisk);
    },
    /** POST /v1/manual-checks/check-transfer/ */
    async checkTransfer(body: CheckTransferRequest, options?: WaitOptions & CallOptions) {
      const ms = waitBudget(ctx, options);
      const check = await checkTransfer(callContext(ctx, options), accountId, body);
      return presentManualCheck(await waitForCheck(check, ms));
    },
    /** POST /v1/manual-checks/check-address/ */
    async checkAddress(body: CheckAddressRequest, options?: WaitOptions & CallOptions) {
      const ms = waitBudget(ctx, options);
      const check = await checkAddress(callContext(ctx, options), accountId, body);
      return presentManualCheck(await waitForCheck(check, ms));
    },
    /** GET /v1/manual-checks/{id}/ */
    async getManualCheck(id: string) {
      return presentManualCheck(await loadManualCheck(ctx.store, accountId, id));
    },
    /** GET /v1/manual-checks/ */
    async listManualChecks(query: PageListParams = {}) {
      const q = parseInput(manualCheckListQuerySchema, query, "manual check list query");
      const page = await ctx.store.listManualChecks(accountId, q);
      return presentPage(page.items.map(presentManualCheck), page.total, q);
    },
    /** GET /v1/manual-checks/{id}/risks/: a bare array. */
    async getManualCheckRisks(id: string) {
      const c = await loadManualCheck(ctx.store, accountId, id);
      return (await ctx.store.listRisks("manual_check", c.id)).map(presentRisk);
    },
    /** GET /v1/manual-checks/{id}/transfer-exposure/ */
    async getManualCheckTransferExposure(id: string) {
      const c = await loadManualCheck(ctx.store, accountId, id);
      if (c.checkType === "single_address") throw notFound("transfer exposure of manual check", id);
      return { ...presentTransferExposure(c.exposure, manualCheckState(c)), ...presentScreeningDetails(c) };
    },
    /** GET /v1/manual-checks/{id}/address-exposure/ */
    async getManualCheckAddressExposure(id: string) {
      const c = await loadManualCheck(ctx.store, accountId, id);
      return presentAddressExposure(c.counterparty, manualCheckState(c));
    },
    /** GET /v1/alerts/ (deprecated filters included). */
    async listAlerts(query: AlertListParams = {}) {
      const q = parseInput(alertListQuerySchema, query, "alert list query");
      const page = await ctx.store.listAlerts(accountId, q.filter, q);
      const transfers = await ctx.store.getTransfers([...new Set(page.items.map((a) => a.transferId))]);
      const byId = new Map(transfers.map((t) => [t.id, t]));
      return presentPage(
        page.items.map((a) => presentAlert(a, byId.get(a.transferId) ?? null, { single: false })),
        page.total,
        q,
      );
    },
    /** GET /v1/alerts/{id}/ */
    async getAlert(id: string) {
      const alert = await ctx.store.getAlert(lookupId("alert", id));
      if (!alert || alert.accountId !== accountId) throw notFound("alert", id);
      return presentAlert(alert, await ctx.store.getTransfer(alert.transferId), { single: true });
    },
    /** GET /v1/transfers/{id}/pdf-report/ (and /pdf/), or -without-risks/: the PDF bytes and a file name. */
    async transferReport(id: string, options: { withRisks: boolean } = { withRisks: true }) {
      return transferReport(ctx, await loadTransfer(ctx.store, accountId, id), options.withRisks);
    },
    /** GET /v1/manual-checks/{id}/pdf-report/, or -without-risks/: the PDF bytes and a file name. */
    async manualCheckReport(id: string, options: { withRisks: boolean } = { withRisks: true }) {
      return manualCheckReport(ctx, await loadManualCheck(ctx.store, accountId, id), options.withRisks);
    },
    /** PATCH /v1/alerts/{id}/: status (through the alert state machine), assignee, comment. */
    updateAlert(id: string, body: AlertUpdateRequest, by: Actor = {}, options?: CallOptions) {
      return updateAlert(callContext(ctx, options), accountId, id, body, by);
    },
    /** POST /v1/alerts/bulk-update/: the same change for several alerts, all or nothing. */
    bulkUpdateAlerts(body: AlertBulkUpdateRequest, by: Actor = {}, options?: CallOptions) {
      return bulkUpdateAlerts(callContext(ctx, options), accountId, body, by);
    },
    /**
     * The case file of alert `id`: the transfer, findings with paths and the listings on them,
     * the transfer's alerts, the decision and the history (the data of the PDF and goAML exports).
     */
    caseFile(id: string) {
      return caseFileData(ctx, accountId, id);
    },
    /** GET /v1/alerts/{id}/case-file/: the case file as a PDF. */
    caseFileReport(id: string) {
      return caseFileReport(ctx, accountId, id);
    },
    /** GET /v1/alerts/export/: every matching alert with its transfer and decision (rows for CSV). */
    exportAlerts(query: AlertListParams = {}) {
      return exportAlerts(ctx, accountId, query);
    },
    /**
     * GET /v1/addresses/{address}/?network=: the address's entity, listings and cluster, and the
     * account's transfers, alerts and manual checks that touch it.
     */
    addressProfile(network: string, address: string) {
      return addressProfile(ctx, accountId, network, address);
    },
    /** GET /v1/alerts/{id}/history/ */
    async getAlertHistory(id: string) {
      return (await alertHistory(ctx, accountId, id)).map(presentAlertHistoryEntry);
    },
    /** GET/POST /v1/risk-models/, GET/PUT/DELETE /v1/risk-models/{id}/ */
    riskModels: riskModelManagement(ctx, accountId),
    /**
     * GET/PUT /v1/model-approval/, POST /v1/risk-models/{id}/approve/ and reject/: a second
     * admin's approval of risk model versions (risk-model-approval.ts).
     */
    modelApproval: modelApprovalApi(ctx, accountId),
    /** GET/PUT /v1/explorer-settings/: the account's own block explorers. */
    explorers: explorerSettingsApi(ctx, accountId),
    /**
     * Backtests of risk models on the account's stored transfers: `run` in this process,
     * `start` as a job (POST /v1/risk-models/{id}/backtest/) and `get` (GET /v1/backtests/{id}/).
     */
    backtests: backtestRuns(ctx, accountId),
    /**
     * POST/GET /v1/webhooks/, GET/DELETE /v1/webhooks/{id}/, POST /v1/webhooks/{id}/resume/,
     * GET /v1/webhooks/{id}/deliveries/
     */
    webhooks: webhookManagement(ctx, accountId),
    /** Casework: the queue, cases and decisions, SLAs and the audit log (casework-api.ts). */
    casework: caseworkApi(ctx, accountId),
    /** GET /v1/basics/networks/ */
    async listNetworks(query: PageListParams = {}) {
      return pageOf(NETWORKS, query, presentNetwork);
    },
    /** GET /v1/basics/entity-categories/ */
    async listEntityCategories(query: PageListParams = {}) {
      return pageOf(ENTITY_CATEGORIES, query, presentEntityCategory);
    },
    /** GET /v1/basics/tokens/ (filters network, token_id). */
    async listTokens(query: TokenListParams = {}) {
      const q = parseInput(tokenListQuerySchema, query, "token list query");
      const page = await ctx.store.listTokens(q.filter, q);
      return presentPage(page.items.map(presentToken), page.total, q);
    },
  });
}

/** The operations of one account. */
export type AccountApi = ReturnType<typeof accountApi>;
