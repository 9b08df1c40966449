import type { KytHttpError, RiskModelBody, RiskModelReplaceBody } from "@openkyt/client";
import { riskModelResponseSchema, riskModelVersionResponseSchema } from "@openkyt/core";
import { TX, W } from "@openkyt/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { rejection, type Served, serve } from "./http-harness.js";
import { rawRequest } from "./raw-request.js";
import { expectWire } from "./wire-expect.js";

type RuleBody = NonNullable<RiskModelBody["rules"]>[number];

/** A rule that makes any exchange interaction of half the funds high. */
const exchangeRule: RuleBody = {
  rule_type: "origin_of_funds",
  rule_sub_type: "all",
  entity_category: "exchange",
  min_value_in_fiat: null,
  min_value_share: 0.5,
  risk_level: "high",
};
const strict = { name: "Strict", rules: [exchangeRule] } satisfies RiskModelBody;
const lenient = {
  ...strict,
  name: "Strict, softened",
  rules: [{ ...exchangeRule, risk_level: "low" }],
  change_reason: "Exchanges are low risk",
} satisfies RiskModelReplaceBody;
const exchangeDeposit = {
  direction: "incoming" as const,
  network: "ETH",
  tx_hash: TX.exchangeDeposit,
  output_address: W.client,
};

