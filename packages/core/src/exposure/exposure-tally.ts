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
  bestCluster: ClusterAttribution | null;
}

/** How a contribution was reached: the addresses from the start and the transfers between them. */
export interface TracePath {
  readonly addresses: ReadonlyArray<string>;
  readonly txHashes: ReadonlyArray<string>;
  /** When the credited entity was found through a cluster. */
  readonly cluster?: ClusterAttribution;
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
        bestCluster: null,
      };
      this.#categories.set(category, t);
    }
    t.weight += weight;
    t.direct ||= proximity === "direct";
    t.minHops = Math.min(t.minHops, hop);
    if (name !== null) t.names.set(name, (t.names.get(name) ?? 0) + weight);
    if (weight > t.bestWeight) {
      t.bestWeight = weight;
      const p = path();
      t.bestPath = Object.freeze([...p.addresses]);
      t.bestTxPath = Object.freeze([...p.txHashes]);
      t.bestCluster = p.cluster ?? null;
    }
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
            ...(t.bestCluster ? { cluster: t.bestCluster } : {}),
          }),
        ),
    );
  }
}

function topNames(names: ReadonlyMap<string, number>): string[] {
  return [...names]
    .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))
    .slice(0, MAX_ENTITY_NAMES)
    .map(([n]) => n);
}
