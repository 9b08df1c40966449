/**
 * Accumulates traced weight per entity category and turns it into the shares of an
 * `ExposureResult`. Local to one trace: created, filled and finished inside a single call.
 */

import { UNDEFINED_CATEGORY } from "../domain/entity-categories.js";
import type { Proximity } from "../domain/enums.js";
import type { ClusterAttribution, ExposureShare } from "../domain/records.js";

/** Entity names kept per category. */
const MAX_ENTITY_NAMES = 3;

interface CategoryTally {
  weight: number;
  direct: boolean;
  minHops: number;
  readonly names: Map<string, number>;
  bestWeight: number;
  bestPath: ReadonlyArray<string>;
  bestTxPath: ReadonlyArray<string>;
  bestValues: ReadonlyArray<number> | null;
  bestStartHop: number | null;
  bestCluster: ClusterAttribution | null;
}

/** How a contribution was reached: the addresses from the start and the transfers between them. */
export interface TracePath {
  readonly addresses: ReadonlyArray<string>;
  readonly txHashes: ReadonlyArray<string>;
  /** UTXO walks: the value of each coin of `addresses`, in base units. */
  readonly values?: ReadonlyArray<number>;
  /** UTXO walks: the hop of the first coin of `addresses`. */
  readonly startHop?: number;
  /** When the credited entity was found through a cluster. */
  readonly cluster?: ClusterAttribution;
}

/**
 * One category's part of a batch of contributions credited heaviest first
 * ({@link ExposureTally.creditBatch}): every weight above 0, ascending (a typed sort's order),
 * and per entity name the weights of that name in any order (one number when the name has
 * one); the smallest hop, whether one was direct, and the contribution a one-by-one crediting
 * would meet first (the heaviest).
 */
export interface CategoryBatch {
  readonly category: string;
  readonly weights: Float64Array;
  readonly byName: ReadonlyMap<string, number | ReadonlyArray<number>>;
  readonly minHops: number;
  readonly direct: boolean;
  readonly heaviest: number;
  readonly path: () => TracePath;
}

/** Per-category weights of one trace. */
export class ExposureTally {
  readonly #categories = new Map<string, CategoryTally>();

  /**
   * Credits `weight` to `category`, met at `hop` with `proximity`, through the path `path()`
   * returns (called only when this contribution becomes the category's largest).
   */
  credit(
    category: string,
    name: string | null,
    weight: number,
    hop: number,
    proximity: Proximity,
    path: () => TracePath,
  ): void {
    if (!(weight > 0)) return;
    const t = this.#category(category, hop);
    t.weight += weight;
    t.direct ||= proximity === "direct";
    t.minHops = Math.min(t.minHops, hop);
    if (name !== null) t.names.set(name, (t.names.get(name) ?? 0) + weight);
    if (weight > t.bestWeight) setBest(t, weight, path());
  }

  /**
   * Credits one category's batch of named contributions with the sums that crediting each with
   * `credit`, heaviest first, would give to the bit: the category's sum and each name's add the
   * same weights in the same order (only the order within a sum matters to it, and heaviest
   * first is descending weight whatever breaks the ties). The batch's categories must be
   * credited in the order that crediting would first meet them (it decides the order of the
   * categories, and so of the sum `finish` takes over them).
   */
  creditBatch(batch: CategoryBatch): void {
    const { weights } = batch;
    if (weights.length === 0) return;
    const t = this.#category(batch.category, batch.minHops);
    let sum = t.weight;
    for (let i = weights.length - 1; i >= 0; i--) sum += weights[i] as number;
    t.weight = sum;
    t.direct ||= batch.direct;
    t.minHops = Math.min(t.minHops, batch.minHops);
    for (const [name, own] of batch.byName) {
      let named = t.names.get(name) ?? 0;
      if (typeof own === "number") named += own;
      else {
        const sorted = Float64Array.from(own).sort();
        for (let i = sorted.length - 1; i >= 0; i--) named += sorted[i] as number;
      }
      t.names.set(name, named);
    }
    if (batch.heaviest > t.bestWeight) setBest(t, batch.heaviest, batch.path());
  }

