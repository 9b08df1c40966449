/**
 * A sanctions snapshot against the listings already stored for its list: what to add, what to
 * update and what the snapshot ended (delisting). Pure functions over plain values.
 *
 * A listing is keyed by (address, list, listedAt). An address of the snapshot that a stored
 * listing already covers at the snapshot's date keeps that listing (its program, entity and
 * network are updated when the snapshot says otherwise); an address with no such listing gets a
 * new one from the snapshot's date. An open listing whose address the snapshot lacks is closed at
 * the snapshot's date, so screening a transfer made before then still counts it.
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
}

/** What happened to one address of the snapshot. */
export type AddressOutcome = "added" | "updated" | "unchanged";

/** The writes a snapshot needs. */
export interface SnapshotPlan {
  readonly writes: ReadonlyArray<SanctionsListing>;
  readonly outcomes: ReadonlyMap<string, AddressOutcome>;
  readonly delisted: number;
}

const networkRank = (code: string): number => NETWORK_CODES.indexOf(code);

/** `row` merged into what is known of its address (`known` undefined for its first row). */
export function mergeRow(known: MergedAddress | undefined, row: SanctionsRow): MergedAddress {
  const programs = (row.program ?? "")
    .split(",")
    .map((p) => p.trim())
    .filter((p) => p !== "");
  const entities = row.entity === null ? [] : [row.entity];
  if (known === undefined) {
    return { ...row, programs: [...new Set(programs)].sort(), entities };
  }
  const keepKnown =
    known.inferred !== row.inferred ? row.inferred : networkRank(known.network) <= networkRank(row.network);
  return {
    network: keepKnown ? known.network : row.network,
    address: known.address,
    inferred: known.inferred && row.inferred,
    programs: [...new Set([...known.programs, ...programs])].sort(),
    entities: [...new Set([...known.entities, ...entities])].sort(),
  };
}

/**
 * A listing's program and entity as the snapshot says them, keeping stored values the snapshot
 * does not give. The network stays: an address names its holder on every network it is valid on,
 * so which of them a listing names does not change what screening finds.
 */
function restated(listing: SanctionsListing, merged: MergedAddress): SanctionsListing {
  return {
    ...listing,
    program: merged.programs.length > 0 ? merged.programs.join(", ") : listing.program,
    entity: merged.entities.length > 0 ? merged.entities.join("; ") : listing.entity,
  };
}

const sameListing = (a: SanctionsListing, b: SanctionsListing): boolean =>
  a.network === b.network &&
  a.program === b.program &&
  a.entity === b.entity &&
  a.delistedAt === b.delistedAt;

/** True when `listing` holds at `at`. */
const coversAt = (listing: SanctionsListing, at: number): boolean =>
  (listing.listedAt === null || listing.listedAt <= at) &&
  (listing.delistedAt === null || listing.delistedAt > at);

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
  const writes: SanctionsListing[] = [];
  const outcomes = new Map<string, AddressOutcome>();
  for (const [address, merged] of input.addresses) {
    const listings = stored.get(address) ?? [];
    const current =
      listings.find((l) => coversAt(l, asOf)) ??
      listings.filter((l) => l.delistedAt === null).sort((a, b) => (b.listedAt ?? 0) - (a.listedAt ?? 0))[0];
    if (current === undefined) {
      const fresh = { network: merged.network, address, listName: input.listName, listedAt: asOf };
      writes.push(restated({ ...fresh, program: null, entity: null, delistedAt: null }, merged));
      outcomes.set(address, "added");
      continue;
    }
    const next = restated(current, merged);
    if (sameListing(next, current)) outcomes.set(address, "unchanged");
    else {
      writes.push(next);
      outcomes.set(address, "updated");
    }
  }
  let delisted = 0;
  if (input.delist) {
    for (const [address, listings] of stored) {
      if (input.addresses.has(address) || input.present.has(address.toLowerCase())) continue;
      for (const listing of listings) {
        if (listing.delistedAt !== null || (listing.listedAt !== null && listing.listedAt > asOf)) continue;
        writes.push({ ...listing, delistedAt: asOf });
        delisted++;
      }
    }
  }
  return { writes, outcomes, delisted };
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
  let delisted = 0;
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
    };
    if (same === undefined) outcomes.set(row.address, "added");
    else outcomes.set(row.address, sameListing(next, same) ? "unchanged" : "updated");
    if (outcomes.get(row.address) !== "unchanged") writes.push(next);
    if (delistedAt === null) continue;
    for (const other of listings) {
      if (other === same || other.delistedAt !== null || (other.listedAt ?? 0) > delistedAt) continue;
      writes.push({ ...other, delistedAt });
      delisted++;
    }
  }
  return { writes, outcomes, delisted };
}
