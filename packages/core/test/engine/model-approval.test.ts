import { beforeEach, describe, expect, it } from "vitest";
import { loadWorld } from "../../../testkit/src/engine-world.js";
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
const ANA = { actor: "user:ana@acme.test" };
const BO = { actor: "user:bo@acme.test" };

const rule = (level: "high" | "severe") =>
  ({
    rule_type: "origin_of_funds",
    rule_sub_type: "all",
    entity_category: "exchange",
    min_value_in_fiat: null,
    min_value_share: 0.5,
    risk_level: level,
  }) as const;

/** The version screening uses (the store's version in force), null when none. */
const inForce = async (id: string) => (await store.getRiskModel("acme", id))?.version ?? null;

const codeOf = async (p: Promise<unknown>) => {
  const e = await p.catch((caught) => caught);
  return isKytError(e) ? e.code : "resolved";
};

describe("a second admin's approval of risk model versions", () => {
  it("off by default: a version is in force at once, with no approval, as before", async () => {
    expect(await acme().modelApproval.getSetting()).toEqual({
      required: false,
      updated_at: null,
      updated_by: null,
    });
    const m = await acme().riskModels.create(
      { name: "Strict", rules: [rule("high")], is_default: true },
      ANA,
    );
    expect(m.approval).toBeNull();
    expect(m.is_default).toBe(true);
    expect(await inForce(m.id)).toBe(1);
  });

  it("on: versions wait, the author cannot approve, another admin can; rejections need a reason; all audited", async () => {
    await acme().modelApproval.setSetting({ required: true }, ANA);
    const m = await acme().riskModels.create(
      { name: "Strict", rules: [rule("high")], is_default: true },
      ANA,
    );
    expect(m.approval).toMatchObject({ state: "pending", proposed_by: ANA.actor, make_default: true });
    // Pending: not the default yet, and refused by name.
    expect(m.is_default).toBe(false);
    expect(await inForce(m.id)).toBeNull();
    expect(await codeOf(acme().modelApproval.approve(m.id, { version: 1 }, ANA))).toBe("ILLEGAL_TRANSITION");
    expect(await codeOf(acme().modelApproval.approve(m.id, { version: 1 }, { actor: "key-1" }))).toBe(
      "ILLEGAL_TRANSITION",
    );
    const approved = await acme().modelApproval.approve(m.id, { version: 1 }, BO);
    expect(approved.approval).toMatchObject({ state: "approved", decided_by: BO.actor });
    expect((await acme().riskModels.get(m.id)).is_default).toBe(true);
    expect(await inForce(m.id)).toBe(1);

    // Version 2 waits; version 1 keeps checking; a third is refused while 2 waits.
    await acme().riskModels.replace(
      m.id,
      { name: "Strict", rules: [rule("severe")], change_reason: "stricter" },
      ANA,
    );
    expect(await inForce(m.id)).toBe(1);
    expect(
      await codeOf(
        acme().riskModels.replace(
          m.id,
          { name: "Strict", rules: [rule("high")], change_reason: "again" },
          ANA,
        ),
      ),
    ).toBe("ILLEGAL_TRANSITION");
    expect(await codeOf(acme().modelApproval.reject(m.id, { version: 2, reason: " " }, BO))).toBe(
      "VALIDATION_ERROR",
    );
    const rejected = await acme().modelApproval.reject(m.id, { version: 2, reason: "too strict" }, BO);
    expect(rejected.approval).toMatchObject({ state: "rejected", reason: "too strict" });
    expect(await codeOf(acme().modelApproval.approve(m.id, { version: 2 }, BO))).toBe("ILLEGAL_TRANSITION");
    expect(await inForce(m.id)).toBe(1);

    // Version 3's diff is against version 1 (in force), past the rejected 2.
    await acme().riskModels.replace(
      m.id,
      { name: "Strict", rules: [rule("severe")], change_reason: "v3" },
      ANA,
    );
    const versions = await acme().riskModels.versions(m.id);
    expect(versions.map((v) => [v.version, v.approval?.state ?? null])).toEqual([
      [3, "pending"],
      [2, "rejected"],
      [1, "approved"],
    ]);
    expect(versions[0]?.diff?.changed).toHaveLength(1);
    // Another account sees none of it.
    expect(await codeOf(engine.forAccount("other").modelApproval.approve(m.id, { version: 3 }, BO))).toBe(
      "NOT_FOUND",
    );

    const actions = (await acme().casework.listAudit({ page_size: 50 })).items.map((e) => e.action);
    expect(actions).toEqual(
      expect.arrayContaining([
        "risk_model.approval_setting_changed",
        "risk_model.approved",
        "risk_model.rejected",
      ]),
    );
  });

  it("explorers: https templates with their placeholders, validated at once, audited", async () => {
    expect(
      await codeOf(
        acme().explorers.set(
          { explorers: { ETH: { address: "http://x.example/{address}", tx: "https://x/{tx}" } } },
          BO,
        ),
      ),
    ).toBe("VALIDATION_ERROR");
    const set = await acme().explorers.set(
      { explorers: { ETH: { address: "https://x.example/a/{address}", tx: "https://x.example/t/{tx}" } } },
      BO,
    );
    expect(set.updated_by).toBe(BO.actor);
    expect(await acme().explorers.own()).toEqual({
      ETH: { address: "https://x.example/a/{address}", tx: "https://x.example/t/{tx}" },
    });
    expect(await engine.forAccount("other").explorers.own()).toEqual({});
  });
});
