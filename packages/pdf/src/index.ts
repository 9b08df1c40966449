/**
 * @openkyt/pdf: PDF reports of transfers and manual checks, rendered with pdfmake behind core's
 * ReportRenderer port. Pass `createPdfRenderer()` as `reportRenderer` to `createEngine`.
 */

export { fontBuffers, type PdfFontFiles, REPORT_FONT, robotoFonts } from "./pdf-fonts.js";
export {
  createPdfRendererPool,
  type PdfRendererPool,
  type PdfRendererPoolOptions,
} from "./pdf-pool.js";
export { createPdfRenderer, type PdfRenderer, type PdfRendererOptions } from "./pdf-renderer.js";
export {
  type BacktestReportRequest,
  backtestReportDocument,
  type CaseFileRequest,
  caseFileDocument,
  type ManualCheckReportRequest,
  manualCheckReportDocument,
  reportDocument,
  type TransferReportRequest,
  transferReportDocument,
} from "./report-documents.js";
