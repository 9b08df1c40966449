/**
 * Sanctions on the path: the addresses of the strongest paths looked up in the sanctions lists,
 * the direct counterparty left out (its own check shows it), each address once, hits first, a
 * listing counted only when it was in force between the transfer and the check.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { ExposureResult, SanctionsListing, SanctionsSource } from "../../src/index.js";
import { pathAddresses, pathSanctions } from "../../src/index.js";

const exposure = (...paths: string[][]): ExposureResult => ({
  direct: null,
  shares: paths.map((path) => ({
    category: "sanctions",
    proximity: "indirect" as const,
    share: 1 / paths.length,
    valueInFiat: null,
    entityNames: [],
    minHops: path.length,
    path,
  })),
  truncated: false,
  edgesRead: 0,
  hops: 3,
});

const listing = (address: string, over: Partial<SanctionsListing> = {}): SanctionsListing => ({
  network: "ETH",
  address,
  listName: "OFAC SDN",
  program: "CYBER2",
  entity: "Bad Actor",
  listedAt: null,
  delistedAt: null,
  ...over,
});

/** The lists as a sanctions source (the port's contract: every listing of the addresses asked). */
const lists = (all: ReadonlyArray<SanctionsListing>): SanctionsSource => ({
  async listings(addresses) {
    return all.filter((l) => addresses.includes(l.address));
  },
});

describe("path sanctions", () => {
  it("finds the listed address an indirect hit reached, not the counterparty", async () => {
    const found = await pathSanctions(lists([listing("s"), listing("c")]), {
      exposure: exposure(["c", "a", "s"]),
      counterpartyExposure: null,
      from: 1_000,
      to: 2_000,
      counterparty: "c",
    });
    expect(found).toEqual([{ address: "s", hit: true, listings: [listing("s")] }]);
  });

  it("keeps a listing delisted before the transfer, marked not in force, after the hits", async () => {
    const found = await pathSanctions(lists([listing("old", { delistedAt: 500 }), listing("s")]), {
      exposure: exposure(["c", "old", "x"], ["c", "s"]),
      counterpartyExposure: null,
      from: 1_000,
      to: 2_000,
      counterparty: "c",
    });
    expect(found.map((r) => [r.address, r.hit])).toEqual([
      ["s", true],
      ["old", false],
    ]);
  });

  it("lists every path address once, never the counterparty, whatever the paths", () => {
    const address = fc.constantFrom("a", "b", "c", "d", "e");
    fc.assert(
      fc.property(
        fc.array(fc.array(address, { minLength: 1, maxLength: 5 }), { maxLength: 4 }),
        address,
        (paths, cp) => {
          const got = pathAddresses({
            exposure: exposure(...paths),
            counterpartyExposure: exposure(...paths.slice(0, 1)),
            from: 0,
            to: 0,
            counterparty: cp,
          });
          expect(new Set(got).size).toBe(got.length);
          expect(got).not.toContain(cp);
          expect(new Set(got)).toEqual(new Set(paths.flat().filter((a) => a !== cp)));
        },
      ),
    );
  });
});
