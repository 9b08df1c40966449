/**
 * Conformance of the reference scans a warm process loads attributions and sanctions with:
 * pages in a stable order, every row exactly once, whatever the page size.
 */
import type { Attribution, SanctionsListing, Store } from "@openkyt/core";
import { describe, expect, it } from "vitest";
import type { ConformanceContext } from "./store-conformance.js";
import { BASE_TIME as T0 } from "./store-factories.js";

/** Every page of `scan` from the start, `size` rows at a time. */
async function allPages<T>(scan: (after: T | null) => Promise<ReadonlyArray<T>>): Promise<T[][]> {
  const pages: T[][] = [];
  let after: T | null = null;
  for (;;) {
    const page = [...(await scan(after))];
    if (page.length === 0) return pages;
    pages.push(page);
    after = page[page.length - 1] as T;
  }
}

const attributionKey = (a: Attribution) => `${a.network}/${a.address}`;
const listingKey = (l: SanctionsListing) => `${l.address}/${l.listName}/${l.listedAt}`;

async function seed(store: Store) {
  const attributions: Attribution[] = [];
  for (const network of ["ETH", "BSC", "TRX"])
    for (let i = 0; i < 7; i++)
      attributions.push({
        network,
        address: `0xaddr${(i * 37) % 11}-${i}`,
        entityName: `Entity ${i}`,
        entityCategory: i % 2 === 0 ? "exchange" : "mixer",
        source: null,
      });
  await store.putAttributions(attributions);
  const listings: SanctionsListing[] = [];
  for (const address of ["0xs2", "0xs1", "0xs3"])
    for (const listName of ["OFAC SDN", "EU"])
      for (const listedAt of [null, T0, T0 + 5]) {
        listings.push({
          network: "ETH",
          address,
          listName,
          program: null,
          entity: null,
          listedAt,
          delistedAt: null,
        });
      }
  await store.putSanctions(listings);
  return { attributions, listings };
}

/** Registers the reference scan tests. */
export function referenceScanConformance(ctx: ConformanceContext): void {
  describe("reference scans (warm loading)", () => {
    it("scanAttributions pages through every attribution once, in one stable order, at any page size", async () => {
      const { attributions } = await seed(ctx.store());
      const whole = (
        await allPages<Attribution>((after) => ctx.store().scanAttributions(after, 1_000))
      ).flat();
      expect(whole.map(attributionKey).sort()).toEqual(attributions.map(attributionKey).sort());
      expect(whole).toContainEqual(attributions[3]);
      for (const size of [1, 4, 20]) {
        const pages = await allPages<Attribution>((after) => ctx.store().scanAttributions(after, size));
        expect(pages.every((p) => p.length <= size)).toBe(true);
        expect(pages.flat().map(attributionKey)).toEqual(whole.map(attributionKey));
      }
      expect(await ctx.store().scanAttributions(whole[whole.length - 1] as Attribution, 10)).toEqual([]);
    });

    it("scanSanctions pages through every listing once, undated ones included, at any page size", async () => {
      const { listings } = await seed(ctx.store());
      const whole = (
        await allPages<SanctionsListing>((after) => ctx.store().scanSanctions(after, 1_000))
      ).flat();
      expect(whole.map(listingKey).sort()).toEqual(listings.map(listingKey).sort());
      expect(whole.filter((l) => l.listedAt === null).length).toBe(6);
      for (const size of [1, 5]) {
        const pages = await allPages<SanctionsListing>((after) => ctx.store().scanSanctions(after, size));
        expect(pages.flat().map(listingKey)).toEqual(whole.map(listingKey));
      }
    });

    it("scans of an empty store answer nothing", async () => {
      expect(await ctx.store().scanAttributions(null, 10)).toEqual([]);
      expect(await ctx.store().scanSanctions(null, 10)).toEqual([]);
    });
  });
}
