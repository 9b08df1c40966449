/**
 * Word runs shared across documents: once a renderer has learnt pdfkit's font class, a report
 * it rendered before is laid out without laying out any word again, and pdfkit's font methods
 * are back as they were after every render (the bytes are checked against plain pdfmake in
 * report-determinism.test.ts).
 */
import type { ReportRequest } from "@openkyt/core";
import PdfPrinter from "pdfmake";
import { beforeAll, describe, expect, it } from "vitest";
import { createPdfRenderer, fontBuffers, REPORT_FONT, robotoFonts } from "../src/index.js";
import { CREATION_DATE, recordingRenderer, registerSamples, worldEngine } from "./report-fixtures.js";

interface FontMethods {
  layoutRun(...args: unknown[]): unknown;
  layoutCached(...args: unknown[]): unknown;
  layout(...args: unknown[]): unknown;
}

let request: ReportRequest;
let fontClass: FontMethods;

beforeAll(async () => {
  const renderer = recordingRenderer();
  const engine = await worldEngine(renderer);
  const s = await registerSamples(engine);
  await s.acme.transferReport(s.deposit);
  await engine.stop();
  request = renderer.rendered[0]!.request;
  const plain = new PdfPrinter({ [REPORT_FONT]: fontBuffers(robotoFonts()) });
  const doc = plain.createPdfKitDocument(renderer.document(request)) as unknown as {
    _fontFamilies: Record<string, object>;
  };
  fontClass = Object.getPrototypeOf(Object.values(doc._fontFamilies)[0]) as FontMethods;
});

describe("word runs shared across documents", () => {
  it("lay out no word again for a report rendered before", async () => {
    const layoutRun = fontClass.layoutRun;
    let calls = 0;
    fontClass.layoutRun = function (...args: unknown[]) {
      calls += 1;
      return layoutRun.apply(this, args);
    };
    try {
      const renderer = createPdfRenderer({ deterministic: { creationDate: CREATION_DATE } });
      const counts: number[] = [];
      for (let i = 0; i < 3; i += 1) {
        calls = 0;
        await renderer.render(request);
        counts.push(calls);
      }
      expect(counts[0]).toBeGreaterThan(50);
      expect(counts[2]).toBe(0);
    } finally {
      fontClass.layoutRun = layoutRun;
    }
  });

  it("leave pdfkit's font methods as they were after each render", async () => {
    const before = { layoutCached: fontClass.layoutCached, layout: fontClass.layout };
    const renderer = createPdfRenderer();
    for (let i = 0; i < 3; i += 1) {
      await renderer.render(request);
      expect(fontClass.layoutCached).toBe(before.layoutCached);
      expect(fontClass.layout).toBe(before.layout);
    }
  });
});
