/**
 * Every page of a sample of reports rendered to PNG in test-output/reports/, for a person to look
 * at: a clean deposit, a severe withdrawal to a listed address, a deposit with indirect sanctions
 * exposure (with and without risks), 200 risks, a transfer not bound yet, an address check and a
 * transfer check.
 */
import { statSync } from "node:fs";
import { fileURLToPath } from "node:url";
import type { Engine } from "@openkyt/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { pdfInfo, pdfToPngs, popplerMissing } from "./poppler-tools.js";
import {
  manyRisksRequest,
  type RecordingRenderer,
  recordingRenderer,
  registerSamples,
  type Samples,
  worldEngine,
} from "./report-fixtures.js";

const OUT = fileURLToPath(new URL("../../../test-output/reports/", import.meta.url));
const missing = popplerMissing();

describe.skipIf(missing !== null)(`sample report pages${missing ? ` (skipped: ${missing})` : ""}`, () => {
  let engine: Engine;
  let renderer: RecordingRenderer;
  let s: Samples;
  beforeAll(async () => {
    renderer = recordingRenderer();
    engine = await worldEngine(renderer);
    s = await registerSamples(engine);
  });
  afterAll(async () => {
    await engine.stop();
  });

  it("renders every page of each sample to a PNG", async () => {
    const deposit = await s.acme.transferReport(s.deposit);
    const depositRequest = renderer.rendered.at(-1)?.request;
    if (depositRequest === undefined) throw new Error("no request recorded");
    const samples: Record<string, Uint8Array> = {
      "low-risk-exchange-deposit": (await s.acme.transferReport(s.exchange)).bytes,
      "severe-sanctioned-withdrawal": (await s.acme.transferReport(s.sanctioned)).bytes,
      "indirect-sanctions-deposit": deposit.bytes,
      "indirect-sanctions-deposit-without-risks": (
        await s.acme.transferReport(s.deposit, { withRisks: false })
      ).bytes,
      "two-hundred-risks": await renderer.render(manyRisksRequest(depositRequest, 200)),
      "pending-transfer": (await s.acme.transferReport(s.pending)).bytes,
      "address-check": (await s.acme.manualCheckReport(s.addressCheck)).bytes,
      "transfer-check": (await s.acme.manualCheckReport(s.transferCheck)).bytes,
    };
    for (const [name, bytes] of Object.entries(samples)) {
      const pngs = pdfToPngs(bytes, OUT, name);
      expect(pngs.length).toBe(Number(pdfInfo(bytes).Pages));
      for (const png of pngs) expect(statSync(png).size).toBeGreaterThan(5_000);
    }
  });
});
