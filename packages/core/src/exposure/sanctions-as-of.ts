/**
 * Sanctions as of a time span: a listing counts when its validity overlaps the span from the
 * transfer's time to the check's time. A listing with no start counts from the beginning of
 * time; one with no end is still in force.
 */
import type { Millis, SanctionsListing, SanctionsResult } from "../domain/records.js";

/** A closed time span `[from, to]` in epoch ms: from the transfer's time to the check's time. */
export interface TimeSpan {
  readonly from: Millis;
  readonly to: Millis;
}

/** True when the listing was in force at some moment of `span` (both ends inclusive). */
export function listingOverlaps(listing: SanctionsListing, span: TimeSpan): boolean {
  const startsInTime = listing.listedAt === null || listing.listedAt <= span.to;
  const notEndedBefore = listing.delistedAt === null || listing.delistedAt >= span.from;
  return startsInTime && notEndedBefore;
}

/** Deterministic order of listings: list, then entity, then start. */
export function compareListings(a: SanctionsListing, b: SanctionsListing): number {
  if (a.listName !== b.listName) return a.listName < b.listName ? -1 : 1;
  const ea = a.entity ?? "";
  const eb = b.entity ?? "";
  if (ea !== eb) return ea < eb ? -1 : 1;
  return (a.listedAt ?? Number.NEGATIVE_INFINITY) - (b.listedAt ?? Number.NEGATIVE_INFINITY);
}

/**
 * The sanctions check of one address: the listings of `address` (any network: a normalised
 * address names the same holder everywhere it is valid) that overlap `span`. Pure; the result
 * is frozen and its listings sorted by list name, entity and start.
 */
export function sanctionsAsOf(
  listings: ReadonlyArray<SanctionsListing>,
  address: string,
  span: TimeSpan,
): SanctionsResult {
  const counted = listings
    .filter((l) => l.address === address && listingOverlaps(l, span))
    .sort(compareListings)
    .map((l) => Object.freeze({ ...l }));
  return Object.freeze({ address, hit: counted.length > 0, listings: Object.freeze(counted) });
}

/** The entity name a listing stands for: its entity when known, else the list's name. */
export function listingEntityName(listing: SanctionsListing): string {
  return listing.entity ?? listing.listName;
}
