/**
 * OpenKYT's additions to a transfer's exposure answer (docs/http-api.md, "Beyond the published
 * interface"): the stored sanctions check result with its listings (list, program, entity,
 * dates) and the model version that made the transfer's risks. Optional fields beside the
 * published ones, so clients of TRANSFER_EXPOSURE read it as before.
 */
import { z } from "zod";
import type { SanctionsListing, SanctionsResult } from "../domain/records.js";
import { formatOffsetTimestampOrNull } from "./timestamps.js";

const when = (what: string) => z.string().nullable().describe(`${what} (an offset timestamp), or null.`);

/** One listing of a sanctioned address. */
const sanctionsListingSchema = z
  .strictObject({
    network: z.string(),
    address: z.string(),
    list_name: z.string().describe("The list, e.g. OFAC SDN."),
    program: z
      .string()
      .nullable()
      .describe("The sanctions program, e.g. CYBER2; null when the list gives none."),
    entity: z
      .string()
      .nullable()
      .describe("The listed person or organisation; null when the list gives none."),
    listed_at: when("Start of the listing; null: since the beginning of the list"),
    delisted_at: when("End of the listing; null: still listed"),
    designated_at: when("The designation date the list's source gives; null when it gives none"),
  })
  .describe("A listing of the address on a sanctions list.");

/** The sanctions check result of a transfer: its counterparty address and every listing found. */
export const sanctionsDetailsSchema = z
  .strictObject({
    address: z.string().describe("The address looked up (the transfer's counterparty)."),
    hit: z.boolean().describe("Whether a listing in force at the transfer's time was found."),
    listings: z.array(sanctionsListingSchema).describe("The listings found; empty when none."),
  })
  .nullable()
  .describe("The sanctions check's result; null until the check finished.");

/** OpenKYT's addition: the listings of the sanctioned addresses met on the strongest paths. */
export const pathSanctionsSchema = z
  .array(
    z.strictObject({
      address: z.string().describe("An address of a strongest path (not the direct counterparty)."),
      hit: z.boolean().describe("Whether a listing in force at the transfer's time was found."),
      listings: z.array(sanctionsListingSchema).describe("The address's listings."),
    }),
  )
  .describe(
    "The sanctions listings of the addresses on the strongest paths (an indirect hit's listed address), hits first; empty when none is listed.",
  );

/** The model version field. */
export const riskModelVersionField = z
  .string()
  .nullable()
  .describe(
    "The risk model version (id@version) that made the risks and level; null until a check finished.",
  );

export type SanctionsDetails = z.output<typeof sanctionsDetailsSchema>;

function listing(l: SanctionsListing) {
  return {
    network: l.network,
    address: l.address,
    list_name: l.listName,
    program: l.program,
    entity: l.entity,
    listed_at: formatOffsetTimestampOrNull(l.listedAt),
    delisted_at: formatOffsetTimestampOrNull(l.delistedAt),
    designated_at: formatOffsetTimestampOrNull(l.designatedAt ?? null),
  };
}

/** A stored sanctions result on the wire. */
export function presentSanctions(result: SanctionsResult | null): SanctionsDetails {
  if (result === null) return null;
  return { address: result.address, hit: result.hit, listings: result.listings.map(listing) };
}

/** The listings of one sanctioned address on the wire (an address page's listings). */
export const sanctionsListingsSchema = z.array(sanctionsListingSchema);

/** Listings on the wire. */
export function presentListings(listings: ReadonlyArray<SanctionsListing>) {
  return listings.map(listing);
}

/** Path sanctions on the wire. */
export function presentPathSanctions(results: ReadonlyArray<SanctionsResult>) {
  return results.map((r) => ({ address: r.address, hit: r.hit, listings: r.listings.map(listing) }));
}

/** The additions of a record's exposure answer. */
export function presentScreeningDetails(record: {
  readonly sanctions: SanctionsResult | null;
  readonly riskModelVersion: string | null;
}): { sanctions: SanctionsDetails; risk_model: string | null } {
  return { sanctions: presentSanctions(record.sanctions), risk_model: record.riskModelVersion };
}
