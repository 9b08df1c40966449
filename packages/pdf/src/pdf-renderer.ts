/**
 * The ReportRenderer of pdfmake on Node: builds the document definition, lays it out and
 * returns the PDF bytes. One printer and one parsed copy of the fonts serve every render.
 */
import { KytError, type ReportRenderer, type ReportRequest } from "@openkyt/core";
import PdfPrinter from "pdfmake";
import type { TDocumentDefinitions } from "pdfmake/interfaces";
import { createFontCache } from "./pdf-font-cache.js";
import { fontBuffers, type PdfFontFiles, REPORT_FONT, robotoFonts } from "./pdf-fonts.js";
import { reportDocument } from "./report-documents.js";

/** Options of {@link createPdfRenderer}. */
export interface PdfRendererOptions {
  /**
   * Fixes the PDF's creation date (and so its file id): the same request then gives the same
   * bytes. Without it the creation date is the time of rendering.
   */
  readonly deterministic?: { readonly creationDate: Date };
  /** Faces to set the report in instead of Roboto (e.g. for scripts Roboto lacks). */
  readonly fonts?: PdfFontFiles;
}

/** A PDF renderer that can also show the document definition it would lay out. */
export interface PdfRenderer extends ReportRenderer {
  /** The pdfmake document definition of a request, metadata dates included. */
  document(request: ReportRequest): TDocumentDefinitions;
}

function collect(doc: PDFKit.PDFDocument): Promise<Uint8Array> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    doc.on("data", (chunk: Buffer) => chunks.push(chunk));
    doc.on("end", () => resolve(Buffer.concat(chunks)));
    doc.on("error", reject);
    doc.end();
  });
}

/** Creates the pdfmake renderer to pass as `reportRenderer` to `createEngine`. */
export function createPdfRenderer(options: PdfRendererOptions = {}): PdfRenderer {
  const faces = fontBuffers(options.fonts ?? robotoFonts());
  const printer = new PdfPrinter({ [REPORT_FONT]: faces });
  const fonts = createFontCache(Object.values(faces));
  const fixed = options.deterministic?.creationDate;
  const document = (request: ReportRequest): TDocumentDefinitions => {
    const definition = reportDocument(request);
    const creationDate = fixed ?? new Date();
    return { ...definition, info: { ...definition.info, creationDate, modDate: creationDate } };
  };
  return {
    document,
    async render(request) {
      try {
        const definition = document(request);
        const doc = fonts.during(() => printer.createPdfKitDocument(definition));
        fonts.learn(doc);
        return await collect(doc);
      } catch (cause) {
        throw new KytError("INTERNAL_ERROR", `could not render report ${request.reportId}`, { cause });
      }
    },
  };
}
