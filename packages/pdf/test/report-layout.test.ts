/**
 * Layout without rendering (the document definitions) and with it (word boxes and page text
 * from poppler): what the without-risks variants leave out, 200 risks over several pages with
 * the header repeated, and long hashes and addresses kept inside the page.
 */
import type { Engine, ReportRequest, TransferReportData } from "@openkyt/core";
import type { Content, ContentTable } from "pdfmake/interfaces";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createPdfRenderer, transferReportDocument } from "../src/index.js";
import { PAGE, PAGE_MARGINS } from "../src/report-styles.js";
import { compactText, pdfInfo, pdfText, pdfWords, popplerMissing } from "./poppler-tools.js";
import {
  CREATION_DATE,
  manyRisksRequest,
  type RecordingRenderer,
  recordingRenderer,
  registerSamples,
  worldEngine,
} from "./report-fixtures.js";

/** Every table of a document's content, depth first. */
function tables(content: unknown): ContentTable[] {
  if (Array.isArray(content)) return content.flatMap(tables);
  if (typeof content !== "object" || content === null) return [];
  const node = content as Record<string, unknown>;
  const own = "table" in node ? [node as unknown as ContentTable] : [];
  return [...own, ...Object.values(node).flatMap(tables)];
}

const headerOf = (t: ContentTable) => (t.table.body[0] ?? []).map((c) => (c as { text?: string }).text ?? "");

let engine: Engine;
let renderer: RecordingRenderer;
let deposit: ReportRequest & { data: TransferReportData };

beforeAll(async () => {
  renderer = recordingRenderer();
  engine = await worldEngine(renderer);
  const s = await registerSamples(engine);
  await s.acme.transferReport(s.deposit);
  const request = renderer.rendered.at(-1)?.request;
  if (request?.data.kind !== "transfer") throw new Error("expected a transfer report");
  deposit = { ...request, data: request.data };
});
afterAll(async () => {
  await engine.stop();
});

describe("report document definitions", () => {
  it("the without-risks document shows nothing of the risks even when the data carries them", () => {
    const withRisks = JSON.stringify(transferReportDocument(deposit).content);
    const without = JSON.stringify(transferReportDocument({ ...deposit, withRisks: false }).content);
    expect(deposit.data.risks.length).toBe(2);
    for (const r of deposit.data.risks) expect(withRisks).toContain(r.rule.rule_type);
    for (const a of deposit.data.alerts) expect(withRisks).toContain(a.id);
    for (const hidden of [
      "origin_of_funds",
      "address_exposure",
      "OVERALL RISK LEVEL",
      "SEVERE",
      '"Risks"',
      '"Alerts"',
    ]) {
      expect(without).not.toContain(hidden);
    }
    for (const a of deposit.data.alerts) expect(without).not.toContain(a.id);
    expect(without).toContain("This report omits the risks detected.");
  });

  it("the risks table repeats its header and never splits a row; 200 risks make 200 rows", () => {
    const doc = transferReportDocument(manyRisksRequest(deposit, 200) as typeof deposit);
    const risks = tables(doc.content).find(
      (t) => headerOf(t).includes("Risk type") && headerOf(t).includes("Share"),
    );
    expect(risks?.table.headerRows).toBe(1);
    expect(risks?.table.dontBreakRows).toBe(true);
    expect(risks?.table.body.length).toBe(201);
  });

  it("says when the trace was truncated by the edge budget", () => {
    const detail = deposit.data.exposureDetail;
    if (detail === null) throw new Error("the deposit has an exposure");
    const complete = JSON.stringify(transferReportDocument(deposit).content);
    const truncated = JSON.stringify(
      transferReportDocument({
        ...deposit,
        data: { ...deposit.data, exposureDetail: { ...detail, truncated: true, edgesRead: 10_000 } },
      }).content,
    );
    expect(complete).toContain("Trace complete: 3 edges read");
    expect(complete).not.toContain("Trace truncated");
    expect(truncated).toContain("Trace truncated");
    expect(truncated).toContain("the edge budget ran out after 10000 edges");
  });

  it("says a bound transfer whose checks are still running is not finished", () => {
    const t = deposit.data.transfer;
    const running = { ...t.check_state, exposure: "checking" as const, sanctions: "queued" as const };
    const doc = JSON.stringify(
      transferReportDocument({
        ...deposit,
        data: { ...deposit.data, transfer: { ...t, check_state: running } },
      }).content,
    );
    expect(doc).toContain("This transfer is not finished.");
    expect(doc).toContain("checks not finished: exposure (checking), sanctions (queued)");
    expect(doc).not.toContain("not bound yet");
    expect(JSON.stringify(transferReportDocument(deposit).content)).not.toContain("not finished");
  });

  it("gives the reason a binding failed, and says when checks were disabled at registration", () => {
    const t = deposit.data.transfer;
    const none = {
      ...t.check_state,
      exposure: "none" as const,
      counterparty: "none" as const,
      sanctions: "none" as const,
    };
    const failed = JSON.stringify(
      transferReportDocument({
        ...deposit,
        data: {
          ...deposit.data,
          transfer: { ...t, tx_status: "error", check_state: none },
          lastError: "the chain source kept failing: rpc down",
        },
      }).content,
    );
    expect(failed).toContain("reason: the chain source kept failing: rpc down");
    const disabled = JSON.stringify(
      transferReportDocument({
        ...deposit,
        data: { ...deposit.data, transfer: { ...t, check_state: none }, autoCheckDisabled: true },
      }).content,
    );
    expect(disabled).toContain("registered with disable_auto_check");
    expect(JSON.stringify(transferReportDocument(deposit).content)).not.toContain("reason:");
  });

  it("carries metadata: title, author OpenKYT, and no date until a renderer sets it", () => {
    const doc = transferReportDocument(deposit);
    expect(doc.info?.author).toBe("OpenKYT");
    expect(doc.info?.title).toContain(deposit.data.transfer.id);
    expect(doc.info?.creationDate).toBeUndefined();
    const rendered = createPdfRenderer({ deterministic: { creationDate: CREATION_DATE } }).document(deposit);
    expect(rendered.info?.creationDate).toEqual(CREATION_DATE);
    expect((rendered.content as Content[]).length).toBe((doc.content as Content[]).length);
  });
});

