/**
 * Renders PDF reports; implemented by `@openkyt/pdf` so the engine never imports pdfmake.
 * The engine assembles the data (the interface's own response objects plus the detail a report
 * explains), the renderer lays it out.
 */
import type { ExposureResult, SanctionsResult } from "../domain/records.js";
import type {
  AddressExposureResponse,
  AlertHistoryEntryResponse,
  AlertResponse,
  BacktestReportResponse,
  ManualCheckResponse,
  RiskResponse,
  TransferExposureResponse,
  TransferResponse,
} from "../schemas/index.js";

/** The risk model a report's results came from. */
export interface ReportModel {
  readonly id: string;
  readonly name: string;
  /** `id@version`, or null before any check finished. */
  readonly version: string | null;
}

/** Everything a transfer report shows. */
export interface TransferReportData {
  readonly kind: "transfer";
  readonly transfer: TransferResponse;
  readonly exposure: TransferExposureResponse;
  /** The traced exposure with hops and explanation paths; null before the exposure check. */
  readonly exposureDetail: ExposureResult | null;
  readonly counterparty: AddressExposureResponse;
  readonly sanctions: SanctionsResult | null;
  /** Empty in the without-risks variant. */
  readonly risks: ReadonlyArray<RiskResponse>;
  /** Empty in the without-risks variant. */
  readonly alerts: ReadonlyArray<AlertResponse>;
  readonly riskModel: ReportModel;
  /** Why binding or a check last failed, when one did. */
  readonly lastError: string | null;
  /** True when the transfer was registered with disable_auto_check (its checks never run by themselves). */
  readonly autoCheckDisabled: boolean;
}

/** Everything a manual check report shows. */
export interface ManualCheckReportData {
  readonly kind: "manual_check";
  readonly check: ManualCheckResponse;
  /** Transfer checks only. */
  readonly exposure: TransferExposureResponse | null;
  readonly exposureDetail: ExposureResult | null;
  readonly counterparty: AddressExposureResponse;
  readonly sanctions: SanctionsResult | null;
  /** Empty in the without-risks variant. */
  readonly risks: ReadonlyArray<RiskResponse>;
  readonly riskModel: ReportModel;
  /** Why the check ended in error, when it did. */
  readonly lastError: string | null;
}

/** Everything a backtest report shows: a finished backtest's report and what it covered. */
export interface BacktestReportData {
  readonly kind: "backtest";
  /** The backtest resource's id; null for a backtest run in process (not stored). */
  readonly backtestId: string | null;
  /** The registration window, as asked (dates or timestamps). */
  readonly from: string;
  readonly to: string;
  readonly report: BacktestReportResponse;
  /** The candidate model (`version` is the report's candidate tag). */
  readonly riskModel: ReportModel;
}

/** The decision on a case: the alert's closing, and the outcome when the account records one. */
export interface CaseDecision {
  /** The alert's status now. */
  readonly status: AlertResponse["alert_status"];
  /** The outcome recorded with the decision (e.g. false_positive); null when none was recorded. */
  readonly outcome: string | null;
  /** Who closed it (the actor of the last change to done); null while it is not closed. */
  readonly decidedBy: string | null;
  /** When it was closed (offset timestamp); null while it is not closed. */
  readonly decidedAt: string | null;
  /** The comment given with the closing; null when none. */
  readonly comment: string | null;
}

/** One entry of a case's history: an alert's change, with the alert it belongs to. */
export type CaseHistoryEntry = AlertHistoryEntryResponse & { readonly alert_id: string };

/**
 * Everything a case file shows: the transfer report's content (always with risks), the alert
 * the case was opened from and its siblings on the same transfer, the listings of sanctioned
 * addresses on the paths, the decision, and the history with its comments (oldest first).
 */
export interface CaseFileReportData extends Omit<TransferReportData, "kind"> {
  readonly kind: "case_file";
  /** The alert the case file was asked for. */
  readonly alert: AlertResponse;
  /** Its assignee now; null when nobody. */
  readonly assignee: string | null;
  /** Sanctions results of the addresses on the strongest paths (see path-sanctions.ts). */
  readonly pathSanctions: ReadonlyArray<SanctionsResult>;
  readonly decision: CaseDecision;
  readonly history: ReadonlyArray<CaseHistoryEntry>;
}

/** Which report, and whether risks are left out. */
export interface ReportRequest {
  readonly data: TransferReportData | ManualCheckReportData | BacktestReportData | CaseFileReportData;
  /**
   * False for the "without risks" variants: risks, alerts, risk level and score are left out.
   * A backtest report is about risks: always true.
   */
  readonly withRisks: boolean;
  /** Generation time, epoch ms. */
  readonly generatedAt: number;
  readonly reportId: string;
}

/** A PDF renderer. */
export interface ReportRenderer {
  /** The PDF bytes of a report. Reads nothing, writes nothing. */
  render(request: ReportRequest): Promise<Uint8Array>;
}
