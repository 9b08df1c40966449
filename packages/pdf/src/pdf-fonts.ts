/**
 * The fonts a report is set in: Roboto as pdfmake ships it (its virtual file system), decoded
 * once per renderer and embedded (subset) in every PDF.
 */
import vfs from "pdfmake/build/vfs_fonts.js";

/** Family name the report styles ask for. */
export const REPORT_FONT = "Report";

/** The four faces of a font family, as TrueType bytes. */
export interface PdfFontFiles {
  readonly normal: Uint8Array;
  readonly bold: Uint8Array;
  readonly italics: Uint8Array;
  readonly bolditalics: Uint8Array;
}

function face(file: string): Buffer {
  const base64 = vfs[file];
  if (base64 === undefined) throw new Error(`pdfmake's font ${file} is missing`);
  return Buffer.from(base64, "base64");
}

/** Roboto Regular, Medium (bold), Italic and Medium Italic from pdfmake's build. */
export function robotoFonts(): PdfFontFiles {
  return {
    normal: face("Roboto-Regular.ttf"),
    bold: face("Roboto-Medium.ttf"),
    italics: face("Roboto-Italic.ttf"),
    bolditalics: face("Roboto-MediumItalic.ttf"),
  };
}

/** The faces as the Buffers pdfkit reads without copying them again. */
export function fontBuffers(files: PdfFontFiles): Record<keyof PdfFontFiles, Buffer> {
  const asBuffer = (b: Uint8Array) =>
    Buffer.isBuffer(b) ? b : Buffer.from(b.buffer, b.byteOffset, b.byteLength);
  return {
    normal: asBuffer(files.normal),
    bold: asBuffer(files.bold),
    italics: asBuffer(files.italics),
    bolditalics: asBuffer(files.bolditalics),
  };
}
