import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  BASE58_ALPHABET,
  convertBits,
  decodeBase58,
  decodeBase58Check,
  decodeBech32,
  decodeSegwitAddress,
  encodeBase58,
  encodeBase58Check,
  encodeBech32,
  encodeSegwitAddress,
} from "../../src/domain/addresses.js";

const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString("hex");

describe("base58", () => {
  it("encodes known values, leading zero bytes as 1s", () => {
    expect(encodeBase58(new Uint8Array([]))).toBe("");
    expect(encodeBase58(new Uint8Array([0]))).toBe("1");
    expect(encodeBase58(new Uint8Array([0, 0, 1]))).toBe("112");
    expect(encodeBase58(Buffer.from("hello world"))).toBe("StV1DL6CwTryKyV");
  });

  it("round-trips any bytes", () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 40 }), (bytes) => {
        expect(hex(decodeBase58(encodeBase58(bytes)) ?? new Uint8Array([1, 2, 3]))).toBe(hex(bytes));
      }),
    );
  });

  it("refuses characters outside the alphabet (0, O, I, l)", () => {
    for (const c of "0OIl+") expect(decodeBase58(`1a${c}b`)).toBeNull();
    expect(BASE58_ALPHABET).toHaveLength(58);
  });

  it("base58check round-trips and catches a changed payload", () => {
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 1, maxLength: 30 }), (payload) => {
        const decoded = decodeBase58Check(encodeBase58Check(payload));
        expect(decoded.ok && hex(decoded.payload)).toBe(hex(payload));
      }),
    );
    const decoded = decodeBase58Check("194xmrZA53UBsZau2PnJLdmVVW9m5feeS");
    expect(decoded.ok).toBe(true);
    expect(decodeBase58Check("194xmrZA53UBsZau2PnJLdmVVW9m5feeT")).toEqual({
      ok: false,
      problem: "base58check checksum mismatch",
    });
  });
});

// BIP-173 / BIP-350 test vectors.
const VALID_BECH32 = [
  "A12UEL5L",
  "a12uel5l",
  "an83characterlonghumanreadablepartthatcontainsthenumber1andtheexcludedcharactersbio1tt5tgs",
  "abcdef1qpzry9x8gf2tvdw0s3jn54khce6mua7lmqqqxw",
  "11qqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqc8247j",
  "split1checkupstagehandshakeupstreamerranterredcaperred2y9e3w",
];
const VALID_BECH32M = [
  "A1LQFN3A",
  "a1lqfn3a",
  "an83characterlonghumanreadablepartthatcontainsthetheexcludedcharactersbioandnumber11sg7hg6",
  "abcdef1l7aum6echk45nj3s0wdvt2fg8x9yrzpqzd3ryx",
  "11llllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllludsr8",
  "split1checkupstagehandshakeupstreamerranterredcaperredlc445v",
];
const INVALID_BECH32 = [
  " 1nwldj5",
  "\x7f1axkwrx",
  "\x801eym55h",
  "an84characterslonghumanreadablepartthatcontainsthenumber1andtheexcludedcharactersbio1569pvx",
  "pzry9x0s0muk",
  "1pzry9x0s0muk",
  "x1b4n0q5v",
  "li1dgmt3",
  "de1lg7wt\xff",
  "A1G7SGD8",
  "10a06t8",
  "1qzzfhee",
  " 1xj0phk",
  "\x7f1g6xzxy",
  "\x801vctc34",
  "an84characterslonghumanreadablepartthatcontainsthetheexcludedcharactersbioandnumber11d6pts4",
  "qyrz8wqd2c9m",
  "1qyrz8wqd2c9m",
  "y1b0jsk6g",
  "lt1igcx5c0",
  "in1muywd",
  "mm1crxm3i",
  "au1s5cgom",
  "M1VUXWEZ",
  "16plkw9",
  "1p2gdwpf",
];
const VALID_SEGWIT: ReadonlyArray<readonly [string, string]> = [
  ["BC1QW508D6QEJXTDG4Y5R3ZARVARY0C5XW7KV8F3T4", "0014751e76e8199196d454941c45d1b3a323f1433bd6"],
  [
    "tb1qrp33g0q5c5txsp9arysrx4k6zdkfs4nce4xj0gdcccefvpysxf3q0sl5k7",
    "00201863143c14c5166804bd19203356da136c985678cd4d27a1b8c6329604903262",
  ],
  [
    "bc1pw508d6qejxtdg4y5r3zarvary0c5xw7kw508d6qejxtdg4y5r3zarvary0c5xw7kt5nd6y",
    "5128751e76e8199196d454941c45d1b3a323f1433bd6751e76e8199196d454941c45d1b3a323f1433bd6",
  ],
  ["BC1SW50QGDZ25J", "6002751e"],
  ["bc1zw508d6qejxtdg4y5r3zarvaryvaxxpcs", "5210751e76e8199196d454941c45d1b3a323"],
  [
    "tb1qqqqqp399et2xygdj5xreqhjjvcmzhxw4aywxecjdzew6hylgvsesrxh6hy",
    "0020000000c4a5cad46221b2a187905e5266362b99d5e91c6ce24d165dab93e86433",
  ],
  [
    "tb1pqqqqp399et2xygdj5xreqhjjvcmzhxw4aywxecjdzew6hylgvsesf3hn0c",
    "5120000000c4a5cad46221b2a187905e5266362b99d5e91c6ce24d165dab93e86433",
  ],
  [
    "bc1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vqzk5jj0",
    "512079be667ef9dcbbac55a06295ce870b07029bfcdb2dce28d959f2815b16f81798",
  ],
];
const INVALID_SEGWIT = [
  "tc1qw508d6qejxtdg4y5r3zarvary0c5xw7kg3g4ty",
  "bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t5",
  "BC13W508D6QEJXTDG4Y5R3ZARVARY0C5XW7KN40WF2",
  "bc1rw5uspcuh",
  "bc10w508d6qejxtdg4y5r3zarvary0c5xw7kw508d6qejxtdg4y5r3zarvary0c5xw7kw5rljs90",
  "BC1QR508D6QEJXTDG4Y5R3ZARVARYV98GJ9P",
  "tb1qrp33g0q5c5txsp9arysrx4k6zdkfs4nce4xj0gdcccefvpysxf3q0sL5k7",
  "bc1zw508d6qejxtdg4y5r3zarvaryvqyzf3du",
  "tb1qrp33g0q5c5txsp9arysrx4k6zdkfs4nce4xj0gdcccefvpysxf3pjxtptv",
  "tc1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vq5zuyut",
  "bc1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vqh2y7hd",
  "tb1z0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vqglt7rf",
  "BC1S0XLXVLHEMJA6C4DQV22UAPCTQUPFHLXM9H8Z3K2E72Q4K9HCZ7VQ54WELL",
  "bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kemeawh",
  "tb1q0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vq24jc47",
  "bc1p38j9r5y49hruaue7wxjce0updqjuyyx0kh56v8s25huc6995vvpql3jow4",
  "BC130XLXVLHEMJA6C4DQV22UAPCTQUPFHLXM9H8Z3K2E72Q4K9HCZ7VQ7ZWS8R",
  "bc1pw5dgrnzv",
  "bc1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7v8n0nx0muaewav253zgeav",
  "tb1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vq47Zagq",
  "bc1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7v07qwwzcrf",
  "tb1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vpggkg4j",
  "bc1gmk9yu",
];

