/** Renders PDF reports; implemented by `@openkyt/pdf` so the engine never imports pdfmake. */

/** Which report, and whether risks are left out. */
export interface ReportRequest {
  readonly kind: "transfer" | "manual_check";
  readonly withRisks: boolean;
  /** The report's data, as the engine assembles it (wire-shaped objects). */
  readonly data: Readonly<Record<string, unknown>>;
  /** Generation time, epoch ms. */
  readonly generatedAt: number;
  readonly reportId: string;
}

/** A PDF renderer. */
export interface ReportRenderer {
  /** The PDF bytes of a report. Pure with respect to the store: reads nothing, writes nothing. */
  render(request: ReportRequest): Promise<Uint8Array>;
}
