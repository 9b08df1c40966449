/**
 * The renderer pool: the same bytes as one renderer, from more reports at once than it has
 * threads; the port's errors for a report that cannot be rendered, cannot be sent, or whose
 * thread cannot start; and its shutdown (what was asked for is rendered, later renders fail).
 */
import { type Engine, isKytError, type ReportRequest } from "@openkyt/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createPdfRenderer, createPdfRendererPool, type PdfRendererPool, robotoFonts } from "../src/index.js";
import { CREATION_DATE, registerSamples, sampleRequests, worldEngine } from "./report-fixtures.js";

let engine: Engine;
let requests: ReportRequest[];
let pool: PdfRendererPool;

beforeAll(async () => {
  ({ engine, requests } = await sampleRequests());
  pool = createPdfRendererPool({ threads: 2, deterministic: { creationDate: CREATION_DATE } });
});
afterAll(async () => {
  await pool.close();
  await engine.stop();
});

/** The error a promise rejects with (fails the test when it resolves). */
async function failure(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => expect.fail("expected the render to fail"),
    (error: unknown) => error,
  );
}

describe("a PDF renderer pool", () => {
  it("renders the bytes one renderer renders, for more reports at once than threads", async () => {
    expect(pool.threads).toBe(2);
    const one = createPdfRenderer({ deterministic: { creationDate: CREATION_DATE } });
    const expected = await Promise.all(requests.map((r) => one.render(r)));
    const all = await Promise.all([...requests, ...requests, ...requests].map((r) => pool.render(r)));
    all.forEach((bytes, i) => {
      expect(Buffer.from(bytes).equals(Buffer.from(expected[i % requests.length] ?? []))).toBe(true);
    });
  });

  it("serves an engine as its report renderer", async () => {
    const pooled = await worldEngine(pool);
    try {
      const s = await registerSamples(pooled);
      const { bytes, fileName } = await s.acme.transferReport(s.deposit);
      expect(Buffer.from(bytes).subarray(0, 5).toString("latin1")).toBe("%PDF-");
      expect(fileName).toContain(s.deposit);
    } finally {
      await pooled.stop();
    }
  });

  it("fails a report it cannot render with INTERNAL_ERROR and its cause, and renders the next", async () => {
    const base = requests[0] as ReportRequest;
    const broken = { ...base, data: { ...base.data, transfer: null } } as unknown as ReportRequest;
    const error = await failure(pool.render(broken));
    expect(isKytError(error, "INTERNAL_ERROR")).toBe(true);
    expect((error as Error).message).toContain(base.reportId);
    expect((error as Error).cause).toBeInstanceOf(Error);
    expect((await pool.render(base)).byteLength).toBeGreaterThan(1000);
  });

  it("fails a request that cannot be sent to a thread with INTERNAL_ERROR, and renders the next", async () => {
    const base = requests[0] as ReportRequest;
    const unsendable = { ...base, reportId: "unsendable", extra: () => 1 } as unknown as ReportRequest;
    const error = await failure(pool.render(unsendable));
    expect(isKytError(error, "INTERNAL_ERROR")).toBe(true);
    expect((error as Error).message).toContain("unsendable");
    expect((await pool.render(base)).byteLength).toBeGreaterThan(1000);
  });

  it("fails every waiting report with INTERNAL_ERROR when its threads cannot start", async () => {
    const garbage = new Uint8Array(64);
    const broken = createPdfRendererPool({
      threads: 2,
      fonts: { ...robotoFonts(), normal: garbage, bold: garbage },
    });
    try {
      const errors = await Promise.all(requests.map((r) => failure(broken.render(r))));
      for (const error of errors) expect(isKytError(error, "INTERNAL_ERROR")).toBe(true);
    } finally {
      await broken.close();
    }
  });

  it("renders what was asked for before close, then fails renders with ENGINE_STOPPED", async () => {
    const closing = createPdfRendererPool({ threads: 1 });
    const pending = requests.map((r) => closing.render(r));
    const closed = closing.close();
    expect(closing.close()).toBe(closed);
    const done = await Promise.all(pending);
    for (const bytes of done) expect(Buffer.from(bytes).subarray(0, 5).toString("latin1")).toBe("%PDF-");
    await closed;
    const error = await failure(closing.render(requests[0] as ReportRequest));
    expect(isKytError(error, "ENGINE_STOPPED")).toBe(true);
  });
});
