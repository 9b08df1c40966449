import { isKytHttpError, type KytHttpError } from "@openkyt/client";
import {
  addressExposureResponseSchema,
  riskResponseSchema,
  type TransferResponse,
  transferExposureResponseSchema,
  transferResponseSchema,
} from "@openkyt/core";
import { depositBody, ETH_USD, TX, USDT, W } from "@openkyt/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { CREATED_HEADER } from "../src/index.js";
import { rejection, type Served, serve } from "./http-harness.js";
import { expectWire } from "./wire-expect.js";

const deposit = depositBody;
const wait = { timeoutMs: 10_000, intervalMs: 20 };

describe("transfer lifecycles as an outside client sees them", () => {
  let s: Served;
  beforeAll(async () => {
    s = await serve();
    s.h.engine.start();
  });
  afterAll(async () => {
    await s.close();
  });

  it("register -> 201 binding with exposure queued -> poll until bound, checked and severe", async () => {
    const mixedCase = W.client.toUpperCase().replace("0X", "0x");
    const answer = await s.acme.send<TransferResponse>("POST", "/v1/transfers/register/", {
      body: deposit({ output_address: mixedCase }),
    });
    expect(answer.status).toBe(201);
    expect(answer.headers.get(CREATED_HEADER)).toBe("true");
    const registered = expectWire(transferResponseSchema, answer.body);
    expect(registered).toMatchObject({
      tx_status: "binding",
      output_address: W.client,
      token_id: "native",
      occurred_at: null,
      input_address: null,
      amount: null,
      value_in_fiat: null,
      risk_level: "undefined",
      fiat_currency: "USD",
    });
    expect(registered.check_state.exposure).toBe("queued");
    expect(registered.registered_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}[+-]\d\d:\d\d$/);

    const done = expectWire(transferResponseSchema, await s.acme.waitUntilChecked(registered.id, wait));
    expect(done).toMatchObject({
      tx_status: "bound",
      input_address: W.b,
      amount: 10,
      value_in_fiat: 10 * ETH_USD,
      risk_level: "severe",
      risk_score: 1,
    });
    expect(done.check_state).toMatchObject({
      exposure: "checked",
      counterparty: "checked",
      sanctions: "checked",
    });
    expect(done.check_state.exposure_checked_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/);

    const exposure = expectWire(
      transferExposureResponseSchema,
      await s.acme.getTransferExposure(registered.id),
    );
    const shares = Object.fromEntries(
      (exposure.indirect_interaction ?? []).map((i) => [i.entity_category, i.value_share]),
    );
    expect(shares.sanctions).toBeCloseTo(0.3, 9);
    expect(exposure.check_status).toBe("checked");
    const counterparty = expectWire(
      addressExposureResponseSchema,
      await s.acme.getTransferCounterparty(registered.id),
    );
    expect(counterparty.address).toBe(W.b);
    const risks = expectWire(z.array(riskResponseSchema), await s.acme.getTransferRisks(registered.id));
    expect(risks.some((r) => r.entity_category === "sanctions" && r.risk_type === "origin_of_funds")).toBe(
      true,
    );

    // The same registration again: 201 with the existing transfer, nothing re-checked.
    const again = await s.acme.send<TransferResponse>("POST", "/v1/transfers/register", { body: deposit() });
    expect(again.status).toBe(201);
    expect(again.headers.get(CREATED_HEADER)).toBe("false");
    expect(again.body.id).toBe(registered.id);
    expect(again.body.check_state).toEqual(done.check_state);
  });

  it("force_recheck queues the checks again; disable_auto_check binds without checking", async () => {
    const first = await s.acme.registerTransfer(deposit({ tx_hash: TX.mixerDeposit }));
    await s.acme.waitUntilChecked(first.id, wait);
    const forced = await s.acme.registerTransfer(deposit({ tx_hash: TX.mixerDeposit, force_recheck: true }));
    expect(forced.id).toBe(first.id);
    expect(forced.check_state).toMatchObject({
      exposure: "queued",
      counterparty: "queued",
      sanctions: "queued",
    });
    expect((await s.acme.waitUntilChecked(first.id, wait)).check_state.exposure).toBe("checked");

    const quiet = await s.acme.registerTransfer(
      deposit({ tx_hash: TX.exchangeDeposit, client_id: "quiet", disable_auto_check: true }),
    );
    expect(quiet.check_state).toMatchObject({ exposure: "none", counterparty: "none", sanctions: "none" });
    const bound = await s.acme.waitUntilChecked(quiet.id, wait);
    expect(bound.tx_status).toBe("bound");
    expect(bound.risk_level).toBe("undefined");
  });

  it("attempt -> 201 none with the counterparty checked -> bind -> bound and checked", async () => {
    // Account "other": acme registered this deposit as a full transfer already.
    const answer = await s.other.send<TransferResponse>("POST", "/v1/transfers/register-attempt/", {
      body: { attempt_id: "att-1", direction: "incoming", network: "ETH", input_address: W.b, amount: 10 },
    });
    expect(answer.status).toBe(201);
    const attempt = expectWire(transferResponseSchema, answer.body);
    expect(attempt).toMatchObject({
      tx_status: "none",
      tx_hash: null,
      attempt_id: "att-1",
      token_id: "native",
    });
    expect(attempt.check_state.counterparty).toBe("queued");
    const checked = await s.other.waitUntilChecked(attempt.id, wait);
    expect(checked.check_state.counterparty).toBe("checked");
    const attemptRisks = await s.other.getTransferRisks(attempt.id);
    expect(attemptRisks.every((r) => r.risk_type.startsWith("attempt_"))).toBe(true);

    // output_address is required when the attempt has none: 400 naming it, nothing changes.
    const missing = await rejection(s.other.bindTransaction(attempt.id, { tx_hash: TX.deposit }));
    expect(missing).toMatchObject({ status: 400, code: "VALIDATION_ERROR" });
    expect((missing as KytHttpError).errors.output_address?.length).toBeGreaterThan(0);
    expect((await s.other.getTransfer(attempt.id)).tx_status).toBe("none");

    const bound = expectWire(
      transferResponseSchema,
      await s.other.bindTransaction(attempt.id, { tx_hash: TX.deposit, output_address: W.client }),
    );
    expect(bound).toMatchObject({ tx_status: "binding", tx_hash: TX.deposit });
    const done = await s.other.waitUntilChecked(attempt.id, wait);
    expect(done).toMatchObject({ tx_status: "bound", amount: 10, input_address: W.b, risk_level: "severe" });
    expect((await s.other.getTransferRisks(attempt.id)).some((r) => r.risk_type === "origin_of_funds")).toBe(
      true,
    );

    // Binding again is a transition the state machine refuses: 409, nothing changes.
    const twice = await rejection(s.other.bindTransaction(attempt.id, { tx_hash: TX.deposit }));
    expect(twice).toMatchObject({ status: 409, code: "ILLEGAL_TRANSITION" });
    expect((await s.other.getTransfer(attempt.id)).tx_status).toBe("bound");
  });

  it("recheck-counterparty and recheck-exposure queue new checks; recheck-exposure of an attempt is 409", async () => {
    const t = await s.acme.registerTransfer(deposit({ tx_hash: TX.usdtDeposit, token_id: "usdt" }));
    expect(t.token_id).toBe(USDT);
    const done = await s.acme.waitUntilChecked(t.id, wait);
    expect(done).toMatchObject({ amount: 500, value_in_fiat: 500, risk_level: "none", risk_score: 0 });
    s.h.clock.advance(1_000);
    const cp = expectWire(transferResponseSchema, await s.acme.recheckCounterparty(t.id));
    expect(cp.check_state.counterparty).toBe("queued");
    const afterCp = await s.acme.waitUntilChecked(t.id, wait);
    expect(afterCp.check_state.counterparty_checked_at).not.toBe(done.check_state.counterparty_checked_at);
    const ex = await s.acme.recheckExposure(t.id);
    expect(ex.check_state.exposure).toBe("queued");
    expect((await s.acme.waitUntilChecked(t.id, wait)).check_state.exposure).toBe("checked");

    const attempt = await s.acme.registerAttempt({
      direction: "outgoing",
      network: "ETH",
      output_address: W.fresh,
    });
    const refused = await rejection(s.acme.recheckExposure(attempt.id));
    expect(refused).toMatchObject({ status: 409, code: "ILLEGAL_TRANSITION" });
    // A recheck takes no body fields.
    const withBody = await rejection(
      s.acme.send("POST", `/v1/transfers/${t.id}/recheck-counterparty/`, { body: { force: true } }),
    );
    expect(withBody).toMatchObject({
      status: 400,
      code: "VALIDATION_ERROR",
      errors: { force: ["unknown field"] },
    });
  });

  it("an outgoing transfer to a sanctioned address is severe with a recipient_entity risk", async () => {
    const t = await s.acme.registerTransfer({
      direction: "outgoing",
      network: "eth",
      tx_hash: TX.withdrawalToSanctioned,
      output_address: W.sanctioned,
    });
    expect(t.network).toBe("ETH");
    const done = await s.acme.waitUntilChecked(t.id, wait);
    expect(done).toMatchObject({ tx_status: "bound", input_address: W.client, risk_level: "severe" });
    const risks = await s.acme.getTransferRisks(t.id);
    expect(risks.some((r) => r.risk_type === "recipient_entity" && r.entity_category === "sanctions")).toBe(
      true,
    );
  });

  it("an unknown id is 404 on every transfer endpoint", async () => {
    const id = "00000000-0000-4000-8000-000000000000";
    const calls = [
      () => s.acme.getTransfer(id),
      () => s.acme.getTransferExposure(id),
      () => s.acme.getTransferCounterparty(id),
      () => s.acme.getTransferRisks(id),
      () => s.acme.recheckCounterparty(id),
      () => s.acme.recheckExposure(id),
      () => s.acme.bindTransaction(id, { tx_hash: TX.deposit }),
      () => s.acme.transferReport(id),
    ];
    for (const call of calls) {
      const error = await rejection(call());
      expect(isKytHttpError(error, "NOT_FOUND"), String(error)).toBe(true);
      expect((error as KytHttpError).status).toBe(404);
    }
  });
});
