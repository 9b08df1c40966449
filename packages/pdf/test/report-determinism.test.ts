/**
 * Deterministic mode: a fixed creation date and fixed metadata, so the same request gives the
 * same bytes; fonts embedded; without the mode the creation date is the time of rendering.
 */

import { createRequire } from "node:module";
import type { Engine, ReportRequest } from "@openkyt/core";
import PdfPrinter from "pdfmake";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createPdfRenderer, fontBuffers, REPORT_FONT, robotoFonts } from "../src/index.js";
import { pdfFonts, pdfInfo, popplerMissing } from "./poppler-tools.js";
import { CREATION_DATE, sampleRequests } from "./report-fixtures.js";

let engine: Engine;
let requests: ReportRequest[];

beforeAll(async () => {
  ({ engine, requests } = await sampleRequests());
});
afterAll(async () => {
  await engine.stop();
});

const text = (bytes: Uint8Array) => Buffer.from(bytes).toString("latin1");

describe("deterministic rendering", () => {
  it("renders the same request to the same bytes, across renderers and renders", async () => {
    const a = createPdfRenderer({ deterministic: { creationDate: CREATION_DATE } });
    const b = createPdfRenderer({ deterministic: { creationDate: CREATION_DATE } });
    for (const request of requests) {
      const first = await a.render(request);
      expect(text(first).startsWith("%PDF-")).toBe(true);
      expect(Buffer.from(await a.render(request)).equals(Buffer.from(first))).toBe(true);
      expect(Buffer.from(await b.render(request)).equals(Buffer.from(first))).toBe(true);
    }
  });

  it("renders different bytes for another report id or another creation date", async () => {
    const request = requests[0]!;
    const a = createPdfRenderer({ deterministic: { creationDate: CREATION_DATE } });
    const later = createPdfRenderer({
      deterministic: { creationDate: new Date(CREATION_DATE.getTime() + 1000) },
    });
    const base = Buffer.from(await a.render(request));
    expect(base.equals(Buffer.from(await a.render({ ...request, reportId: "another-report" })))).toBe(false);
    expect(base.equals(Buffer.from(await later.render(request)))).toBe(false);
  });

  it("renders in parallel to the same bytes as one at a time", async () => {
    const r = createPdfRenderer({ deterministic: { creationDate: CREATION_DATE } });
    const one = await Promise.all(requests.map((q) => r.render(q)));
    const again = await Promise.all([...requests, ...requests].map((q) => r.render(q)));
    again.forEach((bytes, i) => {
      expect(Buffer.from(bytes).equals(Buffer.from(one[i % requests.length]!))).toBe(true);
    });
  });
});

/** The fontkit module pdfkit parses fonts with. */
function fontkitModule(): { create: unknown } {
  const fromPdfmake = createRequire(createRequire(import.meta.url).resolve("pdfmake"));
  return createRequire(fromPdfmake.resolve("@foliojs-fork/pdfkit"))("@foliojs-fork/fontkit");
}

describe("fonts shared across renders", () => {
  it("are parsed once per renderer, not once per document", async () => {
    const fontkit = fontkitModule() as { create: (...args: unknown[]) => unknown };
    const create = fontkit.create;
    let parses = 0;
    fontkit.create = (...args: unknown[]) => {
      parses += 1;
      return create.apply(fontkit, args);
    };
    try {
      const renderer = createPdfRenderer({ deterministic: { creationDate: CREATION_DATE } });
      expect(parses).toBe(4);
      for (const request of requests) await renderer.render(request);
      expect(parses).toBe(4);
    } finally {
      fontkit.create = create;
    }
  });

  it("give the same bytes as pdfmake parsing the fonts for each document, and leave fontkit as it was", async () => {
    const fontkit = fontkitModule();
    const create = fontkit.create;
    const renderer = createPdfRenderer({ deterministic: { creationDate: CREATION_DATE } });
    const plain = new PdfPrinter({ [REPORT_FONT]: fontBuffers(robotoFonts()) });
    for (const request of requests) {
      const shared = Buffer.from(await renderer.render(request));
      expect(fontkit.create).toBe(create);
      const doc = plain.createPdfKitDocument(renderer.document(request));
      const chunks: Buffer[] = [];
      await new Promise<void>((resolve) => {
        doc.on("data", (c: Buffer) => chunks.push(c));
        doc.on("end", resolve);
        doc.end();
      });
      expect(shared.equals(Buffer.concat(chunks))).toBe(true);
    }
  });
});

const missing = popplerMissing();

describe.skipIf(missing !== null)(`PDF metadata and fonts${missing ? ` (skipped: ${missing})` : ""}`, () => {
  it("sets title, author and the fixed creation date, and embeds every font", async () => {
    const request = requests[0]!;
    const bytes = await createPdfRenderer({ deterministic: { creationDate: CREATION_DATE } }).render(request);
    const info = pdfInfo(bytes);
    expect(info.Title).toContain("OpenKYT transfer report");
    expect(info.Author).toBe("OpenKYT");
    expect(info.Creator).toBe("OpenKYT");
    expect(info.Subject).toContain(request.reportId);
    expect(info.CreationDate).toBe("2024-01-02T12:00:00Z");
    const fonts = pdfFonts(bytes);
    expect(fonts.length).toBeGreaterThanOrEqual(2);
    for (const row of fonts) {
      expect(row[0]).toMatch(/^[A-Z]{6}\+Roboto/);
      expect(row.slice(-5, -3)).toEqual(["yes", "yes"]);
    }
  });

  it("without the mode, dates the PDF at the time of rendering", async () => {
    const before = Math.floor(Date.now() / 1000) * 1000;
    const bytes = await createPdfRenderer().render(requests[0]!);
    const created = Date.parse(pdfInfo(bytes).CreationDate ?? "");
    expect(created).toBeGreaterThanOrEqual(before);
    expect(created).toBeLessThanOrEqual(Date.now());
  });
});
