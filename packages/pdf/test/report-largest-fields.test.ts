/**
 * Reports hold with the largest text a row may carry: every entity name of a transfer report
 * (its risks, its exposure, its counterparty) as long as an import accepts
 * (MAX_FREE_TEXT_CHARS, one unbroken word), over 200 risks, renders to a PDF of bounded size.
 * Before the bound, a 32 MB entity name made the PDF worker run out of heap (a 500 after 46 s).
 */
import { type Engine, MAX_FREE_TEXT_CHARS, type ReportRequest } from "@openkyt/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createPdfRenderer } from "../src/index.js";
import {
  CREATION_DATE,
  manyRisksRequest,
  type RecordingRenderer,
  recordingRenderer,
  registerSamples,
  worldEngine,
} from "./report-fixtures.js";

const LONGEST = "W".repeat(MAX_FREE_TEXT_CHARS);
const NAME_KEYS = new Set(["entity_name", "entityName", "counterparty_name", "name"]);

/** `value` with every name field replaced by the longest accepted name. */
function withLongestNames<T>(value: T): T {
  if (Array.isArray(value)) return value.map(withLongestNames) as T;
  if (typeof value !== "object" || value === null) return value;
  return Object.fromEntries(
    Object.entries(value).map(([k, v]) => [
      k,
      NAME_KEYS.has(k) && typeof v === "string" ? LONGEST : withLongestNames(v),
    ]),
  ) as T;
}

let engine: Engine;
let recording: RecordingRenderer;
let base: ReportRequest;

beforeAll(async () => {
  recording = recordingRenderer();
  engine = await worldEngine(recording);
  const s = await registerSamples(engine);
  await s.acme.transferReport(s.deposit);
  const request = recording.rendered.at(-1)?.request;
  if (!request) throw new Error("no report rendered");
  base = request;
});
afterAll(() => engine.stop());

describe("a report with the longest names an import accepts", () => {
  it("renders 200 risks whose every name is the longest accepted, to a bounded PDF", async () => {
    const request = withLongestNames(manyRisksRequest(base, 200));
    expect(JSON.stringify(request)).toContain(LONGEST);
    const renderer = createPdfRenderer({ deterministic: { creationDate: CREATION_DATE } });
    const bytes = await renderer.render(request);
    expect(new TextDecoder().decode(bytes.subarray(0, 5))).toBe("%PDF-");
    expect(bytes.byteLength).toBeLessThan(8 * 1024 * 1024);
  }, 120_000);
});
