import { beforeEach, describe, expect, it } from "vitest";
import { loadWorld, TX, W } from "../../../testkit/src/engine-world.js";
import { createEngine, type Engine } from "../../src/engine/create-engine.js";
import { isKytError } from "../../src/errors.js";
import type { Store } from "../../src/ports/store.js";
import { createMemoryStore } from "../../src/store/index.js";

let engine: Engine;
let store: Store;
beforeEach(async () => {
  store = createMemoryStore();
  engine = createEngine({ store });
  await loadWorld(engine);
});
const acme = () => engine.forAccount("acme");

/** A model that makes any exchange interaction high. */
const exchangeRule = {
  rule_type: "origin_of_funds",
  rule_sub_type: "all",
  entity_category: "exchange",
  min_value_in_fiat: null,
  min_value_share: 0.5,
  risk_level: "high",
} as const;
const strict = { name: "Strict", rules: [exchangeRule] };

describe("risk models", () => {
  it("lists the built-in model, which can be read and copied but not changed or deleted", async () => {
    const models = await acme().riskModels.list();
    expect(models[0]).toMatchObject({ id: "default", is_builtin: true, is_default: true });
    expect(models[0]?.rules.length).toBeGreaterThan(100);
    const copy = await acme().riskModels.create({ name: "My copy", copy_from: "default" });
    expect(copy.rules).toEqual(models[0]?.rules);
    expect(
      isKytError(
        await acme()
          .riskModels.replace("default", { ...strict, change_reason: "try" })
          .catch((e) => e),
        "ILLEGAL_TRANSITION",
      ),
    ).toBe(true);
    expect(
      isKytError(
        await acme()
          .riskModels.remove("default")
          .catch((e) => e),
        "ILLEGAL_TRANSITION",
      ),
    ).toBe(true);
  });

  it("validates models, naming the field", async () => {
    const bad = await acme()
      .riskModels.create({ name: "Bad", rules: [{ ...exchangeRule, min_value_share: 1.5 }] })
      .catch((e) => e);
    expect(isKytError(bad, "VALIDATION_ERROR")).toBe(true);
    expect(Object.keys(bad.errors)).toEqual(["rules[0].min_value_share"]);
    const unknown = await acme()
      .riskModels.create({ name: "Bad", rules: [{ ...exchangeRule, entity_category: "aliens" }] })
      .catch((e) => e);
    expect(Object.keys(unknown.errors)).toEqual(["rules[0].entity_category"]);
    const dup = await acme()
      .riskModels.create({ name: "Dup", rules: [exchangeRule, exchangeRule] })
      .catch((e) => e);
    expect(isKytError(dup, "VALIDATION_ERROR")).toBe(true);
    const unknownModel = await acme()
      .registerTransfer({
        direction: "incoming",
        network: "ETH",
        tx_hash: TX.exchangeDeposit,
        output_address: W.client,
        risk_model: "nope",
      })
      .catch((e) => e);
    expect(Object.keys(unknownModel.errors)).toEqual(["risk_model"]);
  });

  it("an edit after a check leaves the old result intact; the transfer records the version that checked it", async () => {
    const model = await acme().riskModels.create(strict);
    const { transfer } = await acme().registerTransfer({
      direction: "incoming",
      network: "ETH",
      tx_hash: TX.exchangeDeposit,
      output_address: W.client,
      risk_model: model.id,
    });
    await engine.drain();
    const before = await acme().getTransfer(transfer.id);
    expect(before.risk_level).toBe("high");
    expect((await store.getTransfer(transfer.id))?.riskModelVersion).toBe(`${model.id}@1`);
    const risksBefore = await acme().getTransferRisks(transfer.id);
    const edited = await acme().riskModels.replace(model.id, {
      ...strict,
      rules: [{ ...exchangeRule, risk_level: "low" }],
      change_reason: "Exchanges are low risk",
    });
    expect(edited.version).toBe(2);
    expect(await acme().getTransfer(transfer.id)).toEqual(before);
    expect(await acme().getTransferRisks(transfer.id)).toEqual(risksBefore);
    // A recheck uses the new version.
    await acme().registerTransfer({
      direction: "incoming",
      network: "ETH",
      tx_hash: TX.exchangeDeposit,
      output_address: W.client,
      force_recheck: true,
    });
    await engine.drain();
    expect((await acme().getTransfer(transfer.id)).risk_level).toBe("low");
    expect((await store.getTransfer(transfer.id))?.riskModelVersion).toBe(`${model.id}@2`);
  });

  it("one model per account can be the default, used when a request names none", async () => {
    const model = await acme().riskModels.create({ ...strict, is_default: true });
    expect((await acme().riskModels.get(model.id)).is_default).toBe(true);
    expect((await acme().riskModels.get("default")).is_default).toBe(false);
    const other = await acme().riskModels.create({ ...strict, name: "Other", is_default: true });
    expect((await acme().riskModels.get(model.id)).is_default).toBe(false);
    const { transfer } = await acme().registerTransfer({
      direction: "incoming",
      network: "ETH",
      tx_hash: TX.exchangeDeposit,
      output_address: W.client,
    });
    expect((await store.getTransfer(transfer.id))?.riskModelId).toBe(other.id);
    // Another account is not affected; deleting the default falls back to the built-in model.
    const theirs = await engine.forAccount("other").registerTransfer({
      direction: "incoming",
      network: "ETH",
      tx_hash: TX.exchangeDeposit,
      output_address: W.client,
    });
    expect((await store.getTransfer(theirs.transfer.id))?.riskModelId).toBeNull();
    await acme().riskModels.remove(other.id);
    expect((await acme().riskModels.get("default")).is_default).toBe(true);
    expect(
      isKytError(
        await acme()
          .riskModels.get(other.id)
          .catch((e) => e),
        "NOT_FOUND",
      ),
    ).toBe(true);
    expect(
      isKytError(
        await engine
          .forAccount("other")
          .riskModels.get(model.id)
          .catch((e) => e),
        "NOT_FOUND",
      ),
    ).toBe(true);
  });
});
