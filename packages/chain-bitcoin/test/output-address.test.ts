/**
 * Output scripts to addresses against published vectors (BIP173, BIP350, the genesis coinbase)
 * and core's own address validator, which decodes Base58Check and Bech32 independently.
 */
import { checkAddress } from "@openkyt/core";
import { describe, expect, it } from "vitest";
import { addressOfScript, bitcoinParams, bytesOfHex, decodeOutputScript } from "../src/index.js";

const script = (hex: string) => bytesOfHex(hex) as Uint8Array;
const main = bitcoinParams("BTC");
const test = bitcoinParams("BTC", "test");
const regtest = bitcoinParams("BTC", "regtest");
const ltc = bitcoinParams("LTC");

const P2WPKH = "0014751e76e8199196d454941c45d1b3a323f1433bd6";
const P2WSH = "00201863143c14c5166804bd19203356da136c985678cd4d27a1b8c6329604903262";
const P2TR = "512079be667ef9dcbbac55a06295ce870b07029bfcdb2dce28d959f2815b16f81798";
const GENESIS_PUBKEY =
  "04678afdb0fe5548271967f1a67130b7105cd6a828e03909a67962e0ea1f61deb649f6bc3f4cef38c4f35504e51ec112de5c384df7ba0b8d578a4c702b6bf11d5f";

describe("decodeOutputScript", () => {
  it("writes segwit v0 and v1 outputs as BIP173 and BIP350 give them", () => {
    expect(decodeOutputScript(script(P2WPKH), main)).toEqual({
      kind: "p2wpkh",
      address: "bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4",
    });
    expect(addressOfScript(script(P2WPKH), test)).toBe("tb1qw508d6qejxtdg4y5r3zarvary0c5xw7kxpjzsx");
    expect(addressOfScript(script(P2WSH), main)).toBe(
      "bc1qrp33g0q5c5txsp9arysrx4k6zdkfs4nce4xj0gdcccefvpysxf3qccfmv3",
    );
    expect(addressOfScript(script(P2WSH), test)).toBe(
      "tb1qrp33g0q5c5txsp9arysrx4k6zdkfs4nce4xj0gdcccefvpysxf3q0sl5k7",
    );
    expect(decodeOutputScript(script(P2TR), main)).toEqual({
      kind: "p2tr",
      address: "bc1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vqzk5jj0",
    });
  });

  it("writes a P2PK output as the P2PKH address of its key (the genesis coinbase pays 1A1zP1...)", () => {
    expect(decodeOutputScript(script(`41${GENESIS_PUBKEY}ac`), main)).toEqual({
      kind: "p2pk",
      address: "1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa",
    });
  });

  it("uses each network's prefixes: regtest bcrt, Litecoin ltc and L/M", () => {
    expect(addressOfScript(script(P2WPKH), regtest)).toMatch(/^bcrt1q/);
    expect(addressOfScript(script(P2WPKH), ltc)).toMatch(/^ltc1q/);
    const pkh = addressOfScript(script("76a914751e76e8199196d454941c45d1b3a323f1433bd688ac"), ltc) as string;
    expect(pkh).toMatch(/^L/);
    expect(checkAddress("LTC", pkh).ok).toBe(true);
    const sh = addressOfScript(script("a914751e76e8199196d454941c45d1b3a323f1433bd687"), ltc) as string;
    expect(sh).toMatch(/^M/);
    expect(checkAddress("LTC", sh).ok).toBe(true);
  });

  it("gives addresses core's validator accepts: P2PKH 1..., P2SH 3...", () => {
    const pkh = addressOfScript(script("76a914751e76e8199196d454941c45d1b3a323f1433bd688ac"), main) as string;
    const sh = addressOfScript(script("a914751e76e8199196d454941c45d1b3a323f1433bd687"), main) as string;
    expect(pkh).toMatch(/^1/);
    expect(sh).toMatch(/^3/);
    expect(checkAddress("BTC", pkh)).toEqual({ ok: true, value: pkh });
    expect(checkAddress("BTC", sh)).toEqual({ ok: true, value: sh });
  });

  it("gives null for scripts that pay no address: OP_RETURN, bare multisig, garbage, empty", () => {
    expect(addressOfScript(script("6a0b68656c6c6f20776f726c64"), main)).toBeNull();
    const key = GENESIS_PUBKEY;
    expect(addressOfScript(script(`5141${key}41${key}52ae`), main)).toBeNull();
    expect(addressOfScript(script("4c"), main)).toBeNull();
    expect(addressOfScript(new Uint8Array(0), main)).toBeNull();
  });
});
