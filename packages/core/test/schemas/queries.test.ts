import { describe, expect, it } from "vitest";
import {
  alertListQuerySchema,
  manualCheckListQuerySchema,
  pageQuerySchema,
  parseInput,
  tokenListQuerySchema,
  transferListQuerySchema,
} from "../../src/schemas/index.js";
import { expectFieldErrors } from "./validation-expect.js";

const transfers = (q: unknown) => parseInput(transferListQuerySchema, q, "transfer list query");
const alerts = (q: unknown) => parseInput(alertListQuerySchema, q, "alert list query");
const pages = (q: unknown) => parseInput(pageQuerySchema, q, "page query");
const tokens = (q: unknown) => parseInput(tokenListQuerySchema, q, "token list query");

const DAY = Date.UTC(2025, 3, 1);

describe("page query", () => {
  it("defaults to page 1 of 20 and coerces strings", () => {
    expect(pages({})).toEqual({ page: 1, pageSize: 20 });
    expect(pages({ page: "3", page_size: "100" })).toEqual({ page: 3, pageSize: 100 });
    expect(pages({ page: "", page_size: "" })).toEqual({ page: 1, pageSize: 20 });
    expect(parseInput(manualCheckListQuerySchema, { page_size: "1" }, "q")).toEqual({ page: 1, pageSize: 1 });
  });

  it("refuses page < 1 and page_size outside 1..100 by name, without clamping", () => {
    expectFieldErrors(() => pages({ page: "0" }), ["page"]);
    expectFieldErrors(() => pages({ page: "1.5" }), ["page"]);
    const nan = expectFieldErrors(() => pages({ page: "abc", page_size: "2.5" }), ["page", "page_size"]);
    expect(nan.errors).toEqual({ page: ["must be an integer"], page_size: ["must be an integer"] });
    const error = expectFieldErrors(() => pages({ page_size: "101" }), ["page_size"]);
    expect(error.errors.page_size).toEqual(["must be at most 100"]);
    expectFieldErrors(() => pages({ page_size: "0" }), ["page_size"]);
  });

  it("refuses unknown parameters", () => {
    expectFieldErrors(() => pages({ limit: "5" }), ["limit"]);
  });
});

describe("transfer list query", () => {
  it("maps every filter to the store's TransferFilter", () => {
    const q = transfers({
      page: "2",
      page_size: "50",
      client_id: "c-1",
      direction: "incoming",
      network: "eth",
      token_id: "0xdAC17F958D2ee523a2206206994597C13D831ec7",
      token_symbol: "USDT",
      tx_hash: "0x28138CD586826BBAD08D1D0E64B566795B5907790AD30EBB0722948C2BA21D09",
      input_address: "0x0330070FD38Ec3bB94F58FA55D40368271E9e54A",
      output_address: "0x016606acc6b0cfe537acc221e3bf1bb44b4049ee",
      registered_from: "2025-04-01",
      registered_to: "2025-04-01",
      occurred_from: "2025-04-01T10:00:00Z",
      occurred_to: "2025-04-01T12:00:00+02:00",
      risk_level: "undefined",
      tx_status: "not_found",
      counterparty_name: "Binance",
      counterparty_category: "exchange",
    });
    expect(q).toEqual({
      page: 2,
      pageSize: 50,
      filter: {
        clientId: "c-1",
        direction: "incoming",
        network: "ETH",
        tokenId: "0xdac17f958d2ee523a2206206994597c13d831ec7",
        tokenSymbol: "USDT",
        txHash: "0x28138cd586826bbad08d1d0e64b566795b5907790ad30ebb0722948c2ba21d09",
        inputAddress: "0x0330070fd38ec3bb94f58fa55d40368271e9e54a",
        outputAddress: "0x016606acc6b0cfe537acc221e3bf1bb44b4049ee",
        registeredFrom: DAY,
        registeredTo: DAY + 86_400_000 - 1,
        occurredFrom: DAY + 10 * 3_600_000,
        occurredTo: DAY + 10 * 3_600_000,
        riskLevel: "undefined",
        txStatus: "not_found",
        counterpartyName: "Binance",
        counterpartyCategory: "exchange",
      },
    });
  });

  it("holds only the filters given; empty values filter nothing", () => {
    expect(transfers({ network: "", client_id: "" })).toEqual({ page: 1, pageSize: 20, filter: {} });
  });

  it("a symbol token_id filters by token_symbol; native stays a token id", () => {
    expect(transfers({ token_id: "usdt" }).filter).toEqual({ tokenSymbol: "USDT" });
    expect(transfers({ token_id: "NATIVE", network: "BTC" }).filter).toEqual({
      tokenId: "native",
      network: "BTC",
    });
    expectFieldErrors(() => transfers({ token_id: "usdt", token_symbol: "USDC" }), ["token_id"]);
  });

  it("without a network, normalises what it can recognise", () => {
    expect(
      transfers({
        input_address: "0x0330070FD38Ec3bB94F58FA55D40368271E9e54A",
        output_address: "TA3rH2A7iHnm6pKH8gr9cK1EZnShnmZdFg",
        tx_hash: "A1075DB55D416D3CA199F55B6084E2115B9345E16C5CF302FC80E9D5FBF5D48D",
      }).filter,
    ).toEqual({
      inputAddress: "0x0330070fd38ec3bb94f58fa55d40368271e9e54a",
      outputAddress: "TA3rH2A7iHnm6pKH8gr9cK1EZnShnmZdFg",
      txHash: "a1075db55d416d3ca199f55b6084e2115b9345e16c5cf302fc80e9d5fbf5d48d",
    });
    expectFieldErrors(() => transfers({ tx_hash: "nope" }), ["tx_hash"]);
  });

  it("with a network, validates addresses and hashes by name", () => {
    expectFieldErrors(
      () => transfers({ network: "TRX", input_address: "0x0330070fd38ec3bb94f58fa55d40368271e9e54a" }),
      ["input_address"],
    );
    expectFieldErrors(() => transfers({ network: "ETH", tx_hash: "a".repeat(64) }), ["tx_hash"]);
  });

  it("refuses bad enums, networks, dates and unknown parameters", () => {
    expectFieldErrors(
      () => transfers({ direction: "up", risk_level: "extreme", network: "XYZ", tx_status: "stuck" }),
      ["direction", "risk_level", "network", "tx_status"],
    );
    expectFieldErrors(() => transfers({ registered_from: "2025-02-30" }), ["registered_from"]);
    expectFieldErrors(() => transfers({ occurred_to: "yesterday" }), ["occurred_to"]);
    expectFieldErrors(() => transfers({ address: "x", null_values: "true" }), ["address", "null_values"]);
  });

  it("refuses a range whose start is after its end, naming both ends", () => {
    const error = expectFieldErrors(
      () => transfers({ registered_from: "2025-04-02", registered_to: "2025-04-01" }),
      ["registered_from", "registered_to"],
    );
    expect(error.errors.registered_from).toEqual(["registered_from is after registered_to"]);
    expectFieldErrors(
      () => transfers({ occurred_from: "2025-04-01T00:00:01Z", occurred_to: "2025-04-01T00:00:00Z" }),
      ["occurred_from", "occurred_to"],
    );
    expect(
      transfers({ registered_from: "2025-04-01", registered_to: "2025-04-01" }).filter.registeredTo,
    ).toBe(DAY + 86_399_999);
  });
});