/** The scriptPubKey of a witness program, as the BIP vectors give it. */
function scriptPubKey(version: number, program: Uint8Array): string {
  return hex(Uint8Array.from([version === 0 ? 0 : version + 0x50, program.length, ...program]));
}

describe("bech32 and bech32m (BIP-173, BIP-350 vectors)", () => {
  it("accepts the valid checksums with the right encoding and re-encodes them", () => {
    for (const [list, encoding] of [
      [VALID_BECH32, "bech32"],
      [VALID_BECH32M, "bech32m"],
    ] as const) {
      for (const text of list) {
        const decoded = decodeBech32(text);
        expect(decoded.ok && decoded.encoding, text).toBe(encoding);
        if (decoded.ok) expect(encodeBech32(decoded.hrp, decoded.data, encoding)).toBe(text.toLowerCase());
      }
    }
  });

  it("refuses the invalid checksums", () => {
    for (const text of INVALID_BECH32) expect(decodeBech32(text).ok, JSON.stringify(text)).toBe(false);
  });

  it("decodes the valid segwit addresses to their scriptPubKey and re-encodes them", () => {
    for (const [address, script] of VALID_SEGWIT) {
      const hrp = address.slice(0, 2).toLowerCase();
      const decoded = decodeSegwitAddress(hrp, address);
      if (!decoded.ok) throw new Error(`${address}: ${decoded.problem}`);
      expect(scriptPubKey(decoded.version, decoded.program)).toBe(script);
      expect(encodeSegwitAddress(hrp, decoded.version, decoded.program)).toBe(address.toLowerCase());
    }
  });

  it("refuses the invalid segwit addresses for both bc and tb", () => {
    for (const address of INVALID_SEGWIT) {
      expect(decodeSegwitAddress("bc", address).ok, address).toBe(false);
      expect(decodeSegwitAddress("tb", address).ok, address).toBe(false);
    }
  });

  it("round-trips witness programs of every valid version and length", () => {
    const program = fc.oneof(
      fc.record({
        version: fc.constant(0),
        program: fc.oneof(
          fc.uint8Array({ minLength: 20, maxLength: 20 }),
          fc.uint8Array({ minLength: 32, maxLength: 32 }),
        ),
      }),
      fc.record({
        version: fc.integer({ min: 1, max: 16 }),
        program: fc.uint8Array({ minLength: 2, maxLength: 40 }),
      }),
    );
    fc.assert(
      fc.property(program, fc.constantFrom("bc", "ltc"), ({ version, program }, hrp) => {
        const decoded = decodeSegwitAddress(hrp, encodeSegwitAddress(hrp, version, program));
        expect(decoded.ok && [decoded.version, hex(decoded.program)]).toEqual([version, hex(program)]);
      }),
    );
  });

  it("convertBits refuses non-zero padding", () => {
    expect(convertBits([0xff], 8, 5, true)).toEqual([31, 28]);
    expect(convertBits([31, 28], 5, 8, false)).toEqual([0xff]);
    expect(convertBits([31, 29], 5, 8, false)).toBeNull();
  });
});
