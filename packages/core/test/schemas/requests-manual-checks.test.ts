import { describe, expect, it } from "vitest";
import { checkAddressSchema, checkTransferSchema, parseInput } from "../../src/schemas/index.js";
import { expectFieldErrors } from "./validation-expect.js";

const BTC_TX = "A1075DB55D416D3CA199F55B6084E2115B9345E16C5CF302FC80E9D5FBF5D48D";
const checkTransfer = (body: unknown) => parseInput(checkTransferSchema, body, "check-transfer body");
const checkAddress = (body: unknown) => parseInput(checkAddressSchema, body, "check-address body");

describe("check-transfer body", () => {
  const body = {
    network: "btc",
    tx_hash: BTC_TX,
    output_address: "BC1Q05AKTDDF9CE4P7HH3STGSF253M4VWEU7NKHTMW",
    direction: "outgoing",
  };

  it("parses and normalises", () => {
    expect(checkTransfer(body)).toEqual({
      network: "BTC",
      tokenId: "native",
      txHash: BTC_TX.toLowerCase(),
      outputAddress: "bc1q05aktddf9ce4p7hh3stgsf253m4vweu7nkhtmw",
      direction: "outgoing",
      riskModel: null,
    });
    expect(checkTransfer({ ...body, risk_model: "2db2db3d-283a-466e-8d18-da9bbece14c8" }).riskModel).toBe(
      "2db2db3d-283a-466e-8d18-da9bbece14c8",
    );
  });

  it("requires every mandatory field and refuses unknown ones", () => {
    expectFieldErrors(() => checkTransfer({}), ["network", "tx_hash", "output_address", "direction"]);
    expectFieldErrors(() => checkTransfer({ ...body, amount: 1 }), ["amount"]);
  });

  it("names the invalid address and hash", () => {
    const error = expectFieldErrors(
      () => checkTransfer({ ...body, tx_hash: `0x${BTC_TX}`, output_address: "bc1qnope" }),
      ["tx_hash", "output_address"],
    );
    expect(error.errors.output_address?.[0]).toMatch(/^not a valid Bitcoin address/);
  });
});

describe("check-address body", () => {
  it("parses and lower-cases an EVM address", () => {
    expect(
      checkAddress({ network: "ETH", address: "0x0330070FD38Ec3bB94F58FA55D40368271E9e54A", token_id: null }),
    ).toEqual({
      network: "ETH",
      tokenId: "native",
      address: "0x0330070fd38ec3bb94f58fa55d40368271e9e54a",
      riskModel: null,
    });
  });

  it("keeps Litecoin base58 case and refuses a corrupted one", () => {
    expect(checkAddress({ network: "LTC", address: "LNf2JDiuunBz7GMDKFYHN4rq5meXWxiwfb" }).address).toBe(
      "LNf2JDiuunBz7GMDKFYHN4rq5meXWxiwfb",
    );
    expectFieldErrors(
      () => checkAddress({ network: "LTC", address: "LNf2JDiuunBz7GMDKFYHN4rq5meXWxiwfc" }),
      ["address"],
    );
  });

  it("requires network and address and bounds risk_model", () => {
    expectFieldErrors(() => checkAddress({ token_id: "usdt" }), ["network", "address"]);
    expectFieldErrors(
      () =>
        checkAddress({
          network: "ETH",
          address: "0x0330070fd38ec3bb94f58fa55d40368271e9e54a",
          risk_model: "m".repeat(101),
        }),
      ["risk_model"],
    );
  });
});
