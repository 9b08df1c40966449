/**
 * The wire objects a report shows, named after the interface's own response types and taken
 * from core's ReportRenderer port (the port's data is what the renderer may rely on).
 */
import type { ManualCheckReportData, TransferReportData } from "@openkyt/core";

/** A registered transfer (REGISTERED_TRANSFER_EXTRA). */
export type TransferResponse = TransferReportData["transfer"];
/** TRANSFER_EXPOSURE. */
export type TransferExposureResponse = TransferReportData["exposure"];
/** ADDRESS_EXPOSURE. */
export type AddressExposureResponse = TransferReportData["counterparty"];
/** RISK. */
export type RiskResponse = TransferReportData["risks"][number];
/** RISK_RULE. */
export type RiskRuleResponse = RiskResponse["rule"];
/** ALERT. */
export type AlertResponse = TransferReportData["alerts"][number];
/** MANUAL_CHECK. */
export type ManualCheckResponse = ManualCheckReportData["check"];
