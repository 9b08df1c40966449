import { describe, expect, it } from "vitest";
import {
  addressExposureResponseSchema,
  presentAddressExposure,
  presentTransferExposure,
  transferExposureResponseSchema,
} from "../../src/schemas/index.js";
import {
  attemptRecord,
  IDENTIFIED,
  manualCheckRecord,
  share,
  T0,
  transferRecord,
} from "./record-fixtures.js";

describe("presentTransferExposure", () => {
  it("an unattributed counterparty: indirect shares with the undefined remainder, largest first", () => {
    const wire = transferExposureResponseSchema.parse(presentTransferExposure(transferRecord()));
    expect(wire).toEqual({
      direct_interaction: null,
      indirect_interaction: [
        { entity_category: "exchange", value_share: 0.6, value_in_fiat: 60, strongest_path: null },
        { entity_category: "undefined", value_share: 0.3, value_in_fiat: 30, strongest_path: null },
        { entity_category: "sanctions", value_share: 0.1, value_in_fiat: 10, strongest_path: null },
      ],
      fiat_currency: "USD",
      check_status: "checked",
      checked_at: "2024-04-18T14:17:26.309000Z",
    });
  });

  it("a direct interaction only: indirect_interaction null", () => {
    const exposure = {
      direct: { name: "Binance", category: "exchange", valueInFiat: 348117.244 },
      shares: [share("exchange", "direct", 1)],
      truncated: false,
      edgesRead: 1,
      hops: 1,
    };
    const wire = transferExposureResponseSchema.parse(presentTransferExposure(transferRecord({ exposure })));
    expect(wire.direct_interaction).toEqual({
      entity_category: "exchange",
      entity_name: "Binance",
      value_in_fiat: 348117.24,
    });
    expect(wire.indirect_interaction).toBeNull();
  });

  it("computes value_in_fiat as share times the transfer's value when a share lacks it", () => {
    const exposure = {
      direct: null,
      shares: [
        share("mixer", "indirect", 0.25),
        share("undefined", "direct", 0.5),
        share("undefined", "indirect", 0.25),
      ],
      truncated: true,
      edgesRead: 10_000,
      hops: 5,
    };
    const wire = presentTransferExposure(transferRecord({ exposure, valueInFiat: 1000 }));
    expect(wire.indirect_interaction).toEqual([
      { entity_category: "undefined", value_share: 0.75, value_in_fiat: 750, strongest_path: null },
      { entity_category: "mixer", value_share: 0.25, value_in_fiat: 250, strongest_path: null },
    ]);
  });

  it("gives each share its strongest path: hops, addresses and the transfers between them", () => {
    const exposure = {
      direct: null,
      shares: [
        {
          ...share("sanctions", "indirect", 0.4, 40),
          minHops: 3,
          path: ["0xs", "0xa", "0xl"],
          pathTxHashes: ["0x01", "0x02"],
        },
        { ...share("undefined", "indirect", 0.6, 60), path: ["0xs", "0xb"] },
      ],
      truncated: false,
      edgesRead: 4,
      hops: 3,
    };
    const wire = transferExposureResponseSchema.parse(presentTransferExposure(exposure));
    expect(wire.indirect_interaction).toEqual([
      {
        entity_category: "undefined",
        value_share: 0.6,
        value_in_fiat: 60,
        // A result stored before transfers were recorded: the addresses only.
        strongest_path: { hops: 2, addresses: ["0xs", "0xb"], tx_hashes: [] },
      },
      {
        entity_category: "sanctions",
        value_share: 0.4,
        value_in_fiat: 40,
        strongest_path: { hops: 3, addresses: ["0xs", "0xa", "0xl"], tx_hashes: ["0x01", "0x02"] },
      },
    ]);
    // An address's own exposure counts the address itself as hop 0.
    const address = presentAddressExposure(
      { address: "0xs", entity: null, exposure },
      { state: "checked", at: T0 },
    );
    expect(address.exposure?.[1]?.strongest_path).toEqual({
      hops: 2,
      addresses: ["0xs", "0xa", "0xl"],
      tx_hashes: ["0x01", "0x02"],
    });
  });

  it("not checked: both interactions null", () => {
    const wire = transferExposureResponseSchema.parse(presentTransferExposure(attemptRecord()));
    expect(wire).toEqual({
      direct_interaction: null,
      indirect_interaction: null,
      fiat_currency: "USD",
      check_status: "none",
      checked_at: null,
    });
  });

  it("from a result and a check, or a result alone", () => {
    const t = transferRecord();
    expect(presentTransferExposure(t.exposure, t.checks.exposure)).toEqual(presentTransferExposure(t));
    const bare = transferExposureResponseSchema.parse(presentTransferExposure(null));
    expect(bare).toEqual({ direct_interaction: null, indirect_interaction: null, fiat_currency: "USD" });
  });

  it("of a manual check, with its status", () => {
    const wire = transferExposureResponseSchema.parse(presentTransferExposure(manualCheckRecord()));
    expect(wire).toMatchObject({ check_status: "checked", checked_at: "2024-04-18T14:17:30.309000Z" });
  });
});

describe("presentAddressExposure", () => {
  it("an identified counterparty: entity set, exposure null", () => {
    const wire = addressExposureResponseSchema.parse(presentAddressExposure(transferRecord()));
    expect(wire).toEqual({
      address: "0x0330070fd38ec3bb94f58fa55d40368271e9e54a",
      entity_category: "exchange",
      entity_name: "Binance",
      exposure: null,
      check_status: "checked",
      checked_at: "2024-04-18T14:17:27.309000Z",
    });
    expect(presentAddressExposure(IDENTIFIED, { state: "checked", at: T0 })).toMatchObject({
      address: IDENTIFIED.address,
      entity_category: "sanctions",
      exposure: null,
    });
  });

  it("an unidentified address: its exposure shares", () => {
    const wire = addressExposureResponseSchema.parse(presentAddressExposure(manualCheckRecord()));
    expect(wire).toEqual({
      address: "194xmrZA53UBsZau2PnJLdmVVW9m5feeS",
      entity_category: null,
      entity_name: null,
      exposure: [
        { entity_category: "undefined", value_share: 0.75, strongest_path: null },
        { entity_category: "mixer", value_share: 0.25, strongest_path: null },
      ],
      check_status: "checked",
      checked_at: "2024-04-18T14:17:30.309000Z",
    });
  });

  it("not checked yet: the counterparty address and nulls", () => {
    const wire = addressExposureResponseSchema.parse(presentAddressExposure(attemptRecord()));
    expect(wire).toEqual({
      address: "0x0330070fd38ec3bb94f58fa55d40368271e9e54a",
      entity_category: null,
      entity_name: null,
      exposure: null,
      check_status: "queued",
      checked_at: "2024-04-18T14:17:25.309000Z",
    });
    const outgoing = presentAddressExposure(transferRecord({ direction: "outgoing", counterparty: null }));
    expect(outgoing.address).toBe("0x016606acc6b0cfe537acc221e3bf1bb44b4049ee");
  });
});