describe("risk models over HTTP", () => {
  let s: Served;
  beforeAll(async () => {
    s = await serve();
  });
  afterAll(async () => {
    await s.close();
  });

  it("the built-in model is listed, readable and copyable, but PUT and DELETE are 409", async () => {
    const models = expectWire(z.array(riskModelResponseSchema), await s.acme.listRiskModels());
    const builtin = models[0] ?? expect.fail("no model");
    expect(builtin).toMatchObject({ id: "default", is_builtin: true, is_default: true, created_at: null });
    expect(await s.acme.getRiskModel("default")).toEqual(builtin);
    for (const attempt of [
      () => s.acme.replaceRiskModel("default", { ...strict, change_reason: "try" }),
      () => s.acme.deleteRiskModel("default"),
    ]) {
      expect(await rejection(attempt())).toMatchObject({ status: 409, code: "ILLEGAL_TRANSITION" });
    }
    expect(await s.acme.getRiskModel("default")).toEqual(builtin);

    const answer = await s.acme.send("POST", "/v1/risk-models/", {
      body: { name: "My copy", copy_from: "default" },
    });
    expect(answer.status).toBe(201);
    const copy = expectWire(riskModelResponseSchema, answer.body);
    expect(copy).toMatchObject({ name: "My copy", version: 1, is_builtin: false, is_default: false });
    expect(copy.rules).toEqual(builtin.rules);
    expect(copy.id).not.toBe("default");
    // The copy is editable.
    expect(
      (
        await s.acme.replaceRiskModel(copy.id, {
          name: "My copy",
          rules: strict.rules,
          change_reason: "strict",
        })
      ).version,
    ).toBe(2);
  });

  it("an edit after a check leaves the old result intact; a recheck uses the new version", async () => {
    const model = await s.acme.createRiskModel(strict);
    const registered = await s.acme.registerTransfer({ ...exchangeDeposit, risk_model: model.id });
    await s.h.engine.drain();
    const before = await s.acme.getTransfer(registered.id);
    expect(before.risk_level).toBe("high");
    const risksBefore = await s.acme.getTransferRisks(registered.id);
    expect(risksBefore.map((r) => r.rule?.entity_category)).toContain("exchange");
    expect((await s.h.store.getTransfer(registered.id))?.riskModelVersion).toBe(`${model.id}@1`);

    const edited = expectWire(riskModelResponseSchema, await s.acme.replaceRiskModel(model.id, lenient));
    expect(edited).toMatchObject({ id: model.id, version: 2, name: "Strict, softened" });
    expect(edited.rules[0]?.risk_level).toBe("low");
    expect(await s.acme.getRiskModel(model.id)).toEqual(edited);
    await s.h.engine.drain();
    expect(await s.acme.getTransfer(registered.id)).toEqual(before);
    expect(await s.acme.getTransferRisks(registered.id)).toEqual(risksBefore);

    await s.acme.registerTransfer({ ...exchangeDeposit, force_recheck: true });
    await s.h.engine.drain();
    expect((await s.acme.getTransfer(registered.id)).risk_level).toBe("low");
    expect((await s.h.store.getTransfer(registered.id))?.riskModelVersion).toBe(`${model.id}@2`);
  });

  it("a manual check names a model by id and records its version", async () => {
    const model = await s.acme.createRiskModel({ ...strict, name: "For checks" });
    const check = await s.acme.checkTransfer({ ...exchangeDeposit, risk_model: model.id });
    await s.h.engine.drain();
    expect((await s.acme.getManualCheck(check.id)).risk_level).toBe("high");
    const plain = await s.acme.checkTransfer(exchangeDeposit);
    await s.h.engine.drain();
    expect((await s.acme.getManualCheck(plain.id)).risk_level).not.toBe("high");
  });

  it("one model can be the account's default; deleting it falls back to the built-in model", async () => {
    const chosen = await s.acme.createRiskModel({ ...strict, name: "House", is_default: true });
    expect(chosen.is_default).toBe(true);
    const listed = await s.acme.listRiskModels();
    expect(listed.filter((m) => m.is_default).map((m) => m.id)).toEqual([chosen.id]);
    const deleted = await s.acme.send("DELETE", `/v1/risk-models/${chosen.id}`);
    expect(deleted).toMatchObject({ status: 200, body: { id: chosen.id, deleted: true } });
    expect(await rejection(s.acme.getRiskModel(chosen.id))).toMatchObject({ status: 404 });
    expect((await s.acme.listRiskModels()).map((m) => m.id)).not.toContain(chosen.id);
    expect((await s.acme.getRiskModel("default")).is_default).toBe(true);
    expect(await rejection(s.acme.deleteRiskModel(chosen.id))).toMatchObject({ status: 404 });
  });

  it("risk_model on register, register-attempt and manual checks: an unknown id is a 400 naming it; nothing stored", async () => {
    const counts = async () => [
      (await s.acme.listTransfers()).total_items,
      (await s.acme.listManualChecks()).total_items,
    ];
    const before = await counts();
    const mine = await s.acme.createRiskModel({ ...strict, name: "Mine only" });
    for (const risk_model of ["no-such-model", mine.id]) {
      const client = risk_model === mine.id ? s.other : s.acme;
      for (const attempt of [
        () => client.registerTransfer({ ...exchangeDeposit, tx_hash: TX.usdtDeposit, risk_model }),
        () =>
          client.registerAttempt({
            direction: "incoming",
            network: "ETH",
            input_address: W.exchange,
            risk_model,
          }),
        () => client.checkTransfer({ ...exchangeDeposit, risk_model }),
        () => client.checkAddress({ network: "ETH", address: W.mixer, risk_model }),
      ]) {
        const error = (await rejection(attempt())) as KytHttpError;
        expect(error).toMatchObject({ status: 400, code: "VALIDATION_ERROR" });
        expect(Object.keys(error.errors)).toEqual(["risk_model"]);
      }
    }
    expect(await counts()).toEqual(before);
    expect((await s.other.listTransfers()).total_items).toBe(0);
  });

  it("validates models, naming the field", async () => {
    const cases: Array<[unknown, string]> = [
      [{ name: "Bad", rules: [{ ...exchangeRule, min_value_share: 1.5 }] }, "rules[0].min_value_share"],
      [{ name: "Bad", rules: [{ ...exchangeRule, entity_category: "aliens" }] }, "rules[0].entity_category"],
      [{ name: "Bad", copy_from: "nope" }, "copy_from"],
      [{ name: "Bad" }, "rules"],
      [{ name: "", rules: [] }, "name"],
    ];
    for (const [body, field] of cases) {
      const error = (await rejection(s.acme.createRiskModel(body as RiskModelBody))) as KytHttpError;
      expect(error.status, field).toBe(400);
      expect(Object.keys(error.errors), field).toContain(field);
    }
    const dup = await rejection(s.acme.createRiskModel({ name: "Dup", rules: [exchangeRule, exchangeRule] }));
    expect(dup).toMatchObject({ status: 400, code: "VALIDATION_ERROR" });
    const withBody = await rawRequest(s.server.url, {
      method: "DELETE",
      path: "/v1/risk-models/default/",
      body: JSON.stringify({ force: true }),
    });
    expect(withBody.status).toBe(400);
  });

  it("a new version needs a change reason; the history lists every version with its reason and diff", async () => {
    const model = await s.acme.createRiskModel({ ...strict, name: "Reasoned" });
    // Every field error at once: the missing reason and the bad share, each by its field.
    const refused = (await rejection(
      s.acme.replaceRiskModel(model.id, {
        name: "Reasoned",
        rules: [{ ...exchangeRule, min_value_share: "half" as unknown as number }],
      } as RiskModelReplaceBody),
    )) as KytHttpError;
    expect(refused.status).toBe(400);
    expect(Object.keys(refused.errors).sort()).toEqual(["change_reason", "rules[0].min_value_share"]);
    // A value only the model check refuses (a share above 1) is reported with the missing reason too.
    const both = (await rejection(
      s.acme.replaceRiskModel(model.id, {
        name: "Reasoned",
        rules: [{ ...exchangeRule, min_value_share: 1.5 }],
      } as RiskModelReplaceBody),
    )) as KytHttpError;
    expect(Object.keys(both.errors).sort()).toEqual(["change_reason", "rules[0].min_value_share"]);
    expect(both.message).toContain("rule 1 min_value_share");
    expect((await s.acme.getRiskModel(model.id)).version).toBe(1);

    const mixer: RuleBody = { ...exchangeRule, entity_category: "mixer", risk_level: "severe" };
    await s.acme.replaceRiskModel(model.id, {
      ...lenient,
      name: "Reasoned",
      rules: [{ ...exchangeRule, risk_level: "low" }, mixer],
    });
    const latest = await s.acme.getRiskModel(model.id);
    expect(latest).toMatchObject({ version: 2, change_reason: "Exchanges are low risk" });
    const versions = expectWire(
      z.array(riskModelVersionResponseSchema),
      await s.acme.riskModelVersions(model.id),
    );
    expect(versions.map((v) => [v.version, v.change_reason])).toEqual([
      [2, "Exchanges are low risk"],
      [1, null],
    ]);
    expect(versions[1]?.diff).toBeNull();
    expect(versions[0]?.diff).toMatchObject({
      added: [{ number: 2, rule: { entity_category: "mixer", risk_level: "severe" } }],
      removed: [],
      changed: [{ number: 1, previous_number: 1, fields: ["risk_level"] }],
      unchanged: 0,
    });
    expect(await s.acme.riskModelVersions("default")).toEqual([]);
    expect(await rejection(s.other.riskModelVersions(model.id))).toMatchObject({ status: 404 });
  });

  it("another account's models are 404 and unchanged; PATCH is 405", async () => {
    const model = await s.acme.createRiskModel({ ...strict, name: "Private" });
    for (const attempt of [
      () => s.other.getRiskModel(model.id),
      () => s.other.replaceRiskModel(model.id, lenient),
      () => s.other.deleteRiskModel(model.id),
    ]) {
      expect(await rejection(attempt())).toMatchObject({ status: 404, code: "NOT_FOUND" });
    }
    expect((await s.other.listRiskModels()).map((m) => m.id)).toEqual(["default"]);
    expect(await s.acme.getRiskModel(model.id)).toEqual(model);
    const patch = await rawRequest(s.server.url, {
      method: "PATCH",
      path: `/v1/risk-models/${model.id}/`,
      body: "{}",
    });
    expect(patch.status).toBe(405);
    expect(patch.headers.get("allow")).toBe("GET, PUT, DELETE");
  });
});
