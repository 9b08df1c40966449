/**
 * Pure document-definition builders: a report request in, a pdfmake document definition out.
 * They read no clock and no file, so the layout can be tested without rendering.
 */
import type {
  BacktestReportData,
  CaseFileReportData,
  ManualCheckReportData,
  ReportRequest,
  TransferReportData,
} from "@openkyt/core";
import type { Content, TDocumentDefinitions } from "pdfmake/interfaces";
import { alertsSection } from "./report-alerts-table.js";
import {
  alertLevelsSection,
  backtestAlertsSection,
  backtestSummary,
  levelShiftSection,
  levelsSection,
  movedTransfersSection,
} from "./report-backtest-sections.js";
import { caseSection, historySection, pathSanctionsSection } from "./report-case-sections.js";
import { manualCheckPending, pendingNotice, transferPending } from "./report-checks.js";
import { counterpartySection } from "./report-counterparty-section.js";
import { exposureSection } from "./report-exposure-section.js";
import { documentInfo, footer, type ReportFrame, runningHeader, titleBlock } from "./report-page-frame.js";
import { riskSummary, risksOmittedNotice } from "./report-risk-level.js";
import { risksSection } from "./report-risks-table.js";
import { sanctionsSection } from "./report-sanctions-section.js";
import { DEFAULT_STYLE, PAGE_MARGINS, STYLES } from "./report-styles.js";
import { manualCheckSection, transferSection } from "./report-transfer-section.js";

/** A request for a transfer report. */
export type TransferReportRequest = ReportRequest & { readonly data: TransferReportData };
/** A request for a manual check report. */
export type ManualCheckReportRequest = ReportRequest & { readonly data: ManualCheckReportData };
/** A request for a case file. */
export type CaseFileRequest = ReportRequest & { readonly data: CaseFileReportData };
/** A request for a backtest report. */
export type BacktestReportRequest = ReportRequest & { readonly data: BacktestReportData };

function frameOf(request: ReportRequest, title: string, subjectId: string): ReportFrame {
  return {
    title,
    subjectId,
    reportId: request.reportId,
    generatedAt: request.generatedAt,
    riskModel: request.data.riskModel,
    withRisks: request.withRisks,
  };
}

function documentOf(frame: ReportFrame, body: Content[]): TDocumentDefinitions {
  return {
    pageSize: "A4",
    pageMargins: PAGE_MARGINS,
    info: documentInfo(frame),
    header: runningHeader(frame),
    footer: footer(frame),
    content: [...titleBlock(frame), ...body],
    styles: STYLES,
    defaultStyle: DEFAULT_STYLE,
  };
}

const roleOf = (direction: "incoming" | "outgoing") => (direction === "incoming" ? "sender" : "recipient");

/** The document of a transfer report (risks, alerts, level and score only when `withRisks`). */
export function transferReportDocument(request: TransferReportRequest): TDocumentDefinitions {
  const { data: d, withRisks } = request;
  const t = d.transfer;
  const body: Content[] = [
    ...pendingNotice(
      "transfer",
      transferPending(t, { lastError: d.lastError, autoCheckDisabled: d.autoCheckDisabled }),
    ),
    withRisks ? riskSummary(t.risk_level, t.risk_score, d.risks.length) : risksOmittedNotice("transfer"),
    ...transferSection(t),
    ...exposureSection({
      exposure: d.exposure,
      detail: d.exposureDetail,
      direction: t.direction,
      network: t.network,
    }),
    ...counterpartySection({
      counterparty: d.counterparty,
      title: `Counterparty (${roleOf(t.direction)})`,
      checkLabel: "Counterparty check",
    }),
    ...sanctionsSection({
      sanctions: d.sanctions,
      state: t.check_state.sanctions,
      at: t.check_state.sanctions_checked_at,
    }),
    ...(withRisks
      ? [...risksSection(d.risks, t.risk_level !== "undefined"), ...alertsSection(d.alerts)]
      : []),
  ];
  return documentOf(frameOf(request, "Transfer report", t.id), body);
}

/**
 * The document of a case file: the case and its decision first, then the transfer with its
 * findings, their paths and the listings on them, every alert of the transfer, and the history
 * with its comments.
 */
export function caseFileDocument(request: CaseFileRequest): TDocumentDefinitions {
  const { data: d } = request;
  const t = d.transfer;
  const body: Content[] = [
    ...caseSection(d),
    riskSummary(t.risk_level, t.risk_score, d.risks.length),
    ...transferSection(t),
    ...exposureSection({
      exposure: d.exposure,
      detail: d.exposureDetail,
      direction: t.direction,
      network: t.network,
    }),
    ...counterpartySection({
      counterparty: d.counterparty,
      title: `Counterparty (${roleOf(t.direction)})`,
      checkLabel: "Counterparty check",
    }),
    ...sanctionsSection({
      sanctions: d.sanctions,
      state: t.check_state.sanctions,
      at: t.check_state.sanctions_checked_at,
    }),
    ...pathSanctionsSection(d.pathSanctions),
    ...risksSection(d.risks, t.risk_level !== "undefined"),
    ...alertsSection(d.alerts),
    ...historySection(d.history, d.alert.id),
  ];
  return documentOf(frameOf(request, "Case file", d.alert.id), body);
}

/** The document of a manual check report: a transfer check or a single-address check. */
export function manualCheckReportDocument(request: ManualCheckReportRequest): TDocumentDefinitions {
  const { data: d, withRisks } = request;
  const c = d.check;
  const body: Content[] = [
    ...pendingNotice("check", manualCheckPending(c, d.lastError)),
    withRisks ? riskSummary(c.risk_level, c.risk_score, d.risks.length) : risksOmittedNotice("check"),
    ...manualCheckSection(c),
    ...(c.transfer
      ? exposureSection({
          exposure: d.exposure,
          detail: d.exposureDetail,
          direction: c.transfer.direction,
          network: c.transfer.network,
        })
      : []),
    ...counterpartySection({
      counterparty: d.counterparty,
      title: c.transfer ? `Counterparty (${roleOf(c.transfer.direction)})` : "Address exposure",
      checkLabel: c.transfer ? "Counterparty check" : "Address check",
    }),
    ...sanctionsSection({ sanctions: d.sanctions, state: c.check_status, at: c.checked_at }),
    ...(withRisks ? risksSection(d.risks, c.risk_level !== "undefined") : []),
  ];
  return documentOf(frameOf(request, "Manual check report", c.id), body);
}

/**
 * The document of a backtest report: what was evaluated, the level shift (chart and from/to
 * table), transfers by level, alerts by level and by risk type and category, the transfers
 * that move with hash and value.
 */
export function backtestReportDocument(request: BacktestReportRequest): TDocumentDefinitions {
  const { data: d } = request;
  const body: Content[] = [
    ...backtestSummary(d),
    ...levelShiftSection(d.report),
    ...levelsSection(d.report),
    ...alertLevelsSection(d.report),
    ...backtestAlertsSection(d.report),
    ...movedTransfersSection(d.report),
  ];
  return documentOf(frameOf(request, "Backtest report", d.backtestId ?? d.report.candidate), body);
}

/** The document of any report request. */
export function reportDocument(request: ReportRequest): TDocumentDefinitions {
  const { data } = request;
  if (data.kind === "backtest") return backtestReportDocument({ ...request, data });
  if (data.kind === "case_file") return caseFileDocument({ ...request, data });
  return data.kind === "transfer"
    ? transferReportDocument({ ...request, data })
    : manualCheckReportDocument({ ...request, data });
}
