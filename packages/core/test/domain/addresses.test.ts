import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  addressProblem,
  BASE58_ALPHABET,
  BECH32_CHARSET,
  isSymbolTokenId,
  normalizeAddress,
  normalizeTokenId,
  normalizeTxHash,
  tokenIdProblem,
  txHashProblem,
} from "../../src/domain/addresses.js";
import { isKytError } from "../../src/errors.js";

// Real addresses from the OFAC SDN list (public domain), plus the USDT-TRC20 contract.
const REAL: Readonly<Record<string, ReadonlyArray<string>>> = {
  ETH: ["0x0330070FD38Ec3bB94F58FA55D40368271E9e54A", "0x04DBA1194ee10112fE6C3207C0687DEf0e78baCf"],
  TRX: [
    "TA3rH2A7iHnm6pKH8gr9cK1EZnShnmZdFg",
    "TZB4NrX7k9ZsV6PRc1GigAztLL8WHpLvwP",
    "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t",
  ],
  BTC: [
    "194xmrZA53UBsZau2PnJLdmVVW9m5feeS",
    "3F2sZ4jbhvDKQdGbHYPC6ZxFXEau2m5Lqj",
    "bc1q05aktddf9ce4p7hh3stgsf253m4vweu7nkhtmw",
    "bc1qz654h5qcqzalv6ltpxsk4ksdcc3e20wkedqntgnarv3a0t2e2p7scr48pl",
    "bc1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vqzk5jj0",
  ],
  LTC: [
    "LNf2JDiuunBz7GMDKFYHN4rq5meXWxiwfb",
    "M8yFL6SFC6TreATegTyuSYkDfDRbisdpT3",
    "3F2sZ4jbhvDKQdGbHYPC6ZxFXEau2m5Lqj",
    "ltc1qr8ntsedq8tv0svmxqhzvdcdl5k7kntdmnhwep7",
  ],
};

/** Every address with one character replaced by another of its alphabet. */
function corruptions(address: string): string[] {
  const segwit = /^(bc|ltc)1/i.test(address);
  const alphabet = segwit ? BECH32_CHARSET : BASE58_ALPHABET;
  const start = segwit ? address.indexOf("1") + 1 : 1;
  const out: string[] = [];
  for (let i = start; i < address.length; i++) {
    const at = alphabet.indexOf(address[i] ?? "");
    expect(at).toBeGreaterThanOrEqual(0);
    const other = alphabet[(at + 7) % alphabet.length];
    out.push(address.slice(0, i) + other + address.slice(i + 1));
  }
  return out;
}

describe("addresses", () => {
  it("accepts real addresses of every family", () => {
    for (const [network, list] of Object.entries(REAL)) {
      for (const address of list)
        expect(addressProblem(network, address), `${network} ${address}`).toBeNull();
    }
  });

  it("lower-cases EVM addresses and keeps Tron and base58 case", () => {
    expect(normalizeAddress("ETH", "0x0330070FD38Ec3bB94F58FA55D40368271E9e54A")).toBe(
      "0x0330070fd38ec3bb94f58fa55d40368271e9e54a",
    );
    expect(normalizeAddress("TRX", " TA3rH2A7iHnm6pKH8gr9cK1EZnShnmZdFg ")).toBe(
      "TA3rH2A7iHnm6pKH8gr9cK1EZnShnmZdFg",
    );
    expect(normalizeAddress("BTC", "194xmrZA53UBsZau2PnJLdmVVW9m5feeS")).toBe(
      "194xmrZA53UBsZau2PnJLdmVVW9m5feeS",
    );
    expect(normalizeAddress("btc", "BC1Q05AKTDDF9CE4P7HH3STGSF253M4VWEU7NKHTMW")).toBe(
      "bc1q05aktddf9ce4p7hh3stgsf253m4vweu7nkhtmw",
    );
  });

  it("every generated EVM address round-trips lower-cased", () => {
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 20, maxLength: 20 }), fc.boolean(), (bytes, upper) => {
        const lower = `0x${Buffer.from(bytes).toString("hex")}`;
        const raw = upper ? `0x${lower.slice(2).toUpperCase()}` : lower;
        expect(normalizeAddress("BSC", raw)).toBe(lower);
      }),
    );
  });

  it("fails the checksum when one character changes", () => {
    for (const [network, list] of Object.entries(REAL)) {
      if (network === "ETH") continue;
      for (const address of list) {
        for (const bad of corruptions(address)) {
          if (bad === address) continue;
          expect(addressProblem(network, bad), `${network} ${bad}`).not.toBeNull();
        }
      }
    }
    expect(addressProblem("TRX", "TA3rH2A7iHnm6pKH8gr9cK1EZnShnmZdFh")).toBe(
      "not a valid Tron address (base58check checksum mismatch)",
    );
    expect(addressProblem("BTC", "bc1q05aktddf9ce4p7hh3stgsf253m4vweu7nkhtmx")).toBe(
      "not a valid Bitcoin address (bech32 checksum mismatch)",
    );
  });

  it("refuses addresses of another family or version", () => {
    expect(addressProblem("TRX", "194xmrZA53UBsZau2PnJLdmVVW9m5feeS")).toMatch(
      /version byte 0x00, expected 0x41/,
    );
    expect(addressProblem("BTC", "LNf2JDiuunBz7GMDKFYHN4rq5meXWxiwfb")).toMatch(
      /not a valid Bitcoin address/,
    );
    expect(addressProblem("LTC", "194xmrZA53UBsZau2PnJLdmVVW9m5feeS")).toMatch(
      /not a valid Litecoin address/,
    );
    expect(addressProblem("LTC", "bc1q05aktddf9ce4p7hh3stgsf253m4vweu7nkhtmw")).toMatch(/Litecoin/);
    expect(addressProblem("BTC", "ltc1qr8ntsedq8tv0svmxqhzvdcdl5k7kntdmnhwep7")).toMatch(/Bitcoin/);
    expect(addressProblem("ETH", "TA3rH2A7iHnm6pKH8gr9cK1EZnShnmZdFg")).toBe(
      "not a valid EVM address (expected 0x followed by 40 hex characters)",
    );
    expect(addressProblem("ETH", "0x0330070FD38Ec3bB94F58FA55D40368271E9e54")).not.toBeNull();
  });

  it("refuses mixed-case bech32 and testnet addresses", () => {
    expect(addressProblem("BTC", "bc1Q05aktddf9ce4p7hh3stgsf253m4vweu7nkhtmw")).toBe(
      "not a valid Bitcoin address (mixed case)",
    );
    expect(
      addressProblem("BTC", "tb1qrp33g0q5c5txsp9arysrx4k6zdkfs4nce4xj0gdcccefvpysxf3q0sl5k7"),
    ).not.toBeNull();
  });

  it("names unknown networks and empty values", () => {
    expect(addressProblem("DOGE", "D8x")).toBe('unknown network "DOGE"');
    expect(addressProblem("ETH", "  ")).toBe("must not be empty");
  });

  it("normalizeAddress throws a VALIDATION_ERROR naming the field", () => {
    try {
      normalizeAddress("TRX", "TA3rH2A7iHnm6pKH8gr9cK1EZnShnmZdFh", "input_address");
      expect.unreachable();
    } catch (error) {
      expect(isKytError(error, "VALIDATION_ERROR")).toBe(true);
      if (isKytError(error)) expect(Object.keys(error.errors)).toEqual(["input_address"]);
    }
  });
});

