import { describe, expect, it } from "vitest";
import { createEntityResolver } from "../../src/exposure/entity-resolver.js";
import { listingOverlaps, sanctionsAsOf } from "../../src/exposure/sanctions-as-of.js";
import { attr, listing } from "./trace-fixtures.js";

const span = { from: 1000, to: 2000 };

describe("sanctionsAsOf", () => {
  it.each([
    ["no dates", null, null, true],
    ["listed before, still listed", 500, null, true],
    ["listed at the check time", 2000, null, true],
    ["listed after the check time", 2001, null, false],
    ["delisted at the transfer time", 500, 1000, true],
    ["delisted before the transfer", 500, 999, false],
    ["no start, delisted before the transfer", null, 999, false],
    ["listed and delisted within the span", 1200, 1300, true],
  ])("%s", (_name, listedAt, delistedAt, counts) => {
    expect(listingOverlaps(listing("z", listedAt, delistedAt), span)).toBe(counts);
    const result = sanctionsAsOf([listing("z", listedAt, delistedAt)], "z", span);
    expect(result.hit).toBe(counts);
    expect(result.listings.length).toBe(counts ? 1 : 0);
  });

  it("keeps only the address's listings that count, sorted, frozen, without touching its input", () => {
    const input = [
      { ...listing("z", null, null), listName: "UK" },
      listing("other", null, null),
      listing("z", 3000, null),
      { ...listing("z", 1, null), listName: "EU" },
    ];
    const copy = structuredClone(input);
    const result = sanctionsAsOf(input, "z", span);
    expect(result.address).toBe("z");
    expect(result.listings.map((l) => l.listName)).toEqual(["EU", "UK"]);
    expect(
      Object.isFrozen(result) && Object.isFrozen(result.listings) && Object.isFrozen(result.listings[0]),
    ).toBe(true);
    expect(input).toEqual(copy);
  });
});

describe("createEntityResolver", () => {
  it("resolves in one call to each source, sanctions winning, the riskiest attribution otherwise", async () => {
    const calls: string[] = [];
    const resolver = createEntityResolver({
      attributions: {
        attributions: async (_network, addresses) => {
          calls.push(`attributions:${addresses.join(",")}`);
          return [
            attr("a", "exchange", "Binance"),
            attr("b", "exchange", "Kraken"),
            attr("b", "scam", "Drainer"),
            attr("z", "exchange"),
          ];
        },
      },
      sanctions: {
        listings: async (addresses) => {
          calls.push(`sanctions:${addresses.join(",")}`);
          return [listing("a", null, null), listing("c", 3000, null)];
        },
      },
    });
    const found = await resolver.resolve("ETH", ["a", "b", "c"], span);
    expect(calls).toEqual(["attributions:a,b,c", "sanctions:a,b,c"]);
    expect(found.get("a")).toEqual({ name: "Lazarus", category: "sanctions", source: "OFAC SDN" });
    expect(found.get("b")).toEqual({ name: "Drainer", category: "scam", source: "test" });
    expect(found.has("c")).toBe(false);
    expect(found.has("z")).toBe(false);
    expect((await resolver.resolve("ETH", [], span)).size).toBe(0);
    expect(calls.length).toBe(2);
  });
});