const missing = popplerMissing();

describe.skipIf(missing !== null)(`rendered layout${missing ? ` (skipped: ${missing})` : ""}`, () => {
  it("lays 200 risks out over several pages, header on each, every page numbered", async () => {
    const bytes = await renderer.render(manyRisksRequest(deposit, 200));
    const pages = Number(pdfInfo(bytes).Pages);
    expect(pages).toBeGreaterThan(5);
    expect(pdfText(bytes).match(/min value/g)?.length).toBe(200);
    let riskPages = 0;
    for (let page = 1; page <= pages; page += 1) {
      const text = pdfText(bytes, { first: page, last: page });
      expect(text).toContain(`Page ${page} of ${pages}`);
      if (/min value/.test(text)) {
        riskPages += 1;
        expect(text).toContain("Rule that fired");
      }
    }
    expect(riskPages).toBeGreaterThan(3);
  });

  it("wraps hashes, addresses and ids too long for a line instead of running off the page", async () => {
    const long = `0x${"ab".repeat(120)}`;
    const hash = `0x${"9f".repeat(90)}`;
    const t = deposit.data.transfer;
    const request = {
      ...deposit,
      data: {
        ...deposit.data,
        transfer: { ...t, input_address: long, tx_hash: hash, client_id: "c".repeat(150) },
        counterparty: { ...deposit.data.counterparty, address: long },
        sanctions: { address: long, hit: false, listings: [] },
        exposureDetail: deposit.data.exposureDetail && {
          ...deposit.data.exposureDetail,
          shares: deposit.data.exposureDetail.shares.map((share) => ({
            ...share,
            path: [long, ...share.path],
          })),
        },
      },
    };
    const bytes = await renderer.render(request);
    const right = PAGE.width - (PAGE_MARGINS as number[])[2]! + 1;
    const words = pdfWords(bytes);
    expect(words.length).toBeGreaterThan(100);
    const outside = words.filter((w) => w.xMax > right || w.yMax > PAGE.height);
    expect(outside).toEqual([]);
    const compact = compactText(bytes);
    expect(compact).toContain(long);
    expect(compact).toContain(hash);
  });
});
