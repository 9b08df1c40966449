/**
 * Every importer over the full public files of the development environment's shared data folder
 * (`../shared/data` beside the project, or OPENKYT_SHARED_DATA), with their counts checked. The
 * files are read in place, never copied; without the folder these tests are skipped, except
 * under CI (CI=true), where the folder lies beside the clone and its absence is a failure.
 */
import { existsSync, readdirSync } from "node:fs";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { type Store, sanctionsAsOf } from "@openkyt/core";
import { createSqliteStore } from "@openkyt/store-sqlite";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type ImportOptions, type ImportSummary, importFile } from "../src/index.js";
import { balanced, counts } from "./import-fixtures.js";

const DATA =
  process.env.OPENKYT_SHARED_DATA ??
  resolve(fileURLToPath(new URL(".", import.meta.url)), "../../../../shared/data");
const present = existsSync(join(DATA, "SOURCES.md"));
if (!present)
  console.log(`real-data tests skipped: no shared data folder at ${DATA} (set OPENKYT_SHARED_DATA)`);

if (!present && process.env.CI === "true") {
  describe("the shared data folder under CI", () => {
    it("is there: CI lays it beside the clone, so its absence fails rather than skips", () => {
      expect.fail(`no shared data folder at ${DATA} (set OPENKYT_SHARED_DATA)`);
    });
  });
}

const OFAC = join(DATA, "ofac-sanctions");
const day = (iso: string) => Date.parse(`${iso}T00:00:00Z`);

/** The summed counts of several imports into one store. */
async function importAll(
  store: Store,
  runs: ReadonlyArray<ImportOptions>,
): Promise<ReturnType<typeof counts>> {
  const total = {
    rowsRead: 0,
    added: 0,
    updated: 0,
    unchanged: 0,
    duplicates: 0,
    skipped: 0,
    rejected: 0,
    delisted: 0,
  };
  for (const run of runs) {
    const summary: ImportSummary = await importFile(store, run);
    expect(balanced(summary)).toBe(true);
    for (const [key, value] of Object.entries(counts(summary))) total[key as keyof typeof total] += value;
  }
  return total;
}

