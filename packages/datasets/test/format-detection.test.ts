import { isKytError } from "@openkyt/core";
import { describe, expect, it } from "vitest";
import { detectFormat, FORMATS, type ImportKind, refusalOf } from "../src/index.js";
import { fixture } from "./import-fixtures.js";

const CASES: ReadonlyArray<readonly [string, ImportKind, string]> = [
  ["ofac-sdn-2026-08-20.csv", "sanctions", "ofac-csv"],
  ["ofac-history.csv", "sanctions", "ofac-history"],
  ["complete-wallet-list.txt", "sanctions", "address-list"],
  ["lists-2024-09-27/sanctioned_addresses_USDT.txt", "sanctions", "address-list"],
  ["labels.csv", "labels", "csv"],
  ["eth-labels.csv", "labels", "eth-labels"],
  ["tagpack-flat.csv", "labels", "tagpack-csv"],
  ["tagpack-pack.yaml", "labels", "tagpack-yaml"],
  ["ledger.csv", "ledger", "csv"],
  ["ledger.jsonl", "ledger", "jsonl"],
  ["tronscan-trc20.csv", "ledger", "tronscan-trc20"],
  ["bitcoin-core.jsonl", "ledger", "bitcoin-core"],
  ["esplora.jsonl", "ledger", "esplora"],
  ["blk00000.dat", "ledger", "bitcoin-blocks"],
  ["tokens.csv", "tokens", "csv"],
  ["ethereum-lists.csv", "tokens", "ethereum-lists"],
  ["trustwallet-trc20.csv", "tokens", "trustwallet-trc20"],
  ["prices.csv", "prices", "csv"],
  ["ETH-USD.csv", "prices", "yahoo"],
  ["USDT-USD_1d.csv", "prices", "yahoo"],
];

describe("format detection", () => {
  it.each(CASES)("recognises %s as %s/%s, with or without the kind", async (name, kind, id) => {
    expect(await detectFormat(fixture(name), kind)).toMatchObject({ kind, id });
    expect(await detectFormat(fixture(name))).toMatchObject({ kind, id });
  });

  it("refuses a file of another kind, naming the formats it expected", async () => {
    const failure = await detectFormat(fixture("ledger.csv"), "labels").catch((e: unknown) => e);
    expect(isKytError(failure, "VALIDATION_ERROR")).toBe(true);
    expect(refusalOf(failure)).toBe("UNKNOWN_FORMAT");
    expect((failure as Error).message).toContain("eth-labels (dawsbot/eth-labels CSV");
    expect((failure as Error).message).toContain('first line is "network,tx_hash');
    expect((failure as Error).message).toContain("It looks like a ledger file (csv)");
  });

  it("lists every format once per kind", () => {
    const ids = FORMATS.map((f) => `${f.kind}/${f.id}`);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids).toHaveLength(
      CASES.filter(([name]) => !name.includes("USDT-USD") && !name.includes("lists-")).length,
    );
  });
});
