import { backtestSettled, type KytHttpError, pollUntil } from "@openkyt/client";
import { createPdfRenderer } from "@openkyt/pdf";
import { TX, W } from "@openkyt/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { compactText, pdfText, popplerMissing } from "../../pdf/test/poppler-tools.js";
import { rejection, type Served, serve } from "./http-harness.js";

/**
 * GET /v1/backtests/{id}/report/ with the real renderer (pdfmake), read back with pdftotext:
 * what the PDF says is what the backtest's report says; 409 until it is done, 404 for another
 * account.
 */
describe.skipIf(popplerMissing() !== null)("backtest PDF report over HTTP, rendered for real", () => {
  let s: Served;
  beforeAll(async () => {
    s = await serve({ engine: { reportRenderer: createPdfRenderer() } });
  });
  afterAll(async () => {
    await s.close();
  });

  it("409 while queued, then the PDF of the done backtest; 404 for another account or an unknown id", async () => {
    // History: an exchange deposit screened by the built-in model (none); the candidate flags it high.
    const { transfer } = await s.h.acme.registerTransfer({
      direction: "incoming",
      network: "ETH",
      tx_hash: TX.exchangeDeposit,
      output_address: W.client,
    });
    await s.h.engine.drain();
    const strict = await s.acme.createRiskModel({
      name: "Strict",
      rules: [
        {
          rule_type: "origin_of_funds",
          rule_sub_type: "all",
          entity_category: "exchange",
          min_value_in_fiat: null,
          min_value_share: 0.5,
          risk_level: "high",
        },
      ],
    });
    const started = await s.acme.backtestRiskModel(strict.id, { from: "2000-01-01", to: "2100-12-31" });
    // Not run yet (no worker: the test drains): no report, and the answer says why.
    const early = (await rejection(s.acme.backtestReport(started.id))) as KytHttpError;
    expect(early.status).toBe(409);
    expect(early.message).toContain(`backtest ${started.id} has no report: it is queued`);
    expect(((await rejection(s.other.backtestReport(started.id))) as KytHttpError).status).toBe(404);
    expect(((await rejection(s.acme.backtestReport("no-such-backtest"))) as KytHttpError).status).toBe(404);

    await s.h.engine.drain();
    const done = await pollUntil("backtest", () => s.acme.getBacktest(started.id), backtestSettled, {
      timeoutMs: 5_000,
      intervalMs: 50,
    });
    const report = done.report ?? expect.fail(`no report: ${done.error}`);
    const pdf = await s.acme.backtestReport(started.id);
    expect(new TextDecoder().decode(pdf.bytes.subarray(0, 5))).toBe("%PDF-");
    expect(pdf.fileName).toBe(`openkyt-backtest-${started.id}.pdf`);
    const text = pdfText(pdf.bytes);
    expect(text).toContain("Backtest report");
    expect(text).toMatch(/Risk model\s+Strict \(/);
    expect(text).toMatch(new RegExp(`Candidate model\\s+Strict \\(version 1\\), ${report.candidate}`));
    expect(text).toContain(`${done.from} .. ${done.to}`);
    expect(text).toMatch(/Transfers\s+1 evaluated, 0 never checked/);
    expect(text).toMatch(/Checked by\s+default@1 \(1\)/);
    expect(text).toContain("1 transfer changes level: 1 up, 0 down; 0 stay the same.");
    expect(text).toMatch(/Alerts by level/);
    expect(text).toMatch(/High\s+0\s+1\s+\+1/);
    expect(text).toMatch(/None\s+1\s+0\s+-1/);
    expect(text).toMatch(/Origin of funds\s+Exchange\s+0\s+1\s+\+1/);
    expect(text).toContain("All 1 (up ones, then down ones):");
    expect(compactText(pdf.bytes)).toContain(transfer.id);
    // The transfer that moves is listed with its hash and its levels, not as a bare id.
    expect(compactText(pdf.bytes)).toContain(transfer.tx_hash ?? "no hash");
    expect(report.moved).toEqual([
      expect.objectContaining({ id: transfer.id, tx_hash: transfer.tx_hash, from: "none", to: "high" }),
    ]);
    expect(report.candidate_model).toMatchObject({ name: "Strict", version: 1 });
    expect(compactText(pdf.bytes)).toContain(started.id);
  });

  it("the OpenAPI document lists the report as a PDF answer", async () => {
    // biome-ignore lint/suspicious/noExplicitAny: a JSON document read by path
    const doc: any = await (await fetch(`${s.server.url}/v1/openapi.json`)).json();
    const op = doc.paths["/v1/backtests/{id}/report/"].get;
    expect(op.operationId).toBe("backtestReport");
    expect(Object.keys(op.responses["200"].content)).toEqual(["application/pdf"]);
    expect(Object.keys(op.responses)).toEqual(expect.arrayContaining(["404", "409"]));
  });
});
