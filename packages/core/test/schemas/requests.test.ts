import { describe, expect, it } from "vitest";
import {
  bindTransactionSchema,
  normalizeBindInput,
  parseInput,
  registerAttemptSchema,
  registerTransferSchema,
} from "../../src/schemas/index.js";
import { expectFieldErrors } from "./validation-expect.js";

const TX = "0x28138cd586826bbad08d1d0e64b566795b5907790ad30ebb0722948c2ba21d09";
const ADDR = "0x016606acc6b0cfe537acc221e3bf1bb44b4049ee";
const MIXED = "0x0330070FD38Ec3bB94F58FA55D40368271E9e54A";
const TRX_ADDR = "TA3rH2A7iHnm6pKH8gr9cK1EZnShnmZdFg";

const register = (body: unknown) => parseInput(registerTransferSchema, body, "register body");
const attempt = (body: unknown) => parseInput(registerAttemptSchema, body, "register-attempt body");
const bind = (body: unknown) => parseInput(bindTransactionSchema, body, "bind-transaction body");

describe("register body", () => {
  // The official signing example's body.
  const example = {
    client_id: null,
    direction: "incoming",
    network: "ETH",
    tx_hash: TX,
    token_id: "usdt",
    output_address: ADDR,
  };

  it("parses the official example into camelCase engine input with defaults", () => {
    expect(register(example)).toEqual({
      clientId: null,
      direction: "incoming",
      network: "ETH",
      txHash: TX,
      tokenId: "USDT",
      outputAddress: ADDR,
      disableAutoCheck: false,
      forceRecheck: false,
      riskModel: null,
    });
  });

  it("lower-cases EVM output_address, token_id and tx_hash and upper-cases the network", () => {
    const input = register({
      ...example,
      network: "eth",
      tx_hash: TX.toUpperCase().replace("0X", "0x"),
      token_id: "0xdAC17F958D2ee523a2206206994597C13D831ec7",
      output_address: MIXED,
      disable_auto_check: true,
      force_recheck: true,
      risk_model: "strict",
    });
    expect(input).toMatchObject({
      network: "ETH",
      txHash: TX,
      tokenId: "0xdac17f958d2ee523a2206206994597c13d831ec7",
      outputAddress: MIXED.toLowerCase(),
      disableAutoCheck: true,
      forceRecheck: true,
      riskModel: "strict",
    });
  });

  it("treats omitted, null, 'null', '' and NATIVE token_id as native", () => {
    const { token_id: _, ...withoutToken } = example;
    expect(register(withoutToken).tokenId).toBe("native");
    for (const token_id of [null, "null", "", "NATIVE"])
      expect(register({ ...example, token_id }).tokenId).toBe("native");
  });

  it("requires direction, network, tx_hash and output_address", () => {
    const error = expectFieldErrors(
      () => register({}),
      ["direction", "network", "tx_hash", "output_address"],
    );
    expect(error.errors.tx_hash).toEqual(["required"]);
  });

  it("refuses unknown fields by name", () => {
    expectFieldErrors(
      () => register({ ...example, attempt_id: "a", colour: "red" }),
      ["attempt_id", "colour"],
    );
  });

  it("refuses a client_id longer than 40 characters", () => {
    expect(register({ ...example, client_id: "c".repeat(40) }).clientId).toHaveLength(40);
    const error = expectFieldErrors(() => register({ ...example, client_id: "c".repeat(41) }), ["client_id"]);
    expect(error.errors.client_id).toEqual(["at most 40 characters"]);
  });

  it("refuses an unknown direction and network", () => {
    const error = expectFieldErrors(
      () => register({ ...example, direction: "sideways", network: "DOGE" }),
      ["direction", "network"],
    );
    expect(error.errors.direction).toEqual(["must be one of: incoming, outgoing"]);
    expect(error.errors.network?.[0]).toMatch(/unknown network "DOGE"/);
  });

  it("validates addresses, hashes and tokens per network and names each field", () => {
    const error = expectFieldErrors(
      () =>
        register({
          ...example,
          network: "TRX",
          tx_hash: TX,
          token_id: "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6u",
          output_address: ADDR,
        }),
      ["tx_hash", "token_id", "output_address"],
    );
    expect(error.errors.output_address?.[0]).toMatch(/not a valid Tron address/);
    expect(error.errors.token_id).toEqual(["not a valid Tron address (base58check checksum mismatch)"]);
  });

  it("refuses non-boolean flags and accepts null as false", () => {
    expect(register({ ...example, disable_auto_check: null }).disableAutoCheck).toBe(false);
    expectFieldErrors(() => register({ ...example, force_recheck: "yes" }), ["force_recheck"]);
  });

  it("refuses a body that is not an object", () => {
    for (const body of [null, [], "text", 3]) {
      const error = expectFieldErrors(() => register(body), ["non_field_errors"]);
      expect(error.errors.non_field_errors?.[0]).toMatch(/expected a JSON object/);
    }
  });
});

