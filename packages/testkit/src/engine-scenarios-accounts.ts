/** Account isolation and the list and basics reads, run against an engine over any store. */
import { isKytError } from "@openkyt/core";
import { describe, expect, it } from "vitest";
import { type StoreFactory, useHarness } from "./engine-harness.js";
import { TX, W } from "./engine-world.js";

async function expectNotFound(promise: Promise<unknown>): Promise<void> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(isKytError(error, "NOT_FOUND"), `expected NOT_FOUND, got ${String(error)}`).toBe(true);
}

/** Registers the suite. */
export function runAccountScenarios(factory: StoreFactory): void {
  describe(`engine accounts, lists and basics (${factory.name})`, () => {
    const h = useHarness(factory);

    it("no resource of one account can be read, listed or changed through another", async () => {
      const { transfer } = await h.acme.registerTransfer({
        client_id: "c1",
        direction: "incoming",
        network: "ETH",
        tx_hash: TX.mixerDeposit,
        output_address: W.client,
      });
      const attempt = await h.acme.registerAttempt({
        client_id: "c1",
        direction: "outgoing",
        network: "ETH",
        output_address: W.fresh,
      });
      const check = await h.acme.checkAddress({ network: "ETH", address: W.mixer });
      await h.engine.drain();
      const alerts = await h.acme.listAlerts({});
      expect(alerts.total_items).toBeGreaterThan(0);
      const alertId = alerts.items[0]?.id ?? "";
      const o = h.other;
      await expectNotFound(o.getTransfer(transfer.id));
      await expectNotFound(o.getTransferExposure(transfer.id));
      await expectNotFound(o.getTransferCounterparty(transfer.id));
      await expectNotFound(o.getTransferRisks(transfer.id));
      await expectNotFound(o.recheckCounterparty(transfer.id));
      await expectNotFound(o.recheckExposure(transfer.id));
      await expectNotFound(o.bindTransaction(attempt.id, { tx_hash: TX.withdrawalToSanctioned }));
      await expectNotFound(o.getManualCheck(check.id));
      await expectNotFound(o.getManualCheckRisks(check.id));
      await expectNotFound(o.getManualCheckAddressExposure(check.id));
      await expectNotFound(o.getAlert(alertId));
      expect((await o.listTransfers({ client_id: "c1" })).total_items).toBe(0);
      expect((await o.listTransfers({})).items).toEqual([]);
      expect((await o.listManualChecks({})).total_items).toBe(0);
      expect((await o.listAlerts({ client_id: "c1" })).total_items).toBe(0);
      // Nothing changed on acme's side.
      expect((await h.acme.getTransfer(attempt.id)).tx_status).toBe("none");
      // The same registration in another account is another transfer.
      const theirs = await o.registerTransfer({
        direction: "incoming",
        network: "ETH",
        tx_hash: TX.mixerDeposit,
        output_address: W.client,
      });
      expect(theirs.created).toBe(true);
      expect(theirs.transfer.id).not.toBe(transfer.id);
    });

    it("lists transfers newest first with the spec's filters and pagination", async () => {
      const ids: string[] = [];
      for (const [i, tx] of [TX.deposit, TX.mixerDeposit, TX.exchangeDeposit].entries()) {
        const r = await h.acme.registerTransfer({
          client_id: `c${i}`,
          direction: "incoming",
          network: "ETH",
          tx_hash: tx,
          output_address: W.client,
        });
        ids.push(r.transfer.id);
        h.clock.advance(1_000);
      }
      await h.engine.drain();
      const all = await h.acme.listTransfers({ page_size: "2" });
      expect(all).toMatchObject({ page: 1, page_size: 2, total_items: 3, total_pages: 2 });
      expect(all.items.map((t) => t.id)).toEqual([ids[2], ids[1]]);
      const past = await h.acme.listTransfers({ page: "5", page_size: "2" });
      expect(past.items).toEqual([]);
      expect(past.total_items).toBe(3);
      expect((await h.acme.listTransfers({ client_id: "c1" })).items.map((t) => t.id)).toEqual([ids[1]]);
      expect((await h.acme.listTransfers({ risk_level: "severe" })).items.map((t) => t.id)).toEqual([ids[0]]);
      expect((await h.acme.listTransfers({ input_address: W.mixer })).items.map((t) => t.id)).toEqual([
        ids[1],
      ]);
      expect(
        (await h.acme.listTransfers({ counterparty_category: "exchange" })).items.map((t) => t.id),
      ).toEqual([ids[2]]);
      expect(
        (await h.acme.listTransfers({ occurred_from: "2024-01-01", occurred_to: "2024-01-01" })).total_items,
      ).toBe(3);
      expect((await h.acme.listTransfers({ registered_to: "2023-12-31" })).total_items).toBe(0);
      const bad = await h.acme.listTransfers({ page_size: "1000" }).catch((e) => e);
      expect(isKytError(bad, "VALIDATION_ERROR")).toBe(true);
    });

    it("lists alerts with their filters, including the deprecated ones", async () => {
      await h.acme.registerTransfer({
        client_id: "c9",
        direction: "incoming",
        network: "ETH",
        tx_hash: TX.mixerDeposit,
        output_address: W.client,
      });
      await h.engine.drain();
      const all = await h.acme.listAlerts({});
      expect(all.total_items).toBeGreaterThan(0);
      expect((await h.acme.listAlerts({ entity_category: "mixer" })).total_items).toBe(all.total_items);
      expect((await h.acme.listAlerts({ entity_category: "sanctions" })).total_items).toBe(0);
      expect(
        (await h.acme.listAlerts({ client_id: "c9", network: "ETH", token_id: "native" })).total_items,
      ).toBe(all.total_items);
      expect((await h.acme.listAlerts({ status: "open" })).total_items).toBe(all.total_items);
      expect((await h.acme.listAlerts({ alert_status: "done" })).total_items).toBe(0);
      expect((await h.acme.listAlerts({ interaction: "indirect" })).total_items).toBe(
        all.items.filter((a) => a.entity_interaction?.proximity === "indirect").length,
      );
    });

    it("answers the basics: networks, tokens and the 43 entity categories", async () => {
      const nets = await h.acme.listNetworks({});
      expect(nets.items.map((n) => n.code)).toContain("ETH");
      const cats = await h.acme.listEntityCategories({ page_size: "100" });
      expect(cats.total_items).toBe(43);
      const tokens = await h.acme.listTokens({ network: "ETH" });
      expect(tokens.items.map((t) => t.symbol)).toContain("USDT");
    });
  });
}