describe("alert list query", () => {
  it("maps every filter to the store's AlertFilter", () => {
    const q = alerts({
      client_id: "c-1",
      risk_type: "origin_of_funds",
      risk_level: "severe",
      alert_status: "open",
      created_from: "2025-04-01",
      created_to: "2025-04-01",
      occurred_from: "2025-04-01T00:00:00Z",
      occurred_to: "2025-04-01T23:00:00Z",
      network: "TRX",
      token_id: "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t",
      token_symbol: "USDT",
      entity_category: "sanctions",
      proximity: "indirect",
      page_size: "10",
    });
    expect(q).toEqual({
      page: 1,
      pageSize: 10,
      filter: {
        clientId: "c-1",
        riskType: "origin_of_funds",
        riskLevel: "severe",
        alertStatus: "open",
        createdFrom: DAY,
        createdTo: DAY + 86_399_999,
        occurredFrom: DAY,
        occurredTo: DAY + 23 * 3_600_000,
        network: "TRX",
        tokenId: "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t",
        tokenSymbol: "USDT",
        entityCategory: "sanctions",
        proximity: "indirect",
      },
    });
  });

  it("accepts the deprecated type, interaction and status", () => {
    expect(alerts({ type: "sender_entity", interaction: "direct", status: "done" }).filter).toEqual({
      riskType: "sender_entity",
      proximity: "direct",
      alertStatus: "done",
    });
    expect(alerts({ type: "sender_entity", risk_type: "sender_entity" }).filter).toEqual({
      riskType: "sender_entity",
    });
  });

  it("refuses a deprecated parameter that disagrees with its replacement, naming both", () => {
    const error = expectFieldErrors(
      () => alerts({ type: "sender_entity", risk_type: "origin_of_funds" }),
      ["type", "risk_type"],
    );
    expect(error.errors.type?.[0]).toMatch(/type \(deprecated\) and risk_type disagree/);
    expectFieldErrors(
      () => alerts({ interaction: "direct", proximity: "indirect" }),
      ["interaction", "proximity"],
    );
    expectFieldErrors(() => alerts({ status: "open", alert_status: "done" }), ["status", "alert_status"]);
  });

  it("refuses levels an alert cannot have, and bad ranges", () => {
    expectFieldErrors(() => alerts({ risk_level: "none" }), ["risk_level"]);
    expectFieldErrors(
      () => alerts({ created_from: "2025-04-02", created_to: "2025-04-01" }),
      ["created_from", "created_to"],
    );
  });
});

describe("token list query", () => {
  it("filters by network, token id or symbol", () => {
    expect(tokens({ network: "eth", token_id: "0xdAC17F958D2ee523a2206206994597C13D831ec7" })).toEqual({
      page: 1,
      pageSize: 20,
      filter: { network: "ETH", tokenId: "0xdac17f958d2ee523a2206206994597c13d831ec7" },
    });
    expect(tokens({ token_id: "usdt" }).filter).toEqual({ symbol: "USDT" });
    expectFieldErrors(() => tokens({ network: "ETH", token_id: "0x12" }), ["token_id"]);
    expectFieldErrors(() => tokens({ symbol: "USDT" }), ["symbol"]);
  });
});
