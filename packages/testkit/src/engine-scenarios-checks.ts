/** Manual checks and alerts, run against an engine over any store. */
import { describe, expect, it } from "vitest";
import { failingChainSource, runFor, type StoreFactory, useHarness } from "./engine-harness.js";
import { ETH_USD, TX, W } from "./engine-world.js";

/** Registers the suite. */
export function runCheckAndAlertScenarios(factory: StoreFactory): void {
  describe(`engine manual checks and alerts (${factory.name})`, () => {
    const h = useHarness(factory);

    it("check-transfer: checking, then checked with the transfer filled and risks", async () => {
      const created = await h.acme.checkTransfer({
        network: "ETH",
        tx_hash: TX.deposit,
        output_address: W.client,
        direction: "incoming",
      });
      expect(created).toMatchObject({
        check_type: "deposit",
        check_status: "checking",
        checked_at: null,
        address: null,
        risk_level: "undefined",
      });
      await h.engine.drain();
      const done = await h.acme.getManualCheck(created.id);
      expect(done.check_status).toBe("checked");
      expect(done.checked_at).toMatch(/Z$/);
      expect(done.risk_level).toBe("severe");
      expect(done.risk_score).toBe(1);
      expect(done.transfer).toMatchObject({
        tx_hash: TX.deposit,
        input_address: W.b,
        output_address: W.client,
        amount: 10,
      });
      expect(done.transfer?.value_in_fiat).toBe(10 * ETH_USD);
      const risks = await h.acme.getManualCheckRisks(created.id);
      expect(risks.some((r) => r.entity_category === "sanctions" && r.risk_type === "origin_of_funds")).toBe(
        true,
      );
      const exposure = await h.acme.getManualCheckTransferExposure(created.id);
      expect(exposure.indirect_interaction?.length).toBeGreaterThan(0);
      const listed = await h.acme.listManualChecks({});
      expect(listed.total_items).toBe(1);
      // Manual checks open no alerts.
      expect((await h.acme.listAlerts({})).total_items).toBe(0);
    });

    it("check-address: a sanctioned address is severe at once; a clean one is none", async () => {
      const bad = await h.acme.checkAddress({
        network: "ETH",
        address: W.sanctioned.toUpperCase().replace("0X", "0x"),
      });
      expect(bad).toMatchObject({
        check_type: "single_address",
        transfer: null,
        address: { network: "ETH", address: W.sanctioned },
      });
      const clean = await h.acme.checkAddress({ network: "ETH", address: W.exchange });
      await h.engine.drain();
      expect((await h.acme.getManualCheck(bad.id)).risk_level).toBe("severe");
      expect((await h.acme.getManualCheck(clean.id)).risk_level).toBe("none");
      const cp = await h.acme.getManualCheckAddressExposure(clean.id);
      expect(cp).toMatchObject({ entity_category: "exchange", entity_name: "Big Exchange", exposure: null });
    });

    it("check-transfer of an unknown hash ends in error with the reason", async () => {
      const created = await h.acme.checkTransfer({
        network: "ETH",
        tx_hash: TX.unknown,
        output_address: W.client,
        direction: "incoming",
      });
      await h.engine.drain();
      const done = await h.acme.getManualCheck(created.id);
      expect(done.check_status).toBe("error");
      expect((await h.store.getManualCheck(created.id))?.lastError).toContain("not found");
    });

    it("check-transfer ends in error when the chain source keeps failing", async () => {
      await h.reopen({ chainSource: failingChainSource() });
      const created = await h.acme.checkTransfer({
        network: "ETH",
        tx_hash: TX.deposit,
        output_address: W.client,
        direction: "incoming",
      });
      await runFor(h, 60_000, 1_000);
      const done = await h.acme.getManualCheck(created.id);
      expect(done.check_status).toBe("error");
      expect(done.checked_at).not.toBeNull();
    });

    it("a risk of level low or above opens exactly one alert carrying the rule, category, proximity, value and share", async () => {
      const { transfer } = await h.acme.registerTransfer({
        direction: "incoming",
        network: "ETH",
        tx_hash: TX.mixerDeposit,
        output_address: W.client,
      });
      await h.engine.drain();
      const risks = await h.acme.getTransferRisks(transfer.id);
      expect(risks.length).toBeGreaterThan(0);
      const alerts = await h.acme.listAlerts({});
      expect(alerts.total_items).toBe(risks.length);
      const mixer = alerts.items.find(
        (a) => a.entity_interaction?.entity_category === "mixer" && a.risk_type === "origin_of_funds",
      );
      expect(mixer).toBeDefined();
      expect(mixer).toMatchObject({
        alert_status: "open",
        status: "open",
        updated_at: null,
        fiat_currency: "USD",
      });
      expect(mixer?.type).toBe(mixer?.risk_type);
      expect(mixer?.entity_interaction).toMatchObject({
        proximity: "direct",
        value_share: 1,
        value_in_fiat: 1 * ETH_USD,
      });
      expect(mixer?.entity_interaction?.rule).toMatchObject({
        rule_type: "origin_of_funds",
        entity_category: "mixer",
      });
      expect(mixer?.transfer).toMatchObject({ id: transfer.id, tx_hash: TX.mixerDeposit });
      const single = await h.acme.getAlert(mixer?.id ?? "");
      expect(single.entity_interaction?.interaction).toBe("direct");
      // A recheck that fires the same rules opens no second alert.
      await h.acme.registerTransfer({
        direction: "incoming",
        network: "ETH",
        tx_hash: TX.mixerDeposit,
        output_address: W.client,
        force_recheck: true,
      });
      await h.engine.drain();
      expect((await h.acme.listAlerts({})).total_items).toBe(alerts.total_items);
    });

    it("a transfer whose level is none opens no alert", async () => {
      const { transfer } = await h.acme.registerTransfer({
        direction: "incoming",
        network: "ETH",
        tx_hash: TX.exchangeDeposit,
        output_address: W.client,
      });
      await h.engine.drain();
      expect((await h.acme.getTransfer(transfer.id)).risk_level).toBe("none");
      expect(await h.acme.getTransferRisks(transfer.id)).toEqual([]);
      expect((await h.acme.listAlerts({})).total_items).toBe(0);
    });
  });
}
