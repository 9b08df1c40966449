import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Store } from "@openkyt/core";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { importFile } from "../src/index.js";
import { balanced, counts, fixture, STORES } from "./import-fixtures.js";

const SUEX = "0x19aa5fe80d33a56d56c78e82ea5e50e5d80b4dff";
const TORNADO_DAI = "0x07687e702b410fa43f4cb4af7fa097918ffd2730";

describe.each(STORES)("labels import on the %s store", (_name, createStore) => {
  let store: Store;
  beforeEach(async () => {
    store = await createStore();
  });
  afterEach(async () => {
    await store.close();
  });

  it("imports the generic CSV: bad rows listed with line and reason, the last row of an address wins", async () => {
    const summary = await importFile(store, { kind: "labels", file: fixture("labels.csv") });
    expect(summary.format).toBe("csv");
    expect(counts(summary)).toMatchObject({ rowsRead: 10, added: 4, duplicates: 1, rejected: 5, skipped: 0 });
    expect(balanced(summary)).toBe(true);
    expect(summary.rejections.map((r) => [r.line, r.reason])).toEqual([
      [5, 'unknown network "DOGE"'],
      [6, 'address "0x123": not a valid EVM address (expected 0x followed by 40 hex characters)'],
      [7, 'unknown entity_category "casino"'],
      [8, "entity_name is missing"],
      [10, 'unknown entity_category ""'],
    ]);
    const [binance] = await store.getAttributions("ETH", ["0x28c6c06298d514db089934071355e5743bf21d60"]);
    expect(binance).toEqual({
      network: "ETH",
      address: "0x28c6c06298d514db089934071355e5743bf21d60",
      entityName: "Binance, Hot Wallet 14",
      entityCategory: "exchange",
      source: "my-team",
    });
    const [precompile] = await store.getAttributions("ETH", ["0x0000000000000000000000000000000000000001"]);
    expect(precompile).toMatchObject({ entityName: "Precompile 1", source: null });
    const again = await importFile(store, { kind: "labels", file: fixture("labels.csv") });
    expect(counts(again)).toMatchObject({ added: 0, updated: 0, unchanged: 4 });
  });

  it("maps dawsbot/eth-labels: unknown labels and chains skipped and counted, the stronger label wins", async () => {
    const summary = await importFile(store, { kind: "labels", file: fixture("eth-labels.csv") });
    expect(summary.format).toBe("eth-labels");
    expect(counts(summary)).toMatchObject({ rowsRead: 12, added: 7, duplicates: 2, skipped: 3, rejected: 0 });
    expect(summary.skippedBy).toEqual({ "chain celo": 1, "label friend-tech-users": 1, "label v2": 1 });
    const [suex] = await store.getAttributions("ETH", [SUEX]);
    expect(suex).toMatchObject({ entityCategory: "sanctions", source: "dawsbot/eth-labels" });
    const [tornado] = await store.getAttributions("ETH", [TORNADO_DAI]);
    expect(tornado).toMatchObject({ entityCategory: "sanctions", entityName: "Tornado.Cash: 10,000 DAI 2" });
    const [phish] = await store.getAttributions("ARB", ["0x0000000000d67e5d5f991a40f04ed40fa3b150df"]);
    expect(phish).toMatchObject({ entityCategory: "scam", entityName: "Fake_Phishing269" });
  });

  it("gives the same attributions whatever the row order and batch size, and a second import changes nothing", async () => {
    const dir = await mkdtemp(join(tmpdir(), "openkyt-labels-"));
    try {
      const [header, ...rows] = (await readFile(fixture("eth-labels.csv"), "utf8")).trim().split("\n");
      const reversed = join(dir, "eth-labels-reversed.csv");
      await writeFile(reversed, [header, ...rows.reverse()].join("\n"));
      await importFile(store, { kind: "labels", file: fixture("eth-labels.csv") });
      const expected = [...(await store.getAttributions("ETH", [SUEX, TORNADO_DAI]))];
      const other = await createStore();
      try {
        const first = await importFile(other, { kind: "labels", file: reversed, batchSize: 1 });
        // Rows of an address met in an earlier batch are duplicates, even when they replace it.
        expect(counts(first)).toMatchObject({ updated: 0, unchanged: 0 });
        expect(first.duplicates).toBeGreaterThan(0);
        expect(await other.getAttributions("ETH", [SUEX, TORNADO_DAI])).toEqual(
          expect.arrayContaining(expected),
        );
        const again = await importFile(other, { kind: "labels", file: reversed, batchSize: 1 });
        expect(counts(again)).toMatchObject({ added: 0, updated: 0, unchanged: first.added });
        expect(again.duplicates).toBe(first.duplicates);
      } finally {
        await other.close();
      }
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it("reads the flat TagPack CSV: a mapped abuse wins over the category", async () => {
    const summary = await importFile(store, { kind: "labels", file: fixture("tagpack-flat.csv") });
    expect(summary.format).toBe("tagpack-csv");
    expect(counts(summary)).toMatchObject({ rowsRead: 9, added: 5, skipped: 3, rejected: 1 });
    expect(summary.skippedBy).toEqual({ "abuse extremism": 1, "currency XMR": 1, "no category or abuse": 1 });
    expect(summary.rejections[0]).toMatchObject({ line: 8 });
    const [lazarus] = await store.getAttributions("BTC", ["134r8iHv69xdT6p5qVKTsHrcUEuBVZAYak"]);
    expect(lazarus).toMatchObject({
      entityCategory: "sanctions",
      entityName: "Lazarus group",
      source: "graphsense-tagpacks",
    });
    const [ransom] = await store.getAttributions("BTC", ["1Lud76Q98VRHCUiyK7XUs7AgFofrqXeP78"]);
    expect(ransom?.entityCategory).toBe("ransomware");
    const [binance] = await store.getAttributions("TRX", ["TV6MuMXfmLbBqPZvBHdwFsDnQeVfnmiuSi"]);
    expect(binance?.entityCategory).toBe("exchange");
  });

  it("reads a TagPack YAML: tags inherit the header, and keep their own lines", async () => {
    const summary = await importFile(store, { kind: "labels", file: fixture("tagpack-pack.yaml") });
    expect(summary.format).toBe("tagpack-yaml");
    expect(counts(summary)).toMatchObject({ rowsRead: 6, added: 3, skipped: 2, rejected: 1 });
    expect(summary.skippedBy).toEqual({ "currency BCH": 1, "category user": 1 });
    expect(summary.rejections[0]).toMatchObject({ line: 18 });
    const rows = await store.getAttributions("ETH", [
      "0x8589427373d6d84e98730d7795d8f6f8731fda16",
      TORNADO_DAI,
    ]);
    expect(rows.map((r) => [r.entityName, r.entityCategory]).sort()).toEqual([
      ["Tornado.Cash: 10,000 DAI 2", "sanctions"],
      ["tornado.cash", "mixer"],
    ]);
  });
});
