/**
 * Assembling report data for the ReportRenderer port and rendering it: a library call that
 * returns the PDF bytes, for products that embed the engine and for the HTTP routes.
 */
import type { ManualCheckRecord, TransferRecord } from "../../domain/records.js";
import { KytError } from "../../errors.js";
import type { ReportModel, ReportRequest } from "../../ports/report-renderer.js";
import {
  presentAddressExposure,
  presentAlert,
  presentManualCheck,
  presentRisk,
  presentTransfer,
  presentTransferExposure,
} from "../../schemas/index.js";
import type { EngineContext } from "../engine-context.js";
import { manualCheckState } from "./manual-check-use-cases.js";

/** A rendered report. */
export interface RenderedReport {
  readonly bytes: Uint8Array;
  /** A file name that says what the report is. */
  readonly fileName: string;
  readonly reportId: string;
}

/** The model a report names: the account's model `id` (its current name), or the built-in one. */
export async function modelOf(
  ctx: EngineContext,
  accountId: string,
  id: string | null,
  version: string | null,
): Promise<ReportModel> {
  if (id === null) return { id: ctx.defaultModel.id, name: ctx.defaultModel.name, version };
  const model = await ctx.store.getRiskModel(accountId, id);
  return { id, name: model?.name ?? id, version };
}

/** The engine's report renderer; NOT_CONFIGURED when none was given. */
export function renderer(ctx: EngineContext) {
  if (!ctx.renderer) {
    throw new KytError(
      "NOT_CONFIGURED",
      "PDF reports need a report renderer: pass reportRenderer (from @openkyt/pdf) to createEngine",
    );
  }
  return ctx.renderer;
}

/** Renders `data` as a new report (a fresh report id), named `openkyt-{name}.pdf`. */
export async function render(
  ctx: EngineContext,
  data: ReportRequest["data"],
  withRisks: boolean,
  name: string,
): Promise<RenderedReport> {
  const reportId = ctx.ids.next();
  const bytes = await renderer(ctx).render({ data, withRisks, generatedAt: ctx.clock.now(), reportId });
  const suffix = withRisks ? "" : "-without-risks";
  return { bytes, reportId, fileName: `openkyt-${name}${suffix}.pdf` };
}

/** Renders the report of a transfer (the caller has checked the account). */
export async function transferReport(
  ctx: EngineContext,
  t: TransferRecord,
  withRisks: boolean,
): Promise<RenderedReport> {
  renderer(ctx);
  const risks = withRisks ? (await ctx.store.listRisks("transfer", t.id)).map(presentRisk) : [];
  const alerts = withRisks
    ? (await ctx.store.listAlertsOfTransfer(t.id)).map((a) => presentAlert(a, t, { single: false }))
    : [];
  const data = {
    kind: "transfer" as const,
    transfer: presentTransfer(t),
    exposure: presentTransferExposure(t.exposure, t.checks.exposure),
    exposureDetail: t.exposure,
    counterparty: presentAddressExposure(t.counterparty, t.checks.counterparty),
    sanctions: t.sanctions,
    risks,
    alerts,
    riskModel: await modelOf(ctx, t.accountId, t.riskModelId, t.riskModelVersion),
    lastError: t.lastError,
    autoCheckDisabled: t.disableAutoCheck,
  };
  return render(ctx, data, withRisks, `transfer-${t.id}`);
}

/** Renders the report of a manual check (the caller has checked the account). */
export async function manualCheckReport(
  ctx: EngineContext,
  c: ManualCheckRecord,
  withRisks: boolean,
): Promise<RenderedReport> {
  renderer(ctx);
  const risks = withRisks ? (await ctx.store.listRisks("manual_check", c.id)).map(presentRisk) : [];
  const state = manualCheckState(c);
  const data = {
    kind: "manual_check" as const,
    check: presentManualCheck(c),
    exposure: c.checkType === "single_address" ? null : presentTransferExposure(c.exposure, state),
    exposureDetail: c.exposure,
    counterparty: presentAddressExposure(c.counterparty, state),
    sanctions: c.sanctions,
    risks,
    riskModel: await modelOf(ctx, c.accountId, c.riskModelId, c.riskModelVersion),
    lastError: c.lastError,
  };
  return render(ctx, data, withRisks, `manual-check-${c.id}`);
}
