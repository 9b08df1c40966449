/**
 * OpenKYT's additions to GET /v1/transfers/{id}/exposure/ (docs/http-api.md, "Beyond the
 * published interface"): the sanctions check's listings and the risk model version that made the
 * transfer's risks, which stays the same after the model changes.
 */
import { transferExposureResponseSchema } from "@openkyt/core";
import { depositBody, TX, W } from "@openkyt/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Served, serve } from "./http-harness.js";
import { expectWire } from "./wire-expect.js";

const wait = { timeoutMs: 10_000, intervalMs: 20 };

describe("the exposure answer's sanctions details and model version", () => {
  let s: Served;
  beforeAll(async () => {
    s = await serve();
    s.h.engine.start();
  });
  afterAll(async () => {
    await s.close();
  });

  it("names the list, program, entity and dates of a sanctioned counterparty, and the built-in model", async () => {
    const t = await s.acme.registerTransfer({
      direction: "outgoing",
      network: "eth",
      tx_hash: TX.withdrawalToSanctioned,
      output_address: W.sanctioned,
    });
    await s.acme.waitUntilChecked(t.id, wait);
    const exposure = expectWire(transferExposureResponseSchema, await s.acme.getTransferExposure(t.id));
    expect(exposure.risk_model).toBe("default@1");
    expect(exposure.sanctions).toEqual({
      address: W.sanctioned,
      hit: true,
      listings: [
        {
          network: "ETH",
          address: W.sanctioned,
          list_name: "OFAC SDN",
          program: "CYBER2",
          entity: "Bad Actor",
          listed_at: null,
          delisted_at: null,
          designated_at: null,
        },
      ],
    });
  });

  it("says no listing for a clean counterparty, and keeps the model version that checked it after an edit", async () => {
    const model = await s.acme.createRiskModel({ name: "Mine", copy_from: "default" });
    const t = await s.acme.registerTransfer(depositBody({ risk_model: model.id }));
    await s.acme.waitUntilChecked(t.id, wait);
    const before = expectWire(transferExposureResponseSchema, await s.acme.getTransferExposure(t.id));
    expect(before.sanctions).toEqual({ address: W.b, hit: false, listings: [] });
    expect(before.risk_model).toBe(`${model.id}@1`);
    const v2 = await s.acme.replaceRiskModel(model.id, {
      name: "Mine, v2",
      copy_from: "default",
      change_reason: "back to the built-in rules",
    });
    expect(v2.version).toBe(2);
    const after = expectWire(transferExposureResponseSchema, await s.acme.getTransferExposure(t.id));
    expect(after.risk_model).toBe(`${model.id}@1`);
  });

  it("answers both on a manual transaction check's transfer exposure", async () => {
    const created = await s.acme.checkTransfer({
      network: "ETH",
      tx_hash: TX.deposit,
      output_address: W.client,
      direction: "incoming",
    });
    await s.acme.waitForManualCheck(created.id, wait);
    const exposure = expectWire(
      transferExposureResponseSchema,
      await s.acme.getManualCheckTransferExposure(created.id),
    );
    expect(exposure).toMatchObject({
      sanctions: { address: W.b, hit: false, listings: [] },
      risk_model: "default@1",
    });
  });

  it("answers null for both before a check finished", async () => {
    const t = await s.acme.registerTransfer(
      depositBody({ tx_hash: TX.mixerDeposit, disable_auto_check: true }),
    );
    const exposure = expectWire(transferExposureResponseSchema, await s.acme.getTransferExposure(t.id));
    expect(exposure).toMatchObject({ sanctions: null, risk_model: null, check_status: "none" });
  });
});