describe("register-attempt body", () => {
  const incoming = { direction: "incoming", network: "TRX", input_address: TRX_ADDR };
  const outgoing = { direction: "outgoing", network: "ETH", output_address: MIXED };

  it("requires input_address when incoming", () => {
    expect(attempt(incoming)).toEqual({
      clientId: null,
      attemptId: null,
      direction: "incoming",
      network: "TRX",
      tokenId: "native",
      inputAddress: TRX_ADDR,
      outputAddress: null,
      amount: null,
      riskModel: null,
    });
    const error = expectFieldErrors(
      () => attempt({ direction: "incoming", network: "TRX", output_address: TRX_ADDR }),
      ["input_address"],
    );
    expect(error.message).toContain("input_address: required when direction is incoming");
  });

  it("requires output_address when outgoing", () => {
    expect(attempt(outgoing).outputAddress).toBe(MIXED.toLowerCase());
    const error = expectFieldErrors(
      () => attempt({ ...outgoing, output_address: null, input_address: ADDR }),
      ["output_address"],
    );
    expect(error.errors.output_address).toEqual(["required when direction is outgoing"]);
  });

  it("validates the optional address too", () => {
    expectFieldErrors(() => attempt({ ...incoming, output_address: "TnotAnAddress" }), ["output_address"]);
  });

  it("limits attempt_id to 100 characters", () => {
    expect(attempt({ ...incoming, attempt_id: "a".repeat(100) }).attemptId).toHaveLength(100);
    expectFieldErrors(() => attempt({ ...incoming, attempt_id: "a".repeat(101) }), ["attempt_id"]);
  });

  it("accepts amounts as finite numbers >= 0, numeric strings or null", () => {
    expect(attempt({ ...incoming, amount: 12.5 }).amount).toBe(12.5);
    expect(attempt({ ...incoming, amount: "1234.5678" }).amount).toBe(1234.5678);
    expect(attempt({ ...incoming, amount: 0 }).amount).toBe(0);
    expect(attempt({ ...incoming, amount: null }).amount).toBeNull();
    for (const amount of [-1, "-1", "abc", "", true, "1e999"]) {
      expectFieldErrors(() => attempt({ ...incoming, amount }), ["amount"]);
    }
  });

  it("resolves token_id symbols and contracts", () => {
    expect(attempt({ ...incoming, token_id: "usdt" }).tokenId).toBe("USDT");
    expect(attempt({ ...incoming, token_id: "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t" }).tokenId).toBe(
      "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t",
    );
  });
});

describe("bind-transaction body", () => {
  it("parses with token_id and output_address optional", () => {
    expect(bind({ tx_hash: ` ${TX} ` })).toEqual({ txHash: TX, tokenId: null, outputAddress: null });
    expect(bind({ tx_hash: TX, token_id: "null", output_address: "" })).toEqual({
      txHash: TX,
      tokenId: null,
      outputAddress: null,
    });
    expectFieldErrors(() => bind({}), ["tx_hash"]);
    expectFieldErrors(() => bind({ tx_hash: TX, network: "ETH" }), ["network"]);
  });

  it("normalizeBindInput normalises for the transfer's network", () => {
    const raw = bind({
      tx_hash: TX.toUpperCase().replace("0X", "0x"),
      token_id: "USDT",
      output_address: MIXED,
    });
    expect(normalizeBindInput("ETH", raw)).toEqual({
      txHash: TX,
      tokenId: "USDT",
      outputAddress: MIXED.toLowerCase(),
    });
    expect(normalizeBindInput("ETH", bind({ tx_hash: TX, token_id: "native" })).tokenId).toBe("native");
  });

  it("normalizeBindInput names every invalid field", () => {
    const raw = bind({ tx_hash: TX, token_id: "0x12", output_address: "0xnope" });
    const error = expectFieldErrors(() => normalizeBindInput("TRX", raw), ["tx_hash", "output_address"]);
    expect(error.code).toBe("VALIDATION_ERROR");
    expectFieldErrors(() => normalizeBindInput("ETH", raw), ["token_id", "output_address"]);
  });
});
