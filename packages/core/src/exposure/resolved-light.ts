/**
 * Credits a hop's resolved nodes below the floor, the most numerous nodes of a hub-heavy trace
 * (a hub's labelled senders, each a part too light to follow), with the sums and paths that
 * crediting them one by one heaviest first (by `compareNodes`) gives, but without sorting the
 * nodes: per category their weights, and per entity name its weights, go to typed arrays sorted
 * by the engine (no comparator call per pair), and the heaviest node of each category is found in
 * one pass. Only the order within a sum matters to the sum (ExposureTally.creditBatch).
 */
import type { Proximity } from "../domain/enums.js";
import type { ResolvedEntity } from "./entity-resolver.js";
import type { ExposureTally } from "./exposure-tally.js";
import { compareNodes, pathOf, type TraceNode, txPathOf } from "./trace-node.js";

/** One category's nodes of the batch while they are gathered. */
interface Gathered {
  readonly category: string;
  readonly weights: number[];
  /** Per entity name its weights: one number until the name's second node. */
  readonly byName: Map<string, number | number[]>;
  /** The node a one-by-one crediting meets first: the heaviest, ties by address and position. */
  first: TraceNode;
  firstEntity: ResolvedEntity;
  minHops: number;
  direct: boolean;
}

/**
 * Credits `nodes` (in any order; each resolves to `entityOf(node)`) to `tally` as crediting each
 * with `ExposureTally.credit`, in `compareNodes` order, would.
 */
export function creditResolvedLight(
  tally: ExposureTally,
  nodes: ReadonlyArray<TraceNode>,
  entityOf: (n: TraceNode) => ResolvedEntity,
  proximityAt: (hop: number) => Proximity,
): void {
  const groups = new Map<string, Gathered>();
  for (const n of nodes) {
    const w = n.weight;
    if (!(w > 0)) continue;
    const entity = entityOf(n);
    let g = groups.get(entity.category);
    if (!g) {
      g = {
        category: entity.category,
        weights: [],
        byName: new Map(),
        first: n,
        firstEntity: entity,
        minHops: n.hop,
        direct: false,
      };
      groups.set(entity.category, g);
    } else if (compareNodes(n, g.first) < 0) {
      g.first = n;
      g.firstEntity = entity;
    }
    g.weights.push(w);
    const named = g.byName.get(entity.name);
    if (named === undefined) g.byName.set(entity.name, w);
    else if (typeof named === "number") g.byName.set(entity.name, [named, w]);
    else named.push(w);
    if (n.hop < g.minHops) g.minHops = n.hop;
    if (!g.direct && proximityAt(n.hop) === "direct") g.direct = true;
  }
  // Categories in the order a one-by-one crediting would first meet them: by their first nodes.
  const ordered = [...groups.values()].sort((a, b) => compareNodes(a.first, b.first));
  for (const g of ordered) {
    const { first, firstEntity } = g;
    const cluster = firstEntity.cluster;
    tally.creditBatch({
      category: g.category,
      weights: Float64Array.from(g.weights).sort(),
      byName: g.byName,
      minHops: g.minHops,
      direct: g.direct,
      heaviest: first.weight,
      path: () => ({ addresses: pathOf(first), txHashes: txPathOf(first), ...(cluster ? { cluster } : {}) }),
    });
  }
}