describe("transaction hashes", () => {
  const evm = "0x28138CD586826bbad08d1d0e64b566795b5907790ad30ebb0722948c2ba21d09";
  const plain = "A1075DB55D416D3CA199F55B6084E2115B9345E16C5CF302FC80E9D5FBF5D48D";

  it("EVM: 0x + 64 hex, lower-cased", () => {
    expect(normalizeTxHash("ETH", evm)).toBe(evm.toLowerCase());
    expect(txHashProblem("ETH", evm.slice(2))).toMatch(/0x followed by 64 hex/);
    expect(txHashProblem("ETH", `${evm}0`)).not.toBeNull();
  });

  it("TRX, BTC, LTC: 64 hex without 0x, lower-cased", () => {
    for (const network of ["TRX", "BTC", "LTC"]) {
      expect(normalizeTxHash(network, plain)).toBe(plain.toLowerCase());
      expect(txHashProblem(network, `0x${plain}`)).toMatch(/64 hex characters without 0x/);
      expect(txHashProblem(network, plain.replace("A", "G"))).not.toBeNull();
    }
  });
});

describe("token ids", () => {
  it("omitted, null, 'null', '' and NATIVE are native", () => {
    for (const raw of [undefined, null, "null", "", "  ", "native", "NATIVE", "Native"]) {
      expect(normalizeTokenId("ETH", raw)).toBe("native");
    }
  });

  it("EVM contracts are lower-cased and must be valid", () => {
    expect(normalizeTokenId("ETH", "0xdAC17F958D2ee523a2206206994597C13D831ec7")).toBe(
      "0xdac17f958d2ee523a2206206994597c13d831ec7",
    );
    expect(tokenIdProblem("ETH", "0xdAC17F958D2ee523a2206206994597C13D831e")).toMatch(
      /not a valid EVM address/,
    );
  });

  it("Tron contracts keep their case and must pass the checksum", () => {
    expect(normalizeTokenId("TRX", "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t")).toBe(
      "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t",
    );
    expect(tokenIdProblem("TRX", "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6u")).toBe(
      "not a valid Tron address (base58check checksum mismatch)",
    );
  });

  it("symbols are upper-cased for the TokenCatalog", () => {
    expect(normalizeTokenId("ETH", "usdt")).toBe("USDT");
    expect(normalizeTokenId("TRX", "usdt")).toBe("USDT");
    expect(normalizeTokenId("BTC", "btc")).toBe("BTC");
    expect(isSymbolTokenId("ETH", "USDT")).toBe(true);
    expect(isSymbolTokenId("ETH", "native")).toBe(false);
    expect(isSymbolTokenId("ETH", "0xdac17f958d2ee523a2206206994597c13d831ec7")).toBe(false);
    expect(isSymbolTokenId("TRX", "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t")).toBe(false);
  });

  it("anything else is a problem", () => {
    expect(tokenIdProblem("ETH", "not a token")).toMatch(/not a valid token id/);
    expect(tokenIdProblem("BTC", "x".repeat(21))).toMatch(/not a valid token id/);
    expect(tokenIdProblem("XYZ", "usdt")).toBe('unknown network "XYZ"');
    expect(() => normalizeTokenId("ETH", "!!")).toThrow(/token_id: not a valid token id/);
  });
});
