/**
 * A sanctions snapshot against the listings already stored for its list: what to add, what to
 * update and what the snapshot ended (delisting). Pure functions over plain values.
 *
 * A listing is keyed by (address, list, listedAt). An address of the snapshot keeps its latest
 * listing that began on or before the snapshot's date (its program, entity and designation date
 * are updated when the snapshot says otherwise). The snapshot reopens that listing ("relisted"),
 * when no later listing of the address exists and it was ended
 * - on or after the snapshot's date (by a later run, a bad one included): a complete snapshot is
 *   the truth about its list on its date; or
 * - by the list's most recent delisting run (its end is the latest end of any listing of the
 *   list), whatever the snapshot's date: so re-importing a correct snapshot dated after a bad run
 *   (a file without a date is dated now) restores what the bad run ended, with no gap in which
 *   transfers screen clean. The cost: an address delisted and listed again with no other
 *   delisting of the list in between is taken as listed all along.
 * An address with no such listing (delisted by an older run, the delisting confirmed by later
 * runs that delisted others) gets a new listing from the snapshot's date (from its designation
 * date when the source gives one). An open listing whose address the snapshot lacks is closed at the
 * snapshot's date, so screening a transfer made before then still counts it.
 */
import { NETWORK_CODES, type SanctionsListing } from "@openkyt/core";
import type { SanctionsRow } from "./sanctions-rows.js";

/** Rows of one address merged: the programs and entities of all of them. */
export interface MergedAddress {
  readonly network: string;
  readonly address: string;
  readonly inferred: boolean;
  readonly programs: ReadonlyArray<string>;
  readonly entities: ReadonlyArray<string>;
  /** The earliest designation date of its rows, null when none gives one. */
  readonly designatedAt: number | null;
}

/** What happened to one address of the snapshot ("relisted": reopened, a kind of update). */
export type AddressOutcome = "added" | "updated" | "relisted" | "unchanged";

/** The writes a snapshot needs. */
export interface SnapshotPlan {
  readonly writes: ReadonlyArray<SanctionsListing>;
  readonly outcomes: ReadonlyMap<string, AddressOutcome>;
  /** Addresses whose listings the plan ends, in list order. */
  readonly delisted: ReadonlyArray<string>;
  /** Listings the plan ends (an address may have several). */
  readonly delistings: number;
}

/** The listings of a list open (not delisted) now: what the mass-delisting limit is a share of. */
export function openListings(stored: ReadonlyArray<SanctionsListing>): number {
  return stored.filter((l) => l.delistedAt === null).length;
}

/** The earlier of two optional dates. */
const earliest = (a: number | null, b: number | null): number | null =>
  a === null ? b : b === null ? a : Math.min(a, b);

const networkRank = (code: string): number => NETWORK_CODES.indexOf(code);

/** `row` merged into what is known of its address (`known` undefined for its first row). */
export function mergeRow(known: MergedAddress | undefined, row: SanctionsRow): MergedAddress {
  const programs = (row.program ?? "")
    .split(",")
    .map((p) => p.trim())
    .filter((p) => p !== "");
  const entities = row.entity === null ? [] : [row.entity];
  if (known === undefined) {
    const { network, address, inferred, designatedAt } = row;
    return { network, address, inferred, designatedAt, programs: [...new Set(programs)].sort(), entities };
  }
  const keepKnown =
    known.inferred !== row.inferred ? row.inferred : networkRank(known.network) <= networkRank(row.network);
  return {
    network: keepKnown ? known.network : row.network,
    address: known.address,
    inferred: known.inferred && row.inferred,
    programs: [...new Set([...known.programs, ...programs])].sort(),
    entities: [...new Set([...known.entities, ...entities])].sort(),
    designatedAt: earliest(known.designatedAt, row.designatedAt),
  };
}

/**
 * A listing's program, entity and designation date as the snapshot says them, keeping stored
 * values the snapshot does not give. The network stays: an address names its holder on every
 * network it is valid on, so which of them a listing names does not change what screening finds.
 */
function restated(listing: SanctionsListing, merged: MergedAddress): SanctionsListing {
  const designatedAt = merged.designatedAt ?? listing.designatedAt ?? null;
  return {
    ...listing,
    program: merged.programs.length > 0 ? merged.programs.join(", ") : listing.program,
    entity: merged.entities.length > 0 ? merged.entities.join("; ") : listing.entity,
    ...(designatedAt === null ? {} : { designatedAt }),
  };
}

const sameListing = (a: SanctionsListing, b: SanctionsListing): boolean =>
  a.network === b.network &&
  a.program === b.program &&
  a.entity === b.entity &&
  a.delistedAt === b.delistedAt &&
  (a.designatedAt ?? null) === (b.designatedAt ?? null);

/** Stored listings grouped by address. */
function byAddress(stored: ReadonlyArray<SanctionsListing>): Map<string, SanctionsListing[]> {
  const groups = new Map<string, SanctionsListing[]>();
  for (const listing of stored) {
    const group = groups.get(listing.address);
    if (group) group.push(listing);
    else groups.set(listing.address, [listing]);
  }
  return groups;
}

/** When the list's most recent delisting ended its listings: the latest end of any, or null. */
function latestDelisting(stored: ReadonlyArray<SanctionsListing>): number | null {
  let latest: number | null = null;
  for (const { delistedAt } of stored)
    if (delistedAt !== null && (latest === null || delistedAt > latest)) latest = delistedAt;
  return latest;
}

