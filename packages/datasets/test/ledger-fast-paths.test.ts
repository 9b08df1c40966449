/**
 * The per-row fast paths of ledger parsing (character loops instead of regular expressions)
 * against the code they replaced: the same values and the same problems for any text.
 */

import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { isNormalEvmHex } from "../src/evm-hex.js";
import { type LedgerFields, ledgerFieldsDecoder } from "../src/ledger-rows.js";
import {
  EARLIEST_CHAIN_TIME,
  parseAmount,
  parseCount,
  parseOptionalAmount,
  parseOptionalCount,
  parseTime,
} from "../src/row-values.js";

/** The parsers as they were before their fast paths (regular expressions, trim, Number). */
const before = {
  amount(name: string, text: string | undefined) {
    if (text === undefined || text === "") return { ok: false, problem: `${name} is missing` };
    const trimmed = text.trim();
    if (!/^\d+(\.\d*)?([eE][+-]?\d+)?$|^\.\d+([eE][+-]?\d+)?$/.test(trimmed))
      return { ok: false, problem: `${name} "${text}" is not a non-negative number` };
    const value = Number(trimmed);
    return Number.isFinite(value)
      ? { ok: true, value }
      : { ok: false, problem: `${name} "${text}" is not a finite number` };
  },
  count(name: string, text: string | undefined) {
    if (text === undefined || text === "") return { ok: false, problem: `${name} is missing` };
    const trimmed = text.trim();
    const value = Number(trimmed);
    return /^\d+$/.test(trimmed) && Number.isSafeInteger(value)
      ? { ok: true, value }
      : { ok: false, problem: `${name} "${text}" is not a non-negative integer` };
  },
  /** The epoch-ms branch of parseTime (the one with a fast path). */
  epochMs(name: string, text: string) {
    const trimmed = text.trim();
    const ms = Number(trimmed);
    if (!Number.isSafeInteger(ms)) return { ok: false, problem: `${name} "${text}" is out of range` };
    return ms < EARLIEST_CHAIN_TIME
      ? { ok: false, problem: `${name} "${text}" is before 2009: expected epoch milliseconds, not seconds` }
      : { ok: true, value: ms };
  },
};

/** Texts close to numbers: digits, dots, signs, exponents, spaces, and a few strays. */
const numberish = fc.string({ unit: fc.constantFrom(..."0123456789.. eE+-x\té"), maxLength: 22 });

describe("ledger parsing fast paths", () => {
  it("read amounts and counts exactly as the regular expressions did", () => {
    const samples = [
      "5.",
      ".5",
      ".",
      "..5",
      "1.2.3",
      "007",
      " 7 ",
      "1e3",
      "0.652676",
      "9".repeat(400),
      "",
      "1 2",
    ];
    const check = (text: string) => {
      expect(parseAmount("amount", text)).toEqual(before.amount("amount", text));
      expect(parseCount("block", text)).toEqual(before.count("block", text));
      expect(parseOptionalAmount("value_usd", text)).toEqual(
        text.trim() === "" ? { ok: true, value: null } : before.amount("value_usd", text),
      );
      expect(parseOptionalCount("block", text)).toEqual(
        text.trim() === "" ? { ok: true, value: null } : before.count("block", text),
      );
    };
    for (const text of samples) check(text);
    fc.assert(fc.property(numberish, check), { numRuns: 2000 });
  });

  it("read epoch-ms times exactly as before, up to and past the digits a double holds", () => {
    const digits = fc.string({
      unit: fc.constantFrom(..."0123456789"),
      minLength: 1,
      maxLength: 20,
    });
    const check = (text: string) => {
      expect(parseTime("occurred_at", text)).toEqual(before.epochMs("occurred_at", text));
    };
    for (const text of [
      "1709294400",
      "1709294400000",
      "000001709294400000",
      "9007199254740993",
      "123456789012345",
    ])
      check(text);
    fc.assert(fc.property(digits, check), { numRuns: 2000 });
  });

  it("recognise normal EVM hex as the regular expression did: upper case, wrong length and non-hex fail", () => {
    const hex = fc.string({
      unit: fc.constantFrom(..."0123456789abcdefABCDEFxXg é"),
      maxLength: 70,
    });
    const check = (text: string) => {
      expect(isNormalEvmHex(text, 40)).toBe(/^0x[0-9a-f]{40}$/.test(text));
      expect(isNormalEvmHex(text, 64)).toBe(/^0x[0-9a-f]{64}$/.test(text));
    };
    const address = `0x${"0123456789abcdef".repeat(3).slice(0, 40)}`;
    for (const text of [
      address,
      address.toUpperCase(),
      `0X${address.slice(2)}`,
      address.slice(0, 41),
      `${address}0`,
    ])
      check(text);
    for (let at = 2; at < 42; at++)
      for (const c of "gG é/:`@") check(address.slice(0, at) + c + address.slice(at + 1));
    fc.assert(fc.property(hex, check), { numRuns: 2000 });
    fc.assert(
      fc.property(
        fc.string({ unit: fc.constantFrom(..."0123456789abcdef"), minLength: 40, maxLength: 40 }),
        (h) => check(`0x${h}`),
      ),
    );
  });

  it("decode hashes and addresses off the fast path through core's checks, with their messages", () => {
    const decode = ledgerFieldsDecoder();
    const hash = `0x${"ab".repeat(32)}`;
    const row = (over: Partial<LedgerFields>): LedgerFields => ({
      network: "ETH",
      tx_hash: hash,
      log_index: "0",
      token_id: "native",
      from: `0x${"1".repeat(40)}`,
      to: `0x${"2".repeat(40)}`,
      amount: "1",
      occurred_at: "1709294400000",
      block: undefined,
      value_usd: undefined,
      ...over,
    });
    expect(decode(row({ tx_hash: hash.toUpperCase().replace("0X", "0x") }))).toMatchObject({
      value: { txHash: hash },
    });
    expect(decode(row({ tx_hash: `0X${hash.slice(2)}` }))).toMatchObject({ value: { txHash: hash } });
    expect(decode(row({ tx_hash: hash.slice(0, -1) }))).toEqual({
      reject: `tx_hash "${hash.slice(0, -1)}": not a valid EVM transaction hash (expected 0x followed by 64 hex characters)`,
    });
    expect(decode(row({ tx_hash: `${hash.slice(0, -1)}g` }))).toEqual({
      reject: `tx_hash "${hash.slice(0, -1)}g": not a valid EVM transaction hash (expected 0x followed by 64 hex characters)`,
    });
    expect(decode(row({ to: `0x${"A".repeat(40)}` }))).toMatchObject({
      value: { to: `0x${"a".repeat(40)}` },
    });
    expect(decode(row({ to: `0x${"a".repeat(41)}` }))).toEqual({
      reject: `to "0x${"a".repeat(41)}": not a valid EVM address (expected 0x followed by 40 hex characters)`,
    });
    expect(decode(row({ from: `0x${"é".repeat(40)}` }))).toEqual({
      reject: `from "0x${"é".repeat(40)}": not a valid EVM address (expected 0x followed by 40 hex characters)`,
    });
  });
});
