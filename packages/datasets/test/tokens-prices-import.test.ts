import { isKytError, type Store } from "@openkyt/core";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { importFile } from "../src/index.js";
import { balanced, counts, fixture, STORES } from "./import-fixtures.js";

const USDT_ETH = "0xdac17f958d2ee523a2206206994597c13d831ec7";
const USDT_TRX = "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t";

describe.each(STORES)("token and price import on the %s store", (_name, createStore) => {
  let store: Store;
  beforeEach(async () => {
    store = await createStore();
  });
  afterEach(async () => {
    await store.close();
  });

  it("imports the generic tokens CSV: bad rows rejected, the last row of a token wins", async () => {
    const summary = await importFile(store, { kind: "tokens", file: fixture("tokens.csv") });
    expect(counts(summary)).toMatchObject({ rowsRead: 7, added: 3, duplicates: 1, rejected: 3 });
    expect(balanced(summary)).toBe(true);
    expect(summary.rejections.map((r) => r.line)).toEqual([5, 6, 7]);
    expect(await store.getToken("ETH", USDT_ETH)).toEqual({
      network: "ETH",
      tokenId: USDT_ETH,
      symbol: "USDT",
      decimals: 6,
      name: "Tether USD (renamed, last wins)",
    });
    expect(await store.getToken("ETH", "native")).toMatchObject({ symbol: "ETH", decimals: 18 });
    const again = await importFile(store, { kind: "tokens", file: fixture("tokens.csv") });
    expect(counts(again)).toMatchObject({ added: 0, updated: 0, unchanged: 3 });
  });

  it("imports the ethereum-lists and trustwallet token tables", async () => {
    const lists = await importFile(store, { kind: "tokens", file: fixture("ethereum-lists.csv") });
    expect(lists.format).toBe("ethereum-lists");
    expect(counts(lists)).toMatchObject({ rowsRead: 5, added: 4, skipped: 1 });
    expect(lists.skippedBy).toEqual({ "chain rsk": 1 });
    expect(await store.getToken("ARB", "0x539bde0d7dbd336b79148aa742883198bbf60342")).toMatchObject({
      symbol: "MAGIC",
    });
    const updated = await importFile(store, { kind: "tokens", file: fixture("tokens.csv") });
    expect(updated.updated).toBe(1);
    const trust = await importFile(store, { kind: "tokens", file: fixture("trustwallet-trc20.csv") });
    expect(trust.format).toBe("trustwallet-trc20");
    expect(counts(trust)).toMatchObject({ rowsRead: 7, added: 5, unchanged: 1, rejected: 1 });
    expect(trust.rejections[0]).toMatchObject({ line: 8, reason: "decimals is missing" });
  });

  it("imports the generic prices CSV", async () => {
    const summary = await importFile(store, { kind: "prices", file: fixture("prices.csv") });
    expect(counts(summary)).toMatchObject({ rowsRead: 6, added: 3, duplicates: 1, rejected: 2 });
    expect(summary.rejections.map((r) => r.reason)).toEqual([
      'date "2024-02-30" is not a real date',
      'usd "abc" is not a non-negative number',
    ]);
    expect(await store.getPrice("ETH", "native", "2024-03-02")).toBe(3451.25);
    expect(await store.getPrice("ETH", USDT_ETH, "2024-03-05")).toBe(1.0002);
    const again = await importFile(store, { kind: "prices", file: fixture("prices.csv") });
    expect(counts(again)).toMatchObject({ added: 0, unchanged: 3 });
  });

  it("imports Yahoo-style prices: the native coin from the file name, a token by symbol from the table", async () => {
    const eth = await importFile(store, { kind: "prices", file: fixture("ETH-USD.csv") });
    expect(eth.format).toBe("yahoo");
    expect(counts(eth)).toMatchObject({ rowsRead: 4, added: 3, rejected: 1 });
    expect(eth.rejections[0]).toMatchObject({ line: 4, reason: 'usd "null" is not a non-negative number' });
    expect(await store.getPrice("ETH", "native", "2024-03-04")).toBe(3501.75);

    const file = fixture("USDT-USD_1d.csv");
    const noToken = await importFile(store, { kind: "prices", file, network: "TRX" }).catch(
      (e: unknown) => e,
    );
    expect(isKytError(noToken, "VALIDATION_ERROR")).toBe(true);
    expect((noToken as Error).message).toContain("the file names USDT");
    const unknown = await importFile(store, { kind: "prices", file, network: "TRX", token: "USDT" }).catch(
      (e) => e,
    );
    expect((unknown as Error).message).toContain("not in the token table of TRX");

    await importFile(store, { kind: "tokens", file: fixture("tokens.csv") });
    const usdt = await importFile(store, { kind: "prices", file, network: "trx", token: "usdt" });
    expect(counts(usdt)).toMatchObject({ rowsRead: 2, added: 2 });
    expect(await store.getPrice("TRX", USDT_TRX, "2024-03-02")).toBe(0.9998);
  });
});