  /** The tally of `category`, created (first met at `hop`) when new. */
  #category(category: string, hop: number): CategoryTally {
    let t = this.#categories.get(category);
    if (!t) {
      t = {
        weight: 0,
        direct: false,
        minHops: hop,
        names: new Map(),
        bestWeight: 0,
        bestPath: [],
        bestTxPath: [],
        bestValues: null,
        bestStartHop: null,
        bestCluster: null,
      };
      this.#categories.set(category, t);
    }
    return t;
  }

  /**
   * Credits unnamed contributions none of which is larger than the category's largest so far
   * (the caller credited a contribution at least as large first): their weights, hops and
   * proximities count as with `credit`; the largest contribution's path stays as it is.
   */
  creditMany(
    category: string,
    parts: ReadonlyArray<{ readonly weight: number; readonly hop: number }>,
    proximityAt: (hop: number) => Proximity,
  ): void {
    const t = this.#categories.get(category);
    for (const part of parts) {
      if (!(part.weight > 0)) continue;
      if (!t || part.weight > t.bestWeight)
        throw new Error(`creditMany: a part of ${category} is its largest`);
      t.weight += part.weight;
      t.direct ||= proximityAt(part.hop) === "direct";
      t.minHops = Math.min(t.minHops, part.hop);
    }
  }

  /**
   * The frozen shares, largest first (ties by category). `undefined`, when credited, is the
   * remainder 1 - (sum of the others), so the shares sum to 1 despite float drift; should the
   * others exceed 1 by drift they are normalised. `valueInFiat` is share times `value`.
   */
  finish(value: number | null): ReadonlyArray<ExposureShare> {
    const known = [...this.#categories].filter(([c]) => c !== UNDEFINED_CATEGORY);
    const knownSum = known.reduce((s, [, t]) => s + t.weight, 0);
    const scale = knownSum > 1 ? 1 / knownSum : 1;
    const rows: Array<readonly [string, CategoryTally, number]> = known.map(([c, t]) => [
      c,
      t,
      t.weight * scale,
    ]);
    const rest = this.#categories.get(UNDEFINED_CATEGORY);
    if (rest) rows.push([UNDEFINED_CATEGORY, rest, Math.max(0, 1 - Math.min(1, knownSum))]);
    return Object.freeze(
      rows
        .filter(([, , share]) => share > 0)
        .sort((a, b) => b[2] - a[2] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))
        .map(([category, t, share]) =>
          Object.freeze({
            category,
            proximity: t.direct ? ("direct" as const) : ("indirect" as const),
            share,
            valueInFiat: value === null ? null : share * value,
            entityNames: Object.freeze(topNames(t.names)),
            minHops: t.minHops,
            path: t.bestPath,
            pathTxHashes: t.bestTxPath,
            ...(t.bestValues ? { pathValues: t.bestValues } : {}),
            ...(t.bestStartHop !== null ? { pathStartHop: t.bestStartHop } : {}),
            ...(t.bestCluster ? { cluster: t.bestCluster } : {}),
          }),
        ),
    );
  }
}

/** Makes `weight`, reached through `p`, the category's largest contribution. */
function setBest(t: CategoryTally, weight: number, p: TracePath): void {
  t.bestWeight = weight;
  t.bestPath = Object.freeze([...p.addresses]);
  t.bestTxPath = Object.freeze([...p.txHashes]);
  t.bestValues = p.values ? Object.freeze([...p.values]) : null;
  t.bestStartHop = p.startHop ?? null;
  t.bestCluster = p.cluster ?? null;
}

function topNames(names: ReadonlyMap<string, number>): string[] {
  return [...names]
    .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))
    .slice(0, MAX_ENTITY_NAMES)
    .map(([n]) => n);
}
