import { checkAddress, checkTxHash } from "@openkyt/core";
import { describe, expect, it } from "vitest";
import { type LedgerFields, ledgerFieldsDecoder } from "../src/ledger-rows.js";

const HASH = "0xca978112ca1bbdcafac231b39a23dc4da786eff8147c4e72b9807785afee48bb";
const FROM = "0x00000000000000000000000000000000000000a1";
const TO = "0x00000000000000000000000000000000000000b2";

/** A row of text fields, normal unless overridden. */
function fields(overrides: Partial<LedgerFields> = {}): LedgerFields {
  return {
    network: "ETH",
    tx_hash: HASH,
    log_index: "0",
    token_id: "native",
    from: FROM,
    to: TO,
    amount: "1.5",
    occurred_at: "1709294400000",
    block: undefined,
    value_usd: undefined,
    ...overrides,
  };
}

describe("ledger row decoding", () => {
  it("gives core's normal form and core's problems, whether or not a value is in normal form already", () => {
    const decode = ledgerFieldsDecoder();
    const variants = [FROM, FROM.toUpperCase().replace("0X", "0x"), ` ${FROM} `, "0xZZ00", "0x1234", ""];
    for (const from of variants) {
      const result = decode(fields({ from }));
      const check = checkAddress("ETH", from);
      if (from === "") expect(result).toEqual({ reject: "from is missing" });
      else if (check.ok) expect(result).toMatchObject({ value: { from: check.value } });
      else expect(result).toEqual({ reject: `from "${from}": ${check.problem}` });
    }
    for (const hash of [HASH, HASH.toUpperCase().replace("0X", "0x"), `${HASH} `, HASH.slice(0, 20)]) {
      const result = decode(fields({ tx_hash: hash }));
      const check = checkTxHash("ETH", hash);
      if (check.ok) expect(result).toMatchObject({ value: { txHash: check.value } });
      else expect(result).toEqual({ reject: `tx_hash "${hash}": ${check.problem}` });
    }
  });

  it("answers token ids the same on every row that repeats them, per network", () => {
    const decode = ledgerFieldsDecoder();
    const usdt = "0xdAC17F958D2ee523a2206206994597C13D831ec7";
    for (let i = 0; i < 3; i++) {
      expect(decode(fields({ token_id: usdt }))).toMatchObject({ value: { tokenId: usdt.toLowerCase() } });
      expect(decode(fields({ token_id: "NATIVE" }))).toMatchObject({ value: { tokenId: "native" } });
      expect(decode(fields({ token_id: "USDT" }))).toEqual({
        reject: 'token_id "USDT" must be native or a contract address',
      });
    }
    const tron = decode(
      fields({
        network: "TRX",
        tx_hash: HASH.slice(2),
        token_id: usdt,
        from: "TV6MuMXfmLbBqPZvBHdwFsDnQeVfnmiuSi",
        to: "TDX3tFFdWFwhBP7Cf5gJRpADpUNxQsys6m",
      }),
    );
    expect(tron).toHaveProperty("reject");
    expect(decode(fields({ token_id: usdt }))).toMatchObject({ value: { tokenId: usdt.toLowerCase() } });
  });
});
