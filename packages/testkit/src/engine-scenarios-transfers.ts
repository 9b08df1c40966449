/**
 * The transfer lifecycles of the spec's "States and transitions" tables, run against an
 * engine over any store. Each step asserts the fields the spec says change.
 */
import { isKytError } from "@openkyt/core";
import { describe, expect, it } from "vitest";
import { failingChainSource, runFor, type StoreFactory, useHarness } from "./engine-harness.js";
import { depositBody, ETH_USD, HOUR, TX, W } from "./engine-world.js";

const deposit = depositBody;

/** Registers the suite. */
export function runTransferLifecycleScenarios(factory: StoreFactory): void {
  describe(`engine transfer lifecycles (${factory.name})`, () => {
    const h = useHarness(factory);

    it("batch registration: valid items stored together and screened, refused ones answered in place", async () => {
      const items = [
        deposit(),
        deposit({ direction: "sideways" }),
        deposit({ tx_hash: TX.mixerDeposit, client_id: "client-2" }),
        deposit(),
        deposit({ tx_hash: TX.exchangeDeposit, risk_model: "no-such-model" }),
      ];
      // Two items are invalid on purpose (a direction and a model the engine refuses).
      const results = await h.acme.registerTransfers(items as never);
      expect(results.map((r) => r.ok)).toEqual([true, false, true, true, false]);
      const [first, badDirection, mixer, again, badModel] = results;
      if (!first?.ok || !mixer?.ok || !again?.ok) throw new Error("expected registrations");
      expect([first.created, mixer.created, again.created]).toEqual([true, true, false]);
      // The same transfer twice in one batch is one transfer.
      expect(again.transfer.id).toBe(first.transfer.id);
      expect(first.transfer).toMatchObject({ tx_status: "binding", client_id: "client-1" });
      for (const [refused, field] of [
        [badDirection, "direction"],
        [badModel, "risk_model"],
      ] as const) {
        if (refused?.ok !== false) throw new Error("expected a refusal");
        expect(isKytError(refused.error, "VALIDATION_ERROR")).toBe(true);
        expect(Object.keys(refused.error.errors)).toContain(field);
      }
      expect((await h.acme.listTransfers({})).total_items).toBe(2);
      await h.engine.drain();
      expect(await h.acme.getTransfer(first.transfer.id)).toMatchObject({
        tx_status: "bound",
        risk_level: "severe",
      });
      expect(await h.acme.getTransfer(mixer.transfer.id)).toMatchObject({
        tx_status: "bound",
        risk_level: "medium",
      });
      // Idempotent like the single registration: known transfers come back, not created.
      const repeated = await h.acme.registerTransfers([items[2]!, items[0]!]);
      expect(repeated.map((r) => (r.ok ? [r.created, r.transfer.id] : null))).toEqual([
        [false, mixer.transfer.id],
        [false, first.transfer.id],
      ]);
      expect((await h.acme.listTransfers({})).total_items).toBe(2);
    });

    it("batch registration: the list itself must hold 1 to 1,000 items", async () => {
      for (const bodies of [[], Array.from({ length: 1_001 }, () => deposit()), "not a list", undefined]) {
        // Not a list of 1 to 1,000 on purpose: refused at run time, whatever the types say.
        const error = await h.acme.registerTransfers(bodies as never).catch((e: unknown) => e);
        expect(isKytError(error, "VALIDATION_ERROR")).toBe(true);
        expect(isKytError(error) && Object.keys(error.errors)).toEqual(["transfers"]);
      }
      expect((await h.acme.listTransfers({})).total_items).toBe(0);
    });

    it("full transfer: registered as binding with checks queued, then bound, enriched and checked", async () => {
      const { transfer, created } = await h.acme.registerTransfer(
        deposit({ output_address: W.client.toUpperCase().replace("0X", "0x") }),
      );
      expect(created).toBe(true);
      expect(transfer).toMatchObject({
        tx_status: "binding",
        tx_hash: TX.deposit,
        token_id: "native",
        output_address: W.client,
        occurred_at: null,
        input_address: null,
        amount: null,
        value_in_fiat: null,
        risk_level: "undefined",
        risk_score: null,
        direction: "incoming",
        fiat_currency: "USD",
      });
      expect(transfer.check_state.exposure).toBe("queued");
      await h.engine.drain();
      const bound = await h.acme.getTransfer(transfer.id);
      expect(bound).toMatchObject({
        tx_status: "bound",
        input_address: W.b,
        output_address: W.client,
        amount: 10,
        value_in_fiat: 10 * ETH_USD,
        occurred_at: "2024-01-01T04:00:00.000000+00:00",
      });
      expect(bound.check_state).toMatchObject({
        exposure: "checked",
        counterparty: "checked",
        sanctions: "checked",
      });
      expect(bound.check_state.exposure_checked_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/);
      // 30% of the funds come from a sanctioned address two hops back.
      expect(bound.risk_level).toBe("severe");
      expect(bound.risk_score).toBe(1);
      const exposure = await h.acme.getTransferExposure(transfer.id);
      expect(exposure.direct_interaction).toBeNull();
      const shares = Object.fromEntries(
        (exposure.indirect_interaction ?? []).map((i) => [i.entity_category, i.value_share]),
      );
      expect(shares.sanctions).toBeCloseTo(0.3, 12);
      expect(shares.exchange).toBeCloseTo(0.7, 12);
    });

    it("re-registering returns the same transfer and checks nothing again", async () => {
      const first = await h.acme.registerTransfer(deposit());
      await h.engine.drain();
      const again = await h.acme.registerTransfer(deposit({ token_id: "native" }));
      expect(again.created).toBe(false);
      expect(again.transfer.id).toBe(first.transfer.id);
      expect(again.transfer.check_state.exposure).toBe("checked");
      expect(await h.store.listJobs(first.transfer.id)).toHaveLength(0);
    });

    it("force_recheck queues the checks of a known transfer again", async () => {
      const first = await h.acme.registerTransfer(deposit());
      await h.engine.drain();
      const again = await h.acme.registerTransfer(deposit({ force_recheck: true }));
      expect(again.transfer.id).toBe(first.transfer.id);
      expect(again.transfer.check_state).toMatchObject({
        exposure: "queued",
        counterparty: "queued",
        sanctions: "queued",
      });
      await h.engine.drain();
      const after = await h.acme.getTransfer(first.transfer.id);
      expect(after.check_state.exposure).toBe("checked");
      expect(after.risk_level).toBe("severe");
    });

    it("disable_auto_check binds the transfer but runs no check", async () => {
      const { transfer } = await h.acme.registerTransfer(deposit({ disable_auto_check: true }));
      expect(transfer.check_state).toMatchObject({
        exposure: "none",
        counterparty: "none",
        sanctions: "none",
      });
      await h.engine.drain();
      const after = await h.acme.getTransfer(transfer.id);
      expect(after.tx_status).toBe("bound");
      expect(after.check_state).toMatchObject({ exposure: "none", counterparty: "none", sanctions: "none" });
      expect(after.risk_level).toBe("undefined");
    });

    it("a hash the chain source does not know ends not_found after the binding window", async () => {
      const { transfer } = await h.acme.registerTransfer(deposit({ tx_hash: TX.unknown }));
      await h.engine.drain();
      expect((await h.acme.getTransfer(transfer.id)).tx_status).toBe("binding");
      await runFor(h, HOUR, 10 * 60_000);
      const after = await h.acme.getTransfer(transfer.id);
      expect(after.tx_status).toBe("not_found");
      expect(after.check_state).toMatchObject({ exposure: "none", counterparty: "none", sanctions: "none" });
      expect(await h.store.listJobs(transfer.id)).toHaveLength(0);
    });

    it("a chain source that keeps failing ends the transfer in tx_status error with the reason", async () => {
      const chain = failingChainSource("rpc down");
      await h.reopen({ chainSource: chain });
      const { transfer } = await h.acme.registerTransfer(deposit());
      await runFor(h, 60_000, 1_000);
      const after = await h.acme.getTransfer(transfer.id);
      expect(after.tx_status).toBe("error");
      expect(chain.calls).toBe(3);
      const record = await h.store.getTransfer(transfer.id);
      expect(record?.lastError).toContain("rpc down");
    });

    it("attempt: registered with tx_status none and the counterparty checked, then bound", async () => {
      const attempt = await h.acme.registerAttempt({
        attempt_id: "att-1",
        direction: "incoming",
        network: "ETH",
        input_address: W.b,
        output_address: W.client,
        amount: 10,
      });
      expect(attempt).toMatchObject({
        tx_status: "none",
        tx_hash: null,
        attempt_id: "att-1",
        token_id: "native",
      });
      expect(attempt.check_state).toMatchObject({ exposure: "none", counterparty: "queued" });
      expect(attempt.value_in_fiat).toBe(10 * ETH_USD);
      await h.engine.drain();
      const checked = await h.acme.getTransfer(attempt.id);
      expect(checked.check_state).toMatchObject({
        exposure: "none",
        counterparty: "checked",
        sanctions: "checked",
      });
      const risks = await h.acme.getTransferRisks(attempt.id);
      expect(risks.length).toBeGreaterThan(0);
      expect(risks.every((r) => r.risk_type.startsWith("attempt_"))).toBe(true);
      const bound = await h.acme.bindTransaction(attempt.id, { tx_hash: TX.deposit });
      expect(bound).toMatchObject({ tx_status: "binding", tx_hash: TX.deposit });
      expect(bound.check_state.exposure).toBe("queued");
      await h.engine.drain();
      const done = await h.acme.getTransfer(attempt.id);
      expect(done).toMatchObject({ tx_status: "bound", amount: 10, input_address: W.b });
      expect(done.check_state).toMatchObject({
        exposure: "checked",
        counterparty: "checked",
        sanctions: "checked",
      });
      const after = await h.acme.getTransferRisks(attempt.id);
      expect(after.some((r) => r.risk_type === "origin_of_funds")).toBe(true);
    });

    it("binding an attempt twice is refused as an illegal transition", async () => {
      const attempt = await h.acme.registerAttempt({
        direction: "outgoing",
        network: "ETH",
        output_address: W.sanctioned,
      });
      await h.acme.bindTransaction(attempt.id, { tx_hash: TX.withdrawalToSanctioned });
      const error = await h.acme
        .bindTransaction(attempt.id, { tx_hash: TX.withdrawalToSanctioned })
        .catch((e) => e);
      expect(isKytError(error, "ILLEGAL_TRANSITION")).toBe(true);
    });

    it("binding requires output_address when the attempt has none", async () => {
      const attempt = await h.acme.registerAttempt({
        direction: "incoming",
        network: "ETH",
        input_address: W.b,
      });
      const error = await h.acme.bindTransaction(attempt.id, { tx_hash: TX.deposit }).catch((e) => e);
      expect(isKytError(error, "VALIDATION_ERROR")).toBe(true);
      expect(Object.keys(error.errors)).toContain("output_address");
      expect((await h.acme.getTransfer(attempt.id)).tx_status).toBe("none");
      const ok = await h.acme.bindTransaction(attempt.id, { tx_hash: TX.deposit, output_address: W.client });
      expect(ok.output_address).toBe(W.client);
    });

    it("recheck-counterparty queues a new counterparty check", async () => {
      const { transfer } = await h.acme.registerTransfer(deposit());
      await h.engine.drain();
      const before = await h.acme.getTransfer(transfer.id);
      h.clock.advance(1_000);
      const queued = await h.acme.recheckCounterparty(transfer.id);
      expect(queued.check_state.counterparty).toBe("queued");
      await h.engine.drain();
      const after = await h.acme.getTransfer(transfer.id);
      expect(after.check_state.counterparty).toBe("checked");
      expect(after.check_state.counterparty_checked_at).not.toBe(before.check_state.counterparty_checked_at);
      const cp = await h.acme.getTransferCounterparty(transfer.id);
      expect(cp.entity_category).toBeNull();
      expect(cp.exposure?.length).toBeGreaterThan(0);
    });

    it("recheck-exposure is refused before the transfer is bound", async () => {
      const attempt = await h.acme.registerAttempt({
        direction: "incoming",
        network: "ETH",
        input_address: W.b,
      });
      const error = await h.acme.recheckExposure(attempt.id).catch((e) => e);
      expect(isKytError(error, "ILLEGAL_TRANSITION")).toBe(true);
    });

    it("outgoing transfer to a sanctioned address: recipient entity risk, severe", async () => {
      const { transfer } = await h.acme.registerTransfer({
        direction: "outgoing",
        network: "ETH",
        tx_hash: TX.withdrawalToSanctioned,
        output_address: W.sanctioned,
      });
      await h.engine.drain();
      const after = await h.acme.getTransfer(transfer.id);
      expect(after).toMatchObject({ tx_status: "bound", input_address: W.client, risk_level: "severe" });
      const risks = await h.acme.getTransferRisks(transfer.id);
      expect(risks.some((r) => r.risk_type === "recipient_entity" && r.entity_category === "sanctions")).toBe(
        true,
      );
    });

    it("a token given by symbol resolves to its contract", async () => {
      const { transfer } = await h.acme.registerTransfer(
        deposit({ tx_hash: TX.usdtDeposit, token_id: "usdt" }),
      );
      expect(transfer.token_id).toBe("0xdac17f958d2ee523a2206206994597c13d831ec7");
      expect(transfer.token_symbol).toBe("USDT");
      await h.engine.drain();
      const after = await h.acme.getTransfer(transfer.id);
      expect(after).toMatchObject({
        tx_status: "bound",
        amount: 500,
        value_in_fiat: 500,
        risk_level: "none",
        risk_score: 0,
      });
    });
  });
}
