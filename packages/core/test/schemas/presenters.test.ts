import { describe, expect, it } from "vitest";
import {
  alertDetailResponseSchema,
  alertPageSchema,
  alertResponseSchema,
  formatOffsetTimestamp,
  formatUtcMicros,
  manualCheckPageSchema,
  manualCheckResponseSchema,
  presentAlert,
  presentManualCheck,
  presentPage,
  presentRisk,
  presentTransfer,
  riskResponseSchema,
  roundFiat,
  transferPageSchema,
  transferResponseSchema,
} from "../../src/schemas/index.js";
import {
  alertRecord,
  attemptRecord,
  manualCheckRecord,
  riskRecord,
  T0,
  transferRecord,
} from "./record-fixtures.js";

describe("timestamps", () => {
  it("formats the two interface formats with microseconds", () => {
    expect(formatOffsetTimestamp(T0)).toBe("2024-04-18T14:17:25.309000+00:00");
    expect(formatUtcMicros(T0)).toBe("2024-04-18T14:17:25.309000Z");
    expect(formatUtcMicros(0)).toBe("1970-01-01T00:00:00.000000Z");
  });
});

describe("presentTransfer", () => {
  it("presents a bound transfer that parses with its schema", () => {
    const wire = transferResponseSchema.parse(presentTransfer(transferRecord()));
    expect(wire).toMatchObject({
      registered_at: "2024-04-18T14:17:25.309000+00:00",
      occurred_at: "2024-04-18T14:16:25.309000+00:00",
      tx_status: "bound",
      value_in_fiat: 499.67,
      fiat_currency: "USD",
      check_state: {
        exposure: "checked",
        exposure_checked_at: "2024-04-18T14:17:26.309000Z",
        counterparty: "checked",
        counterparty_checked_at: "2024-04-18T14:17:27.309000Z",
        sanctions: "checked",
        sanctions_checked_at: "2024-04-18T14:17:28.309000Z",
      },
    });
    expect(Object.keys(wire)).toHaveLength(19);
  });

  it("presents an attempt with nulls and an unrounded value", () => {
    const wire = transferResponseSchema.parse(
      presentTransfer({ ...attemptRecord(), valueInFiat: 29.987654 }),
    );
    expect(wire).toMatchObject({
      attempt_id: "att-1",
      client_id: "client-7",
      tx_status: "none",
      tx_hash: null,
      occurred_at: null,
      risk_level: "undefined",
      risk_score: null,
      value_in_fiat: 29.987654,
      check_state: { exposure: "none", exposure_checked_at: null, counterparty: "queued" },
    });
  });

  it("presents tx_status error as is", () => {
    expect(
      transferResponseSchema.parse(presentTransfer(transferRecord({ txStatus: "error" }))).tx_status,
    ).toBe("error");
  });
});

describe("presentManualCheck", () => {
  it("presents a finished deposit check with its transfer", () => {
    const wire = manualCheckResponseSchema.parse(presentManualCheck(manualCheckRecord()));
    expect(wire).toMatchObject({
      created_at: "2024-04-18T14:17:25.309000+00:00",
      checked_at: "2024-04-18T14:17:30.309000Z",
      check_type: "deposit",
      check_status: "checked",
      address: null,
      risk_level: "severe",
      risk_score: 1,
      fiat_currency: "USD",
      transfer: {
        network: "BTC",
        token_id: "native",
        tx_status: "bound",
        direction: "incoming",
        value_in_fiat: 31234.57,
      },
    });
  });

  it("shows risk_level undefined and checked_at null while checking", () => {
    const wire = manualCheckResponseSchema.parse(
      presentManualCheck(
        manualCheckRecord({ checkStatus: "checking", checkedAt: T0, riskLevel: "high", riskScore: 0.75 }),
      ),
    );
    expect(wire).toMatchObject({
      check_status: "checking",
      checked_at: null,
      risk_level: "undefined",
      risk_score: null,
    });
  });

  it("presents an address check with its address and no transfer", () => {
    const wire = manualCheckResponseSchema.parse(
      presentManualCheck(
        manualCheckRecord({
          checkType: "single_address",
          address: "0x0330070fd38ec3bb94f58fa55d40368271e9e54a",
          network: "ETH",
        }),
      ),
    );
    expect(wire.transfer).toBeNull();
    expect(wire.address).toEqual({ network: "ETH", address: "0x0330070fd38ec3bb94f58fa55d40368271e9e54a" });
  });
});

