import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { Proximity } from "../../src/domain/enums.js";
import type { ResolvedEntity } from "../../src/exposure/entity-resolver.js";
import { ExposureTally } from "../../src/exposure/exposure-tally.js";
import { creditResolvedLight } from "../../src/exposure/resolved-light.js";
import { compareNodes, pathOf, rootNode, type TraceNode, txPathOf } from "../../src/exposure/trace-node.js";

const proximityAt = (hop: number): Proximity => (hop <= 1 ? "direct" : "indirect");

/** Entities of few categories and names, so sums, names and ties meet. */
const entities: ReadonlyArray<ResolvedEntity> = [
  { name: "Alpha", category: "exchange", source: null },
  { name: "Beta", category: "exchange", source: null },
  { name: "Gamma", category: "mixer", source: null },
  { name: "Delta", category: "gambling", source: null },
  { name: "Alpha", category: "gambling", source: null },
];

/** Weights that sum with rounding (thirds, sevenths) and repeat (ties between nodes). */
const weightArb = fc.oneof(
  fc.constantFrom(1 / 3, 1 / 7, 2 / 7, 0.1, 0.2, 0.3, 1e-9, 0, -0.5),
  fc.double({ min: 1e-12, max: 1, noNaN: true }),
);

const nodeArb = fc.record({
  address: fc.constantFrom("a1", "a2", "a3", "b1", "b2"),
  at: fc.integer({ min: 0, max: 3 }),
  weight: weightArb,
  hop: fc.integer({ min: 1, max: 3 }),
  entity: fc.integer({ min: 0, max: entities.length - 1 }),
});

type Spec = ReturnType<typeof nodeArb.generate>["value"];

/**
 * The nodes, each under its own parent (so paths differ), with its entity. One node per address
 * and position, as a hop's merged children are (so `compareNodes` orders every pair).
 */
function build(all: ReadonlyArray<Spec>) {
  const entityOf = new Map<TraceNode, ResolvedEntity>();
  const seen = new Set<string>();
  const specs = all.filter((s) => {
    const key = `${s.address}@${s.at}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
  const nodes = specs.map((s, i) => {
    const parent = rootNode(`root${i}`, { occurredAt: 0, block: null, logIndex: -1 }, s.hop - 1);
    const n: TraceNode = {
      address: s.address,
      position: { occurredAt: 100 + s.at, block: null, logIndex: -1 },
      txHash: `0xtx${i}`,
      weight: s.weight,
      hop: s.hop,
      parent,
      largestPart: s.weight,
      until: null,
    };
    entityOf.set(n, entities[s.entity] as ResolvedEntity);
    return n;
  });
  return { nodes, entityOf: (n: TraceNode) => entityOf.get(n) as ResolvedEntity };
}

describe("creditResolvedLight", () => {
  it("gives the shares, names and paths of crediting one by one heaviest first, to the bit", () => {
    fc.assert(
      fc.property(
        fc.array(nodeArb, { maxLength: 60 }),
        fc.array(nodeArb, { maxLength: 5 }),
        (specs, before) => {
          const { nodes, entityOf } = build(specs);
          const earlier = build(before);
          const oneByOne = new ExposureTally();
          const batched = new ExposureTally();
          // Earlier credits (another hop's) make categories and largest contributions exist already.
          for (const t of [oneByOne, batched])
            for (const n of earlier.nodes) {
              const e = earlier.entityOf(n);
              t.credit(e.category, e.name, n.weight, n.hop, proximityAt(n.hop), () => ({
                addresses: pathOf(n),
                txHashes: txPathOf(n),
              }));
            }
          for (const n of [...nodes].sort(compareNodes)) {
            const e = entityOf(n);
            oneByOne.credit(e.category, e.name, n.weight, n.hop, proximityAt(n.hop), () => ({
              addresses: pathOf(n),
              txHashes: txPathOf(n),
            }));
          }
          creditResolvedLight(batched, [...nodes].reverse(), entityOf, proximityAt);
          const a = oneByOne.finish(1_000);
          const b = batched.finish(1_000);
          expect(b).toEqual(a);
          // toEqual treats 0 and -0 alike and compares floats exactly: check the bits of the shares too.
          expect(b.map((s) => Object.is(s.share, a[b.indexOf(s)]?.share))).not.toContain(false);
        },
      ),
      { numRuns: 500 },
    );
  });
});
