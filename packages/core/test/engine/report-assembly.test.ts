import { describe, expect, it } from "vitest";
// The hand-made world of the engine scenarios, by path (core cannot depend on testkit).
import { loadWorld, TX, W } from "../../../testkit/src/engine-world.js";
import { createEngine } from "../../src/engine/create-engine.js";
import { isKytError } from "../../src/errors.js";
import type { ReportRequest } from "../../src/ports/report-renderer.js";
import { manualClock } from "../../src/ports/runtime.js";
import { createMemoryStore } from "../../src/store/index.js";

/** A renderer that keeps what it was asked to render (the PDF package renders for real). */
function recordingRenderer() {
  const requests: ReportRequest[] = [];
  return {
    requests,
    async render(request: ReportRequest) {
      requests.push(request);
      return new TextEncoder().encode(`%PDF-${request.data.kind}`);
    },
  };
}

async function setup(withRenderer = true) {
  const renderer = recordingRenderer();
  const engine = createEngine({
    store: createMemoryStore(),
    clock: manualClock(Date.UTC(2024, 0, 2)),
    ...(withRenderer ? { reportRenderer: renderer } : {}),
  });
  await loadWorld(engine);
  return { engine, renderer, acme: engine.forAccount("acme") };
}

describe("report assembly", () => {
  it("hands the renderer the transfer, exposure, counterparty, sanctions, risks and alerts", async () => {
    const { engine, renderer, acme } = await setup();
    const { transfer } = await acme.registerTransfer({
      direction: "incoming",
      network: "ETH",
      tx_hash: TX.deposit,
      output_address: W.client,
    });
    await engine.drain();
    const report = await acme.transferReport(transfer.id, { withRisks: true });
    expect(new TextDecoder().decode(report.bytes)).toBe("%PDF-transfer");
    expect(report.fileName).toBe(`openkyt-transfer-${transfer.id}.pdf`);
    const request = renderer.requests[0];
    expect(request?.withRisks).toBe(true);
    expect(request?.data.kind).toBe("transfer");
    if (request?.data.kind !== "transfer") throw new Error("unreachable");
    expect(request.data.transfer.id).toBe(transfer.id);
    expect(request.data.risks.length).toBeGreaterThan(0);
    expect(request.data.alerts.length).toBe(request.data.risks.length);
    expect(request.data.exposureDetail?.shares.length).toBeGreaterThan(0);
    expect(request.data.riskModel).toMatchObject({ id: "default", version: "default@1" });
    expect(request.data.lastError).toBeNull();
    expect(request.data.autoCheckDisabled).toBe(false);
  });

  it("leaves risks and alerts out of the without-risks variant", async () => {
    const { engine, renderer, acme } = await setup();
    const { transfer } = await acme.registerTransfer({
      direction: "incoming",
      network: "ETH",
      tx_hash: TX.deposit,
      output_address: W.client,
    });
    await engine.drain();
    const report = await acme.transferReport(transfer.id, { withRisks: false });
    expect(report.fileName).toBe(`openkyt-transfer-${transfer.id}-without-risks.pdf`);
    const data = renderer.requests[0]?.data;
    expect(data?.kind === "transfer" && data.risks.length === 0 && data.alerts.length === 0).toBe(true);
  });

  it("reports manual checks, and refuses another account's ids and a missing renderer", async () => {
    const { engine, renderer, acme } = await setup();
    const check = await acme.checkAddress({ network: "ETH", address: W.sanctioned });
    await engine.drain();
    await acme.manualCheckReport(check.id);
    expect(renderer.requests[0]?.data.kind).toBe("manual_check");
    const other = await engine
      .forAccount("other")
      .manualCheckReport(check.id)
      .catch((e) => e);
    expect(isKytError(other, "NOT_FOUND")).toBe(true);
    const bare = await setup(false);
    const c = await bare.acme.checkAddress({ network: "ETH", address: W.sanctioned });
    const missing = await bare.acme.manualCheckReport(c.id).catch((e) => e);
    expect(isKytError(missing, "NOT_CONFIGURED")).toBe(true);
  });
});