describe.skipIf(!present)("importers over the full public files", () => {
  let store: Store;
  beforeEach(async () => {
    store = await createSqliteStore({ filename: ":memory:" });
  });
  afterEach(async () => {
    await store.close();
  });

  it("the derived OFAC SDN CSV: 977 rows, 923 listings, 39 rows of assets without a network", async () => {
    const file = join(OFAC, "derived_ofac_sdn_crypto_addresses_2026-08-20.csv");
    const summary = await importFile(store, { kind: "sanctions", file });
    expect(counts(summary)).toEqual({
      rowsRead: 977,
      added: 923,
      updated: 0,
      unchanged: 0,
      duplicates: 15,
      skipped: 39,
      rejected: 0,
      delisted: 0,
    });
    expect(summary.skippedBy).toMatchObject({
      "asset XMR": 11,
      "asset BCH": 7,
      "asset DASH": 5,
      "asset SOL": 4,
    });
    expect(summary.warnings.map((w) => w.line)).toEqual([818]);
    expect(await store.listSanctionsOfList("OFAC SDN")).toHaveLength(923);
    const again = await importFile(store, { kind: "sanctions", file });
    expect(counts(again)).toMatchObject({ added: 0, updated: 0, unchanged: 923, delisted: 0 });
  });

  it("the all-chain wallet list, the per-asset lists and the snapshot history", async () => {
    const complete = await importFile(store, {
      kind: "sanctions",
      file: join(OFAC, "1_Complete_Sanctioned_Wallet_List.txt"),
    });
    expect(counts(complete)).toMatchObject({
      rowsRead: 977,
      added: 925,
      duplicates: 16,
      skipped: 36,
      rejected: 0,
    });
    const lists = join(OFAC, "0xB10C-lists-2024-09-27");
    const perAsset = readdirSync(lists)
      .sort()
      .map(
        (name): ImportOptions => ({ kind: "sanctions", file: join(lists, name), listName: "OFAC SDN 2024" }),
      );
    expect(await importAll(store, perAsset)).toEqual({
      rowsRead: 654,
      added: 621,
      updated: 0,
      unchanged: 12,
      duplicates: 0,
      skipped: 21,
      rejected: 0,
      delisted: 0,
    });
    const history = await importFile(store, {
      kind: "sanctions",
      file: join(OFAC, "derived_ofac_address_snapshot_history.csv"),
      listName: "OFAC SDN 2024",
      // 90 of the 621 listings end: more than the 5% a run may end unasked.
      allowMassDelist: true,
    });
    // 4 periods start on the 2024-09-27 lists' date (the same listings); 90 listings of those lists ended later.
    expect(counts(history)).toEqual({
      rowsRead: 1053,
      added: 1010,
      updated: 0,
      unchanged: 4,
      duplicates: 0,
      skipped: 39,
      rejected: 0,
      delisted: 90,
    });
    // Tornado Cash: on the 2024 lists, delisted on 2025-03-21 by the history.
    const tornado = "0x8589427373d6d84e98730d7795d8f6f8731fda16";
    const listings = await store.getSanctions([tornado]);
    expect(sanctionsAsOf(listings, tornado, { from: day("2024-01-01"), to: day("2024-01-02") }).hit).toBe(
      true,
    );
    expect(sanctionsAsOf(listings, tornado, { from: day("2025-06-01"), to: day("2026-08-22") }).hit).toBe(
      false,
    );
  });

  it("dawsbot/eth-labels: 55,235 rows, 17,169 attributions, unknown labels counted", async () => {
    const file = join(DATA, "eth-labels/dawsbot_eth_labels_accounts_2024-06.csv");
    const summary = await importFile(store, { kind: "labels", file });
    expect(counts(summary)).toMatchObject({
      rowsRead: 55_235,
      added: 17_169,
      duplicates: 309,
      skipped: 37_756,
      rejected: 1,
    });
    expect(summary.skippedBy).toMatchObject({
      "chain celo": 634,
      "chain gnosis": 339,
      "label friend-tech-users": 5269,
    });
    const [coinbase] = await store.getAttributions("ETH", ["0x71660c4005ba85c37ccec55d0c4493e66fe775d3"]);
    expect(coinbase?.entityCategory).toBe("exchange");
    const again = await importFile(store, { kind: "labels", file });
    expect(counts(again)).toMatchObject({ added: 0, updated: 0, unchanged: 17_169 });
  });

  it("the GraphSense TagPacks, flat CSV and the YAML packs", async () => {
    const flat = await importFile(store, {
      kind: "labels",
      file: join(DATA, "graphsense-tagpacks/graphsense_tagpacks_flat.csv"),
    });
    expect(counts(flat)).toMatchObject({
      rowsRead: 42_848,
      added: 22_002,
      updated: 0,
      unchanged: 0,
      duplicates: 10_029,
      skipped: 10_813,
      rejected: 4,
    });
    expect(flat.skippedBy).toMatchObject({
      "abuse extremism": 488,
      "category user": 571,
      "currency XMR": 36,
    });
    const packs = join(DATA, "graphsense-tagpacks/packs");
    const yaml = readdirSync(packs)
      .sort()
      .map((name): ImportOptions => ({ kind: "labels", file: join(packs, name) }));
    const other = await createSqliteStore({ filename: ":memory:" });
    try {
      expect(await importAll(other, yaml)).toEqual({
        rowsRead: 3665,
        added: 2776,
        updated: 1,
        unchanged: 52,
        duplicates: 66,
        skipped: 770,
        rejected: 0,
        delisted: 0,
      });
    } finally {
      await other.close();
    }
  });

  it("the Tronscan TRC-20 export of the Israeli NBCTF seizure wallets (read in place)", async () => {
    const file = join(DATA, "transfer-graphs/israel-nbctf-aso-tron/trc20_xfers.csv");
    const summary = await importFile(store, { kind: "ledger", file });
    expect(counts(summary)).toMatchObject({
      rowsRead: 10_827,
      added: 10_605,
      unchanged: 198,
      duplicates: 24,
      rejected: 0,
    });
    const [first] = await store.ledgerByTxHash(
      "TRX",
      "99e53c29e7c429aaf5150dc5586f5d3cd143c111c62f5b5deebd000aedacb842",
    );
    expect(first).toMatchObject({
      amount: 65.29,
      occurredAt: 1650176103000,
      from: "TS2oMCWeBsYmMFWsXFx5u7M96KDF8BZDyG",
    });
    const again = await importFile(store, { kind: "ledger", file });
    expect(again.added).toBe(0);
  });

  it("the token tables and the daily price files", async () => {
    const tokens = join(DATA, "tokens");
    expect(
      counts(
        await importFile(store, { kind: "tokens", file: join(tokens, "derived_ethereum-lists_tokens.csv") }),
      ),
    ).toMatchObject({ rowsRead: 2237, added: 2128, skipped: 109 });
    expect(
      counts(
        await importFile(store, {
          kind: "tokens",
          file: join(tokens, "derived_tron_trc20_tokens_trustwallet.csv"),
        }),
      ),
    ).toMatchObject({ rowsRead: 7, added: 6, rejected: 1 });
    const prices = join(DATA, "prices");
    const files = [
      "moneyflow-yahoo-daily/BTC-USD.csv",
      "moneyflow-yahoo-daily/ETH-USD.csv",
      "moneyflow-yahoo-daily/TRX-USD.csv",
    ];
    const runs: ImportOptions[] = [
      ...files.map((f): ImportOptions => ({ kind: "prices", file: join(prices, f) })),
      { kind: "prices", file: join(prices, "crypto-dataset-yahoo-daily/LTC-USD_1d.csv") },
      { kind: "prices", file: join(prices, "crypto-dataset-yahoo-daily/BNB-USD_1d.csv") },
      {
        kind: "prices",
        file: join(prices, "crypto-dataset-yahoo-daily/USDT-USD_1d.csv"),
        network: "TRX",
        token: "USDT",
      },
    ];
    expect(await importAll(store, runs)).toMatchObject({ rowsRead: 18_903, added: 18_903, rejected: 0 });
    expect(await store.getPrice("BSC", "native", "2024-01-01")).toBeGreaterThan(100);
    expect(await store.getPrice("TRX", "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t", "2024-01-01")).toBeCloseTo(1, 1);
  });
});
