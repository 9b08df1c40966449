import { createPdfRenderer } from "@openkyt/pdf";
import { TX, W } from "@openkyt/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { compactText, pdfText, popplerMissing } from "../../pdf/test/poppler-tools.js";
import { type Served, serve } from "./http-harness.js";

const missing = popplerMissing();
const wait = { timeoutMs: 15_000, intervalMs: 20 };

/**
 * The reports over HTTP with the real renderer (pdfmake), read back with pdftotext as a person's
 * viewer would: what the transfer's PDF says is what the engine found.
 */
describe.skipIf(missing !== null)("PDF reports over HTTP, rendered for real", () => {
  let s: Served;
  beforeAll(async () => {
    s = await serve({ engine: { reportRenderer: createPdfRenderer() } });
    s.h.engine.start();
  });
  afterAll(async () => {
    await s.close();
  });

  it("the transfer report names the transfer, its parties, its risk and the path to the sanctioned address", async () => {
    const registered = await s.acme.registerTransfer({
      direction: "incoming",
      network: "ETH",
      tx_hash: TX.deposit,
      output_address: W.client,
    });
    const checked = await s.acme.waitUntilChecked(registered.id, wait);
    expect(checked.risk_level).toBe("severe");
    const report = await s.acme.transferReport(registered.id);
    expect(new TextDecoder().decode(report.bytes.subarray(0, 5))).toBe("%PDF-");
    expect(report.fileName).toBe(`openkyt-transfer-${registered.id}.pdf`);
    const text = pdfText(report.bytes);
    expect(compactText(report.bytes)).toContain(TX.deposit);
    expect(text).toContain(W.b);
    expect(text).toContain(W.client);
    expect(text).toContain(`${W.b} › ${W.a} › ${W.sanctioned}`);
    expect(text.toLowerCase()).toContain("severe");
    const short = pdfText((await s.acme.transferReport(registered.id, { withRisks: false })).bytes);
    expect(short).toContain(W.client);
    expect(short.length).toBeLessThan(text.length);
  });

  it("the manual check report names the address checked and its sanctions listing", async () => {
    const check = await s.acme.checkAddress({ network: "ETH", address: W.sanctioned }, { wait: 10 });
    expect(check.check_status).toBe("checked");
    const report = await s.acme.manualCheckReport(check.id);
    expect(new TextDecoder().decode(report.bytes.subarray(0, 5))).toBe("%PDF-");
    const text = pdfText(report.bytes);
    expect(compactText(report.bytes)).toContain(W.sanctioned);
    expect(text).toContain("OFAC SDN");
  });
});
