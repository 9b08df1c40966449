import { type Store, sanctionsAsOf } from "@openkyt/core";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { importFile } from "../src/index.js";
import { balanced, counts, fixture, STORES } from "./import-fixtures.js";

const day = (iso: string) => Date.parse(`${iso}T00:00:00Z`);
const TUC = "TUCsTq7TofTCJRRoHk6RvhMoS2mJLm5Yzq";
const GONE = "0x0330070fd38ec3bb94f58fa55d40368271e9e54a";
const TORNADO = "0x8589427373d6d84e98730d7795d8f6f8731fda16";

describe.each(STORES)("sanctions import on the %s store", (_name, createStore) => {
  let store: Store;
  beforeEach(async () => {
    store = await createStore();
  });
  afterEach(async () => {
    await store.close();
  });

  it("imports the OFAC CSV: merged per address, unsupported assets skipped, bad rows listed", async () => {
    const summary = await importFile(store, { kind: "sanctions", file: fixture("ofac-sdn-2026-08-20.csv") });
    expect(summary.format).toBe("ofac-csv");
    expect(counts(summary)).toEqual({
      rowsRead: 15,
      added: 8,
      updated: 0,
      unchanged: 0,
      duplicates: 3,
      skipped: 2,
      rejected: 2,
      delisted: 0,
    });
    expect(balanced(summary)).toBe(true);
    expect(summary.asOf).toBe(day("2026-08-20"));
    expect(summary.skippedBy).toEqual({ "asset BCH": 1, "asset XMR": 1 });
    expect(summary.rejections.map((r) => [r.line, r.reason.split(":")[0]])).toEqual([
      [15, 'address "1BoatSLRHtKNngkdXEeobR76b53LETtpyY" (asset XBT)'],
      [16, "asset is missing"],
    ]);
    expect(summary.rejections[0]?.file).toBe(fixture("ofac-sdn-2026-08-20.csv"));
    expect(summary.warnings).toHaveLength(1);
    expect(summary.warnings[0]?.reason).toContain("taken on TRX");

    const [merged] = await store.getSanctions(["0x4f47bc496083c727c5fbe3ce9cdf2b0f6496270c"]);
    expect(merged).toMatchObject({
      network: "ETH",
      listName: "OFAC SDN",
      program: "NPWMD",
      entity: "Hyon Sop SIM",
    });
    const [twoEntities] = await store.getSanctions(["125W5ek3DT6Zqy5S2iPt4FHQdNMCbZA3FU"]);
    expect(twoEntities).toMatchObject({
      program: "CYBER2, DPRK3",
      entity: "Huihui WU; SECOND ENTITY (synthetic)",
    });
    const [usdt] = await store.getSanctions(["0x175d44451403edf28469df03a9280c1197adb92c"]);
    expect(usdt).toMatchObject({ network: "ETH", listedAt: day("2026-08-20"), delistedAt: null });
    const [tron] = await store.getSanctions([TUC]);
    expect(tron?.network).toBe("TRX");
  });

  it("changes nothing on a second import of the same file", async () => {
    const file = fixture("ofac-sdn-2026-08-20.csv");
    await importFile(store, { kind: "sanctions", file });
    const before = await store.listSanctionsOfList("OFAC SDN");
    const again = await importFile(store, { kind: "sanctions", file });
    expect(counts(again)).toMatchObject({ added: 0, updated: 0, unchanged: 8, duplicates: 3, delisted: 0 });
    expect(await store.listSanctionsOfList("OFAC SDN")).toEqual(before);
  });

  it("delists addresses a newer snapshot lacks, so screening before that date still counts them", async () => {
    await importFile(store, { kind: "sanctions", file: fixture("ofac-sdn-2026-08-20.csv") });
    // A list of 8 may lose none unasked (5% of it, no floor): the flag says the file is the whole list.
    const newer = await importFile(store, {
      kind: "sanctions",
      file: fixture("ofac-sdn-2026-09-01.csv"),
      allowMassDelist: true,
    });
    expect(counts(newer)).toEqual({
      rowsRead: 11,
      added: 1,
      updated: 1,
      unchanged: 6,
      duplicates: 3,
      skipped: 0,
      rejected: 0,
      delisted: 1,
    });
    const listings = await store.getSanctions([GONE]);
    expect(listings).toEqual([
      expect.objectContaining({ listedAt: day("2026-08-20"), delistedAt: day("2026-09-01") }),
    ]);
    const before = sanctionsAsOf(listings, GONE, { from: day("2026-08-25"), to: day("2026-08-26") });
    const after = sanctionsAsOf(listings, GONE, { from: day("2026-09-02"), to: day("2026-09-03") });
    expect([before.hit, after.hit]).toEqual([true, false]);
    const [renamed] = await store.getSanctions(["TA3rH2A7iHnm6pKH8gr9cK1EZnShnmZdFg"]);
    expect(renamed).toMatchObject({
      entity: "ISIL KHORASAN PROVINCE (synthetic rename)",
      listedAt: day("2026-08-20"),
    });
    // The older snapshot, imported again, is the truth about the list on its date: it lists GONE,
    // so it reopens the listing the newer one ended (what restores a list after a bad run), and
    // duplicates nothing.
    const older = await importFile(store, { kind: "sanctions", file: fixture("ofac-sdn-2026-08-20.csv") });
    expect(counts(older)).toMatchObject({ added: 0, updated: 2, delisted: 0 });
    expect(older.relisted).toBe(1);
    expect(await store.getSanctions([GONE])).toEqual([{ ...listings[0], delistedAt: null }]);
  });

  it("keeps the list name, and an explicit date wins over the file's", async () => {
    const summary = await importFile(store, {
      kind: "sanctions",
      file: fixture("ofac-sdn-2026-08-20.csv"),
      listName: "My list",
      asOf: "2026-08-21T10:00:00Z",
    });
    expect(summary.asOf).toBe(Date.parse("2026-08-21T10:00:00Z"));
    expect(await store.listSanctionsOfList("OFAC SDN")).toEqual([]);
    expect(await store.listSanctionsOfList("My list")).toHaveLength(8);
  });

  it("reads an all-chain address list: networks from the address format, the date from its comment", async () => {
    const summary = await importFile(store, { kind: "sanctions", file: fixture("complete-wallet-list.txt") });
    expect(summary.format).toBe("address-list");
    expect(counts(summary)).toMatchObject({ rowsRead: 8, added: 5, duplicates: 1, skipped: 2, rejected: 0 });
    expect(summary.asOf).toBe(Date.parse("2026-08-22T04:25:46Z"));
    const rows = await store.listSanctionsOfList("OFAC SDN");
    expect(rows.map((r) => r.network).sort()).toEqual(["BTC", "BTC", "ETH", "LTC", "TRX"]);
    expect(rows.every((r) => r.program === null && r.entity === null)).toBe(true);
  });

  it("keeps program and entity when a plain list follows the OFAC CSV", async () => {
    await importFile(store, { kind: "sanctions", file: fixture("ofac-sdn-2026-08-20.csv") });
    const summary = await importFile(store, {
      kind: "sanctions",
      file: fixture("complete-wallet-list.txt"),
      delist: false,
    });
    expect(summary.unchanged).toBe(4);
    const [kept] = await store.getSanctions(["0x4f47bc496083c727c5fbe3ce9cdf2b0f6496270c"]);
    expect(kept).toMatchObject({ network: "ETH", program: "NPWMD", entity: "Hyon Sop SIM" });
  });

  it("reads a per-asset list: the asset from the file name, the date from its folder, no delisting", async () => {
    await importFile(store, { kind: "sanctions", file: fixture("ofac-sdn-2026-08-20.csv") });
    const summary = await importFile(store, {
      kind: "sanctions",
      file: fixture("lists-2024-09-27/sanctioned_addresses_USDT.txt"),
    });
    expect(counts(summary)).toMatchObject({ rowsRead: 6, added: 4, unchanged: 1, rejected: 1, delisted: 0 });
    expect(summary.asOf).toBe(day("2024-09-27"));
    expect(summary.rejections[0]?.reason).toBe('"not-an-address" is not shaped like an address');
    const [omni] = await store.getSanctions(["16iWn2J1McqjToYLHSsAyS6En3QA8YQ91H"]);
    const [tron] = await store.getSanctions(["TEAqwfMhXLaomXhZ8KeMhx3njGmQEDnsUR"]);
    expect([omni?.network, tron?.network]).toEqual(["BTC", "TRX"]);
    expect((await store.getSanctions([GONE]))[0]?.delistedAt).toBeNull();
    const xmr = await importFile(store, {
      kind: "sanctions",
      file: fixture("lists-2024-09-27/sanctioned_addresses_XMR.txt"),
    });
    expect(xmr.skippedBy).toEqual({ "asset XMR": 3 });
  });

  it("reads the snapshot history: listing periods, and closes open listings a period ended", async () => {
    await importFile(store, {
      kind: "sanctions",
      file: fixture("lists-2024-09-27/sanctioned_addresses_ETH.txt"),
    });
    // The history ends 1 of 2 listings: more than 5% of a list so small (no floor), so asked for.
    const summary = await importFile(store, {
      kind: "sanctions",
      file: fixture("ofac-history.csv"),
      allowMassDelist: true,
    });
    expect(summary.format).toBe("ofac-history");
    expect(counts(summary)).toEqual({
      rowsRead: 6,
      added: 4,
      updated: 0,
      unchanged: 0,
      duplicates: 0,
      skipped: 1,
      rejected: 1,
      delisted: 1,
    });
    const tornado = await store.getSanctions([TORNADO]);
    const end = day("2025-03-22") - 1;
    expect(tornado).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ listedAt: day("2022-09-03"), delistedAt: end }),
        expect.objectContaining({ listedAt: day("2024-09-27"), delistedAt: end }),
      ]),
    );
    expect(sanctionsAsOf(tornado, TORNADO, { from: day("2025-04-01"), to: day("2025-05-01") }).hit).toBe(
      false,
    );
    expect(sanctionsAsOf(tornado, TORNADO, { from: day("2023-01-01"), to: day("2023-01-02") }).hit).toBe(
      true,
    );
    const [inferred] = await store.getSanctions(["TA3941uFAvmVibSkQ6fMJXxmaSNovX86mz"]);
    expect(inferred).toMatchObject({ network: "TRX", delistedAt: null });
    const again = await importFile(store, { kind: "sanctions", file: fixture("ofac-history.csv") });
    expect(counts(again)).toMatchObject({ added: 0, updated: 0, unchanged: 4, delisted: 0 });
  });
});
