/** Conformance of attributions, sanctions, tokens and prices. */
import type { SanctionsListing } from "@openkyt/core";
import { describe, expect, it } from "vitest";
import type { ConformanceContext } from "./store-conformance.js";
import { BASE_TIME as T0 } from "./store-factories.js";

/** A listing of `address` on the OFAC list. */
function listing(address: string, overrides: Partial<SanctionsListing> = {}): SanctionsListing {
  return {
    network: "ETH",
    address,
    listName: "OFAC SDN",
    program: "CYBER2",
    entity: "Lazarus Group",
    listedAt: T0,
    delistedAt: null,
    ...overrides,
  };
}

/** Registers the reference data tests. */
export function referenceConformance(ctx: ConformanceContext): void {
  describe("attributions", () => {
    it("upserts by (network, address) and reads them back per network", async () => {
      const a = {
        network: "ETH",
        address: "0xa",
        entityName: "Binance",
        entityCategory: "exchange",
        source: "labels",
      };
      const b = {
        network: "ETH",
        address: "0xb",
        entityName: "Mixer",
        entityCategory: "mixer",
        source: null,
      };
      expect(await ctx.store().putAttributions([a, b, { ...a, network: "BSC" }])).toBe(3);
      expect(await ctx.store().putAttributions([{ ...a, entityName: "Binance 14" }])).toBe(1);
      const got = await ctx.store().getAttributions("ETH", ["0xa", "0xb", "0xunknown"]);
      expect([...got].sort((x, y) => x.address.localeCompare(y.address))).toEqual([
        { ...a, entityName: "Binance 14" },
        b,
      ]);
      expect(await ctx.store().getAttributions("BSC", ["0xa"])).toEqual([{ ...a, network: "BSC" }]);
      expect(await ctx.store().getAttributions("ETH", [])).toEqual([]);
    });
  });

  describe("sanctions", () => {
    it("upserts by (address, listName, listedAt), null dates included, and reads any network", async () => {
      const undated = listing("0xs", { listedAt: null, program: null, entity: null });
      expect(await ctx.store().putSanctions([listing("0xs"), undated])).toBe(2);
      expect(await ctx.store().putSanctions([{ ...undated, entity: "Renamed" }])).toBe(1);
      expect(await ctx.store().putSanctions([listing("0xs", { delistedAt: T0 + 10 })])).toBe(1);
      expect(
        await ctx.store().putSanctions([listing("TSanctioned", { network: "TRX", listedAt: T0 - 5 })]),
      ).toBe(1);
      const got = await ctx.store().getSanctions(["0xs", "TSanctioned", "0xclean"]);
      const byKey = [...got].sort((a, b) =>
        `${a.address}${a.listedAt}`.localeCompare(`${b.address}${b.listedAt}`),
      );
      expect(byKey).toEqual([
        listing("0xs", { delistedAt: T0 + 10 }),
        { ...undated, entity: "Renamed" },
        listing("TSanctioned", { network: "TRX", listedAt: T0 - 5 }),
      ]);
      expect(await ctx.store().getSanctions(["0xclean"])).toEqual([]);
    });

    it("lists one list's listings by address then listedAt, undated first", async () => {
      await ctx
        .store()
        .putSanctions([
          listing("0xz", { listedAt: T0 }),
          listing("0xa", { listedAt: T0 + 5 }),
          listing("0xa", { listedAt: null }),
          listing("0xm", { listName: "EU", listedAt: T0 }),
        ]);
      const got = await ctx.store().listSanctionsOfList(listing("0x").listName);
      expect(got.map((l) => [l.address, l.listedAt])).toEqual([
        ["0xa", null],
        ["0xa", T0 + 5],
        ["0xz", T0],
      ]);
      expect(await ctx.store().listSanctionsOfList("nothing")).toEqual([]);
    });

    it("keeps a designation date when given, no field when unknown, and replaces it on upsert", async () => {
      const designated = listing("0xd", { designatedAt: T0 - 1_000 });
      const unknown = listing("0xu", { designatedAt: null });
      expect(await ctx.store().putSanctions([designated, unknown, listing("0xn")])).toBe(3);
      const got = await ctx.store().listSanctionsOfList(designated.listName);
      expect(got).toEqual([designated, listing("0xn"), listing("0xu")]);
      expect(got.map((l) => "designatedAt" in l)).toEqual([true, false, false]);
      await ctx.store().putSanctions([listing("0xd"), listing("0xu", { designatedAt: T0 - 7 })]);
      expect(await ctx.store().getSanctions(["0xd", "0xu"])).toEqual(
        expect.arrayContaining([listing("0xd"), listing("0xu", { designatedAt: T0 - 7 })]),
      );
      expect((await ctx.store().getSanctions(["0xd"]))[0]).not.toHaveProperty("designatedAt");
    });
  });

  describe("settings", () => {
    it("keeps named values, null when unset, the last write winning, rolled back with a transaction", async () => {
      expect(await ctx.store().getSetting("cursor")).toBeNull();
      await ctx.store().putSetting("cursor", "1");
      await ctx.store().putSetting("cursor", "2");
      expect(await ctx.store().getSetting("cursor")).toBe("2");
      await ctx
        .store()
        .transaction(async (tx) => {
          await tx.putSetting("cursor", "3");
          throw new Error("abort");
        })
        .catch(() => undefined);
      expect(await ctx.store().getSetting("cursor")).toBe("2");
    });
  });

  describe("tokens", () => {
    const usdt = { network: "ETH", tokenId: "0xdac1", symbol: "USDT", decimals: 6, name: "Tether USD" };
    const usdc = { network: "ETH", tokenId: "0xa0b8", symbol: "USDC", decimals: 6, name: null };
    const trc = { network: "TRX", tokenId: "TR7N", symbol: "USDT", decimals: 6, name: "Tether USD" };
    const eth = { network: "ETH", tokenId: "native", symbol: "ETH", decimals: 18, name: "Ether" };

    it("upserts, gets one and lists by network then tokenId", async () => {
      expect(await ctx.store().putTokens([trc, usdt, usdc, eth])).toBe(4);
      expect(await ctx.store().putTokens([{ ...usdc, name: "USD Coin" }])).toBe(1);
      expect(await ctx.store().getToken("ETH", "0xdac1")).toEqual(usdt);
      expect(await ctx.store().getToken("BSC", "0xdac1")).toBeNull();
      const all = await ctx.store().listTokens({}, { page: 1, pageSize: 10 });
      expect(all).toEqual({ items: [{ ...usdc, name: "USD Coin" }, usdt, eth, trc], total: 4 });
      expect(await ctx.store().listTokens({}, { page: 2, pageSize: 3 })).toEqual({ items: [trc], total: 4 });
      expect(await ctx.store().listTokens({}, { page: 3, pageSize: 3 })).toEqual({ items: [], total: 4 });
    });

    it("filters by network, tokenId and symbol (case-insensitive)", async () => {
      await ctx.store().putTokens([trc, usdt, usdc, eth]);
      const page = { page: 1, pageSize: 10 };
      expect((await ctx.store().listTokens({ symbol: "usdt" }, page)).items).toEqual([usdt, trc]);
      expect((await ctx.store().listTokens({ symbol: "Usdt", network: "TRX" }, page)).items).toEqual([trc]);
      expect((await ctx.store().listTokens({ network: "ETH" }, page)).total).toBe(3);
      expect((await ctx.store().listTokens({ tokenId: "native" }, page)).items).toEqual([eth]);
      expect(await ctx.store().listTokens({ symbol: "DOGE" }, page)).toEqual({ items: [], total: 0 });
    });
  });

  describe("prices", () => {
    it("gives the price on a day, else the latest day before it", async () => {
      expect(
        await ctx.store().putPrices([
          { network: "ETH", tokenId: "native", day: "2024-01-01", usd: 2300.5 },
          { network: "ETH", tokenId: "native", day: "2024-01-05", usd: 2400 },
          { network: "ETH", tokenId: "0xdac1", day: "2023-12-01", usd: 1 },
        ]),
      ).toBe(3);
      await ctx.store().putPrices([{ network: "ETH", tokenId: "native", day: "2024-01-05", usd: 2450.25 }]);
      expect(await ctx.store().getPrice("ETH", "native", "2024-01-05")).toBe(2450.25);
      expect(await ctx.store().getPrice("ETH", "native", "2024-01-04")).toBe(2300.5);
      expect(await ctx.store().getPrice("ETH", "native", "2024-02-01")).toBe(2450.25);
      expect(await ctx.store().getPrice("ETH", "native", "2023-12-31")).toBeNull();
      expect(await ctx.store().getPrice("BSC", "native", "2024-01-05")).toBeNull();
      expect(await ctx.store().getPrice("ETH", "0xdac1", "2024-01-05")).toBe(1);
    });
  });
}