const startOf = (listing: SanctionsListing): number => listing.listedAt ?? Number.NEGATIVE_INFINITY;

/**
 * The stored listing a snapshot dated `asOf` speaks of, and whether it reopens it: the latest
 * listing begun by `asOf` when it is open, or was ended on or after `asOf` or at `lastDelisting`
 * (the list's most recent delisting) with no later listing (reopened); else the latest open
 * listing begun after `asOf`; else none.
 */
function currentListing(
  listings: ReadonlyArray<SanctionsListing>,
  asOf: number,
  lastDelisting: number | null,
): { readonly listing: SanctionsListing; readonly reopen: boolean } | undefined {
  const begun = listings.filter((l) => startOf(l) <= asOf).sort((a, b) => startOf(b) - startOf(a))[0];
  const later = listings.filter((l) => startOf(l) > asOf);
  if (begun !== undefined) {
    if (begun.delistedAt === null) return { listing: begun, reopen: false };
    if (begun.delistedAt > asOf && later.length > 0) return { listing: begun, reopen: false };
    if (later.length === 0 && (begun.delistedAt >= asOf || begun.delistedAt === lastDelisting))
      return { listing: begun, reopen: true };
  }
  const open = later.filter((l) => l.delistedAt === null).sort((a, b) => startOf(b) - startOf(a))[0];
  return open === undefined ? undefined : { listing: open, reopen: false };
}

/** The plan of a snapshot of `listName` dated `asOf`. */
export function planSnapshot(input: {
  readonly listName: string;
  readonly asOf: number;
  readonly addresses: ReadonlyMap<string, MergedAddress>;
  readonly stored: ReadonlyArray<SanctionsListing>;
  /** Close open listings whose address the snapshot lacks. */
  readonly delist: boolean;
  /** Address texts (lower-cased) met in the file, accepted or not: never delisted. */
  readonly present: ReadonlySet<string>;
}): SnapshotPlan {
  const { asOf } = input;
  const stored = byAddress(input.stored);
  const lastDelisting = latestDelisting(input.stored);
  const writes: SanctionsListing[] = [];
  const outcomes = new Map<string, AddressOutcome>();
  for (const [address, merged] of input.addresses) {
    const current = currentListing(stored.get(address) ?? [], asOf, lastDelisting);
    if (current === undefined) {
      const listedAt =
        merged.designatedAt !== null && merged.designatedAt < asOf ? merged.designatedAt : asOf;
      const fresh = { network: merged.network, address, listName: input.listName, listedAt };
      writes.push(restated({ ...fresh, program: null, entity: null, delistedAt: null }, merged));
      outcomes.set(address, "added");
      continue;
    }
    const { listing, reopen } = current;
    const next = restated(reopen ? { ...listing, delistedAt: null } : listing, merged);
    if (sameListing(next, listing)) outcomes.set(address, "unchanged");
    else {
      writes.push(next);
      outcomes.set(address, reopen ? "relisted" : "updated");
    }
  }
  const delisted: string[] = [];
  let delistings = 0;
  if (input.delist) {
    for (const [address, listings] of stored) {
      if (input.addresses.has(address) || input.present.has(address.toLowerCase())) continue;
      let ended = false;
      for (const listing of listings) {
        if (listing.delistedAt !== null || (listing.listedAt !== null && listing.listedAt > asOf)) continue;
        writes.push({ ...listing, delistedAt: asOf });
        delistings++;
        ended = true;
      }
      if (ended) delisted.push(address);
    }
  }
  return { writes, outcomes, delisted, delistings };
}

/**
 * The plan of a history file: each row is one listing period of its own (keyed by its start). A
 * period that ended also closes the address's other open listings that began before its end.
 */
export function planHistory(input: {
  readonly listName: string;
  readonly rows: ReadonlyArray<SanctionsRow>;
  readonly stored: ReadonlyArray<SanctionsListing>;
}): SnapshotPlan {
  const stored = byAddress(input.stored);
  const writes: SanctionsListing[] = [];
  const outcomes = new Map<string, AddressOutcome>();
  const delisted = new Set<string>();
  let delistings = 0;
  for (const row of input.rows) {
    if (row.period === null || outcomes.has(row.address)) continue;
    const listings = stored.get(row.address) ?? [];
    const { listedAt, delistedAt } = row.period;
    const same = listings.find((l) => l.listedAt === listedAt);
    const next: SanctionsListing = {
      network: same?.network ?? row.network,
      address: row.address,
      listName: input.listName,
      program: same?.program ?? row.program,
      entity: same?.entity ?? row.entity,
      listedAt,
      delistedAt,
      ...(same?.designatedAt == null ? {} : { designatedAt: same.designatedAt }),
    };
    if (same === undefined) outcomes.set(row.address, "added");
    else outcomes.set(row.address, sameListing(next, same) ? "unchanged" : "updated");
    if (outcomes.get(row.address) !== "unchanged") writes.push(next);
    if (delistedAt === null) continue;
    for (const other of listings) {
      if (other === same || other.delistedAt !== null || (other.listedAt ?? 0) > delistedAt) continue;
      writes.push({ ...other, delistedAt });
      delistings++;
      delisted.add(row.address);
    }
  }
  return { writes, outcomes, delisted: [...delisted], delistings };
}
