/**
 * What frames every report: the title block on the first page (report id, generation time in
 * UTC, risk model), the running header of the following pages, the footer with "Page X of Y"
 * on every page, and the document metadata.
 */
import type { ReportModel } from "@openkyt/core";
import type { Content, DynamicContent, TDocumentInformation } from "pdfmake/interfaces";
import { unwrapped } from "./report-blocks.js";
import { formatEpoch } from "./report-format.js";
import { COLORS, CONTENT_WIDTH } from "./report-styles.js";

/** What the frame says about a report. */
export interface ReportFrame {
  /** e.g. "Transfer report". */
  readonly title: string;
  /** Id of what the report is about (transfer or manual check). */
  readonly subjectId: string;
  readonly reportId: string;
  readonly generatedAt: number;
  readonly riskModel: ReportModel;
  readonly withRisks: boolean;
}

/** `OpenKYT default (default@1)`, or the model that will be used when nothing ran yet. */
export function modelText(m: ReportModel): string {
  return m.version === null ? `${m.name} (${m.id}; no check finished yet)` : `${m.name} (${m.version})`;
}

/** The title block at the top of the first page. */
export function titleBlock(f: ReportFrame): Content[] {
  const variant = f.withRisks ? "" : " (without risks)";
  return [
    {
      columns: [
        {
          width: "*",
          stack: [
            { text: "OpenKYT", fontSize: 9, bold: true, color: COLORS.muted },
            { text: `${f.title}${variant}`, style: "title" },
          ],
        },
        {
          width: 250,
          table: {
            widths: [70, "*"],
            body: [
              [
                { text: "Report ID", style: "label", noWrap: true },
                unwrapped({ text: f.reportId, style: "token" }, 180, 8.5),
              ],
              [
                { text: "Generated", style: "label", noWrap: true },
                { text: formatEpoch(f.generatedAt), noWrap: true },
              ],
              [
                { text: "Risk model", style: "label", noWrap: true },
                unwrapped({ text: modelText(f.riskModel) }, 180, 8),
              ],
            ],
          },
          layout: "noBorders",
          fontSize: 8,
        },
      ],
      columnGap: 10,
    },
    {
      canvas: [
        { type: "line", x1: 0, y1: 4, x2: CONTENT_WIDTH, y2: 4, lineWidth: 1.2, lineColor: COLORS.accent },
      ],
      margin: [0, 2, 0, 4],
    },
  ];
}

/** The running header: nothing on the first page (the title block is there). */
export function runningHeader(f: ReportFrame): DynamicContent {
  return (page) =>
    page === 1
      ? null
      : {
          columns: [
            unwrapped({ text: `OpenKYT · ${f.title} · ${f.subjectId}`, style: "running" }, CONTENT_WIDTH / 2),
            unwrapped(
              { text: `Report ${f.reportId}`, style: "running", alignment: "right" },
              CONTENT_WIDTH / 2,
            ),
          ],
          margin: [40, 24, 40, 0],
        };
}

/** The footer of every page: what the report is, when it was generated, and "Page X of Y". */
export function footer(f: ReportFrame): DynamicContent {
  const variant = f.withRisks ? "" : " · without risks";
  const left = `OpenKYT ${f.title.toLowerCase()}${variant} · generated ${formatEpoch(f.generatedAt)} · report ${f.reportId}`;
  return (page, pages) => ({
    stack: [
      {
        canvas: [
          { type: "line", x1: 0, y1: 0, x2: CONTENT_WIDTH, y2: 0, lineWidth: 0.5, lineColor: COLORS.rule },
        ],
      },
      {
        columns: [
          { ...unwrapped({ text: left, style: "running" }, CONTENT_WIDTH - 70), width: "*" },
          { text: `Page ${page} of ${pages}`, style: "running", alignment: "right", width: 70, noWrap: true },
        ],
        margin: [0, 4, 0, 0],
      },
    ],
    margin: [40, 18, 40, 0],
  });
}

/** Document metadata: title, author, subject and keywords; no date (the renderer sets it). */
export function documentInfo(f: ReportFrame): TDocumentInformation {
  const variant = f.withRisks ? "" : " (without risks)";
  return {
    title: `OpenKYT ${f.title.toLowerCase()}${variant} ${f.subjectId}`,
    author: "OpenKYT",
    subject: `KYT ${f.title.toLowerCase()} ${f.reportId}`,
    keywords: `KYT, ${f.title.toLowerCase()}, ${f.subjectId}, ${f.reportId}`,
    creator: "OpenKYT",
    producer: "OpenKYT (pdfmake)",
  };
}
