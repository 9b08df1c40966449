/**
 * Reports rendered through a real engine (memory store, the testkit's world) and read back with
 * pdftotext: what a compliance officer files must say exactly what the engine knows.
 */
import type { Engine } from "@openkyt/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TX, W } from "../../testkit/src/index.js";
import { compactText, pdfText, popplerMissing } from "./poppler-tools.js";
import { recordingRenderer, registerSamples, type Samples, worldEngine } from "./report-fixtures.js";

const missing = popplerMissing();

/** Rule texts as the risks table prints them. */
const RULE_CODES = ["origin_of_funds", "destination_of_funds", "address_exposure", "/ indirect", "/ direct"];

describe.skipIf(missing !== null)(`PDF report text${missing ? ` (skipped: ${missing})` : ""}`, () => {
  let engine: Engine;
  let s: Samples;
  beforeAll(async () => {
    engine = await worldEngine(recordingRenderer());
    s = await registerSamples(engine);
  });
  afterAll(async () => {
    await engine.stop();
  });

  it("a transfer report says the transfer, its exposure, every risk with its rule and the alerts", async () => {
    const report = await s.acme.transferReport(s.deposit);
    const risks = await s.acme.getTransferRisks(s.deposit);
    const text = pdfText(report.bytes);
    expect(compactText(report.bytes)).toContain(TX.deposit);
    expect(text).toContain(W.b);
    expect(text).toContain(W.client);
    expect(text).toContain("Amount 10 ETH");
    expect(text).toContain("Value 20,000.00 USD");
    expect(text).toContain("2024-01-01 04:00:00 UTC");
    expect(text).toContain(`Report ID ${report.reportId}`);
    expect(text).toContain("Generated 2024-01-02 00:00:00 UTC");
    expect(text).toContain("OpenKYT default (default@1)");
    expect(text).toMatch(/OVERALL RISK LEVEL RISK SCORE SEVERE 1\.00/);
    // The exposure: both indirect categories with share and value, and the path that explains one.
    expect(text).toMatch(/Exchange 70\.0% 14,000\.00 USD 3 Big Exchange/);
    expect(text).toMatch(/Sanctions 30\.0% 6,000\.00 USD 3 Bad Actor/);
    expect(text).toContain(`${W.b} › ${W.a} › ${W.sanctioned}`);
    // ... and the transfers of that path, hop by hop.
    expect(compactText(report.bytes)).toContain(`${TX.aToB}›${TX.sanctionedToA}`);
    expect(text).toContain("Trace complete: 3 edges read");
    expect(risks.length).toBe(2);
    for (const r of risks) {
      const rule = `${r.rule.rule_type} / ${r.rule.rule_sub_type} / ${r.rule.entity_category}`;
      expect(text).toContain(rule);
      const type = r.risk_type === "origin_of_funds" ? "Origin of funds" : "Sender exposure";
      expect(text).toMatch(new RegExp(`Severe ${type} Sanctions \\(indirect\\) .*${rule}`));
    }
    expect(text).toMatch(/Sanctions \(indirect\) 6,000\.00 USD 30\.0% origin_of_funds/);
    expect(text).toContain("min value 10.00 USD; min share 20.0%");
    expect(text).toContain("2 alerts raised, 2 not done.");
    expect(text.match(/ open Severe /g)?.length).toBe(2);
    expect(text).toContain("Page 1 of 2");
    expect(text).toContain("Page 2 of 2");
  });

  it("the without-risks variant names no risk, no rule, no alert, no level and says so", async () => {
    const fullCompact = compactText((await s.acme.transferReport(s.deposit)).bytes);
    const report = await s.acme.transferReport(s.deposit, { withRisks: false });
    const text = pdfText(report.bytes);
    expect(text).toContain("This report omits the risks detected.");
    expect(text).toContain("Transfer report (without risks)");
    expect(compactText(report.bytes)).toContain(TX.deposit);
    expect(text).toContain("Exposure: origin of funds");
    for (const hidden of [
      ...RULE_CODES,
      "OVERALL RISK LEVEL",
      "RISK SCORE",
      "SEVERE",
      "Severe",
      "Alerts",
      "Risks",
    ]) {
      expect(text).not.toContain(hidden);
    }
    const alerts = (await s.acme.listAlerts({})).items.filter((a) => a.transfer?.id === s.deposit);
    expect(alerts.length).toBe(2);
    for (const a of alerts) {
      expect(fullCompact).toContain(a.id);
      expect(compactText(report.bytes)).not.toContain(a.id);
    }
  });

  it("a severe withdrawal to a listed address shows the listing with its list and program", async () => {
    const text = pdfText((await s.acme.transferReport(s.sanctioned)).bytes);
    expect(text).toMatch(/OVERALL RISK LEVEL RISK SCORE SEVERE 1\.00/);
    expect(text).toContain("LISTED: the address is on a sanctions list.");
    expect(text).toMatch(/OFAC SDN CYBER2 Bad Actor from the start of the list still listed/);
    expect(text).toContain("Direct interaction Bad Actor (Sanctions)");
    expect(text).toContain("destination_of_funds / direct / sanctions");
    expect(text).toContain("entity / direct / sanctions");
    expect(text).toContain("Outgoing (a withdrawal by the client)");
  });

  it("a clean deposit from an exchange says no risk and no listing", async () => {
    const text = pdfText((await s.acme.transferReport(s.exchange)).bytes);
    expect(text).toMatch(/OVERALL RISK LEVEL RISK SCORE NONE 0\.00/);
    expect(text).toContain("No rule of the risk model fired");
    expect(text).toContain("Direct interaction Big Exchange (Exchange)");
    expect(text).toContain("No listing: the address is on none of the sanctions lists checked.");
    expect(text).toContain("No alert was raised for this transfer.");
  });

  it("a transfer not bound yet still gets a report that says what is pending", async () => {
    const text = pdfText((await s.acme.transferReport(s.pending)).bytes);
    expect(text).toContain("This transfer is not finished.");
    expect(text).toContain("the transaction is not bound yet (binding in progress)");
    expect(text).toContain("exposure (queued), counterparty (queued), sanctions (queued)");
    expect(text).toMatch(/OVERALL RISK LEVEL RISK SCORE NOT COMPUTED —/);
    expect(text).toContain("No risk is computed yet");
    expect(text).toContain("Sender (input address) not known yet");
    expect(compactText((await s.acme.transferReport(s.pending)).bytes)).toContain(TX.unknown);
  });

  it("an address check report shows the address, its exposure, sanctions and risks", async () => {
    const report = await s.acme.manualCheckReport(s.addressCheck);
    const text = pdfText(report.bytes);
    expect(report.fileName).toBe(`openkyt-manual-check-${s.addressCheck}.pdf`);
    expect(text).toContain("Manual check report");
    expect(text).toContain("Check type Single address");
    expect(text).toContain(`Address ${W.b}`);
    expect(text).toContain("Address exposure");
    expect(text).toMatch(/Exchange 70\.0%/);
    expect(text).toContain("address_exposure / all / sanctions");
    expect(text).toMatch(/OVERALL RISK LEVEL RISK SCORE SEVERE 1\.00/);
    expect(text).not.toContain("Alerts");
    const without = pdfText((await s.acme.manualCheckReport(s.addressCheck, { withRisks: false })).bytes);
    expect(without).toContain("This report omits the risks detected.");
    for (const hidden of [...RULE_CODES, "OVERALL RISK LEVEL", "SEVERE", "Risks"]) {
      expect(without).not.toContain(hidden);
    }
  });

  it("a transfer check report shows the checked transfer and its origin of funds", async () => {
    const report = await s.acme.manualCheckReport(s.transferCheck);
    const text = pdfText(report.bytes);
    expect(text).toContain("Checked transfer");
    expect(text).toContain("Check type Deposit");
    expect(compactText(report.bytes)).toContain(TX.deposit);
    expect(text).toContain("Amount 10 ETH");
    expect(text).toContain("Exposure: origin of funds");
    expect(text).toContain("origin_of_funds / indirect / sanctions");
  });
});
