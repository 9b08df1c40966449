/** Pure decoding: ERC-20 Transfer logs, native value, and raw units to amounts. */
import fc from "fast-check";
import { encodeAbiParameters, type Hex, pad } from "viem";
import { describe, expect, it } from "vitest";
import {
  decodeErc20Transfer,
  decodeNativeTransfer,
  NATIVE_LOG_INDEX,
  TRANSFER_TOPIC,
  type TransferLogLike,
  unitsToNumber,
} from "../src/index.js";

const FROM = "0x1111111111111111111111111111111111111111";
const TO = "0x2222222222222222222222222222222222222222";
const TOKEN = "0xdAC17F958D2ee523a2206206994597C13D831ec7";
const HASH = `0x${"ab".repeat(32)}`;

function transferLog(overrides: Partial<TransferLogLike> = {}, value = 1_000_000n): TransferLogLike {
  return {
    address: TOKEN,
    topics: [TRANSFER_TOPIC, pad(FROM), pad(TO)],
    data: encodeAbiParameters([{ type: "uint256" }], [value]),
    logIndex: 7,
    transactionHash: HASH,
    blockNumber: 19_000_000n,
    ...overrides,
  };
}

describe("decodeErc20Transfer", () => {
  it("decodes a standard Transfer log with lower-cased token and addresses", () => {
    expect(decodeErc20Transfer(transferLog())).toEqual({
      txHash: HASH,
      logIndex: 7,
      tokenId: TOKEN.toLowerCase(),
      from: FROM,
      to: TO,
      raw: 1_000_000n,
      block: 19_000_000,
    });
  });

  it("ignores ERC-721 transfers (a fourth, indexed topic), other events, zero values and removed logs", () => {
    const tokenIdTopic = pad("0x05" as Hex);
    expect(
      decodeErc20Transfer(
        transferLog({ topics: [TRANSFER_TOPIC, pad(FROM), pad(TO), tokenIdTopic], data: "0x" }),
      ),
    ).toBeNull();
    expect(decodeErc20Transfer(transferLog({ topics: [pad("0x01" as Hex), pad(FROM), pad(TO)] }))).toBeNull();
    expect(decodeErc20Transfer(transferLog({}, 0n))).toBeNull();
    expect(decodeErc20Transfer(transferLog({ removed: true }))).toBeNull();
    expect(decodeErc20Transfer(transferLog({ logIndex: null }))).toBeNull();
    expect(decodeErc20Transfer(transferLog({ data: "0x1234" }))).toBeNull();
  });
});

describe("decodeNativeTransfer", () => {
  const move = { hash: HASH, from: FROM, to: TO, value: 5n, blockNumber: 3n, status: "success" as const };

  it("is the value moved, at logIndex -1", () => {
    expect(decodeNativeTransfer(move)).toMatchObject({
      logIndex: NATIVE_LOG_INDEX,
      tokenId: "native",
      raw: 5n,
    });
  });

  it("goes to the created contract for a creation, and is nothing for zero value or a revert", () => {
    expect(decodeNativeTransfer({ ...move, to: null, contractAddress: TOKEN })?.to).toBe(TOKEN.toLowerCase());
    expect(decodeNativeTransfer({ ...move, value: 0n })).toBeNull();
    expect(decodeNativeTransfer({ ...move, status: "reverted" })).toBeNull();
  });
});

/** A finite non-negative double as an exact fraction [numerator, denominator]. */
function exactFraction(x: number): [bigint, bigint] {
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, x);
  const bits = view.getBigUint64(0);
  const biased = Number((bits >> 52n) & 0x7ffn);
  const fraction = bits & ((1n << 52n) - 1n);
  const mantissa = biased === 0 ? fraction : fraction | (1n << 52n);
  const exponent = (biased === 0 ? 1 : biased) - 1075;
  return exponent >= 0 ? [mantissa << BigInt(exponent), 1n] : [mantissa, 1n << BigInt(-exponent)];
}

describe("unitsToNumber", () => {
  it("divides by 10^decimals exactly where a double can hold the result", () => {
    expect(unitsToNumber(1_250_000_000_000_000_000n, 18)).toBe(1.25);
    expect(unitsToNumber(12_345_678n, 6)).toBe(12.345678);
    expect(unitsToNumber(1n, 18)).toBe(1e-18);
    expect(unitsToNumber(42n, 0)).toBe(42);
  });

  it("keeps about 16 significant digits of large amounts", () => {
    expect(unitsToNumber(123_456_789_123_456_789_000_000_000n, 18)).toBe(123456789.12345679);
    expect(unitsToNumber(2n ** 256n - 1n, 18)).toBeCloseTo(1.157920892373162e59, -45);
  });

  it("is within 2^-53 of the exact quotient, relatively (checked in exact integer arithmetic)", () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: 1n, max: 2n ** 256n - 1n }),
        fc.integer({ min: 0, max: 40 }),
        (raw, decimals) => {
          const [num, den] = exactFraction(unitsToNumber(raw, decimals));
          const scale = 10n ** BigInt(decimals);
          // |num/den - raw/scale| <= 2^-53 * raw/scale, multiplied through by den * scale * 2^53.
          const gap = num * scale - raw * den;
          expect((gap < 0n ? -gap : gap) * 2n ** 53n <= raw * den).toBe(true);
        },
      ),
    );
  });

  it("refuses negative or fractional decimals", () => {
    expect(() => unitsToNumber(1n, -1)).toThrow(/decimals/);
    expect(() => unitsToNumber(1n, 1.5)).toThrow(/decimals/);
  });
});