describe("presentRisk and presentAlert", () => {
  it("presents a risk with its rule", () => {
    const wire = riskResponseSchema.parse(presentRisk(riskRecord()));
    expect(wire).toEqual({
      id: "risk-1",
      risk_type: "origin_of_funds",
      risk_level: "severe",
      entity_category: "sanctions",
      entity_name: "Garantex",
      proximity: "indirect",
      value_in_fiat: 29.81,
      value_share: 0.9932,
      rule: {
        rule_type: "origin_of_funds",
        rule_sub_type: "indirect",
        entity_category: "sanctions",
        min_value_in_fiat: 10,
        min_value_share: 0.2,
      },
      risk_occurred_at: "2024-04-18T14:16:25.309000+00:00",
      created_at: "2024-04-18T14:17:26.309000+00:00",
      fiat_currency: "USD",
    });
  });

  it("a list alert has the deprecated type/status but no interaction", () => {
    const wire = alertResponseSchema.parse(presentAlert(alertRecord(), transferRecord(), { single: false }));
    expect(wire).toMatchObject({
      type: "origin_of_funds",
      status: "open",
      updated_at: null,
      fiat_currency: "USD",
    });
    expect(wire.entity_interaction).not.toHaveProperty("interaction");
    expect(wire.transfer).not.toHaveProperty("check_state");
    expect(wire.transfer).not.toHaveProperty("fiat_currency");
    expect(wire.transfer?.registered_at).toBe("2024-04-18T14:17:25.309000+00:00");
  });

  it("the single alert adds entity_interaction.interaction = proximity", () => {
    const wire = alertDetailResponseSchema.parse(
      presentAlert(alertRecord({ updatedAt: T0 + 9000, alertStatus: "in_progress" }), transferRecord(), {
        single: true,
      }),
    );
    expect(wire.entity_interaction).toMatchObject({
      proximity: "indirect",
      interaction: "indirect",
      value_in_fiat: 29.81,
    });
    expect(wire).toMatchObject({ updated_at: "2024-04-18T14:17:34.309000+00:00", status: "in_progress" });
    expect(() => alertResponseSchema.parse(wire)).toThrow();
  });

  it("an alert whose transfer is gone has transfer null", () => {
    expect(
      alertResponseSchema.parse(presentAlert(alertRecord(), null, { single: false })).transfer,
    ).toBeNull();
  });
});

describe("presentPage", () => {
  it("wraps items with totals that parse with the envelope schema", () => {
    const transfers = [transferRecord(), attemptRecord()].map(presentTransfer);
    expect(transferPageSchema.parse(presentPage(transfers, 41, { page: 3, pageSize: 20 }))).toMatchObject({
      page: 3,
      page_size: 20,
      total_pages: 3,
      total_items: 41,
    });
    expect(presentPage([], 0, { page: 1, pageSize: 20 }).total_pages).toBe(0);
    manualCheckPageSchema.parse(
      presentPage([presentManualCheck(manualCheckRecord())], 1, { page: 1, pageSize: 1 }),
    );
    alertPageSchema.parse(
      presentPage([presentAlert(alertRecord(), null, { single: false })], 1, { page: 1, pageSize: 5 }),
    );
  });
});

describe("roundFiat", () => {
  it("rounds to cents, half up, passing null", () => {
    expect(roundFiat(1.005)).toBe(1.01);
    expect(roundFiat(499.66889865320763)).toBe(499.67);
    expect(roundFiat(-2.345)).toBe(-2.35);
    expect(roundFiat(0.001)).toBe(0);
    expect(roundFiat(null)).toBeNull();
  });
});
