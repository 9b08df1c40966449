/**
 * Who an address is, for tracing: a sanctioned address (a listing in force during the span) is
 * category `sanctions`, whatever it is attributed to; otherwise its attribution, if any.
 */
import { entityCategoryInfo } from "../domain/entity-categories.js";
import type { Attribution, ClusterAttribution } from "../domain/records.js";
import type { AddressScreen, AttributionSource, SanctionsSource } from "../ports/reference-sources.js";
import { compareListings, listingEntityName, listingOverlaps, type TimeSpan } from "./sanctions-as-of.js";

/** The entity an address resolves to. */
export interface ResolvedEntity {
  readonly name: string;
  readonly category: string;
  /** Where the fact comes from: the attribution's source, or the sanctions list's name. */
  readonly source: string | null;
  /** Set when the entity was found through the address's cluster (`cluster-resolver.ts`). */
  readonly cluster?: ClusterAttribution;
}

/** Resolves many addresses at once; one call per hop of a trace. */
export interface EntityResolver {
  /**
   * The entities of those `addresses` of `network` that resolve; unknown ones are left out.
   * Sanctions listings count when their validity overlaps `span`. Must not mutate its arguments.
   */
  resolve(
    network: string,
    addresses: ReadonlyArray<string>,
    span: TimeSpan,
  ): Promise<ReadonlyMap<string, ResolvedEntity>>;
  /**
   * Optional: a superset of the addresses of `network` that `resolve` may resolve, whatever the
   * span, or null when the resolver cannot say now. A tracer lumps a hub's rows from other
   * addresses (`LedgerReader.ledgerIncomingLumped`).
   */
  addressScreen?(network: string): AddressScreen | null;
}

/** What {@link createEntityResolver} reads. */
export interface EntityResolverSources {
  readonly attributions: AttributionSource;
  readonly sanctions: SanctionsSource;
}

const GROUP_RANK = { severe: 0, high: 1, medium: 2, low: 3, system: 4 } as const;

/** How risky a category is, for picking among entities: 0 the riskiest (sanctions count as severe). */
export function categoryRiskRank(category: string): number {
  if (category === "sanctions") return -1;
  return GROUP_RANK[entityCategoryInfo(category)?.group ?? "system"] ?? 5;
}

/** Riskiest group first (an unknown category ranks as system), then entity name, then source. */
function compareAttributions(a: Attribution, b: Attribution): number {
  const ra = GROUP_RANK[entityCategoryInfo(a.entityCategory)?.group ?? "system"] ?? 5;
  const rb = GROUP_RANK[entityCategoryInfo(b.entityCategory)?.group ?? "system"] ?? 5;
  if (ra !== rb) return ra - rb;
  if (a.entityName !== b.entityName) return a.entityName < b.entityName ? -1 : 1;
  const sa = a.source ?? "";
  const sb = b.source ?? "";
  return sa < sb ? -1 : sa > sb ? 1 : 0;
}

/**
 * An {@link EntityResolver} over the attribution and sanctions sources: one call to each per
 * `resolve`, made together. Sanctions win over an attribution; when an address has several
 * attributions the riskiest category's is taken.
 */
export function createEntityResolver(sources: EntityResolverSources): EntityResolver {
  let last: { a: AddressScreen; s: AddressScreen; both: AddressScreen } | null = null;
  return Object.freeze({
    /** Both sources' screens joined, the same object while neither changes; null unless both screen. */
    addressScreen(): AddressScreen | null {
      const a = sources.attributions.addressScreen?.() ?? null;
      const s = sources.sanctions.addressScreen?.() ?? null;
      if (a === null || s === null) return null;
      if (last?.a !== a || last.s !== s) {
        const both = Object.freeze({ mayResolve: (x: string) => a.mayResolve(x) || s.mayResolve(x) });
        last = { a, s, both };
      }
      return last.both;
    },
    async resolve(network: string, addresses: ReadonlyArray<string>, span: TimeSpan) {
      const out = new Map<string, ResolvedEntity>();
      if (addresses.length === 0) return out;
      const [attributions, listings] = await Promise.all([
        sources.attributions.attributions(network, addresses),
        sources.sanctions.listings(addresses),
      ]);
      const wanted = new Set(addresses);
      for (const a of [...attributions].filter((x) => wanted.has(x.address)).sort(compareAttributions)) {
        if (out.has(a.address)) continue;
        out.set(
          a.address,
          Object.freeze({ name: a.entityName, category: a.entityCategory, source: a.source }),
        );
      }
      const sanctioned = [...listings]
        .filter((l) => wanted.has(l.address) && listingOverlaps(l, span))
        .sort(compareListings);
      const done = new Set<string>();
      for (const l of sanctioned) {
        if (done.has(l.address)) continue;
        done.add(l.address);
        out.set(
          l.address,
          Object.freeze({ name: listingEntityName(l), category: "sanctions", source: l.listName }),
        );
      }
      return out;
    },
  });
}
