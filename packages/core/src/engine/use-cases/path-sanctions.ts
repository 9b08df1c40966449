/**
 * Sanctions on the path: every address of a result's strongest paths (the transfer's exposure
 * and the counterparty's) looked up in the sanctions lists, so an indirect sanctions finding
 * can show the listing (list, program, entity, dates) of the sanctioned address it reached,
 * not only the direct counterparty's. Listings count as in the sanctions check: their validity
 * overlaps the span from the transfer's time to the check's time.
 */
import type { ExposureResult, Millis, SanctionsResult } from "../../domain/records.js";
import { sanctionsAsOf } from "../../exposure/sanctions-as-of.js";
import type { SanctionsSource } from "../../ports/reference-sources.js";

/** What the lookup reads of a transfer or a manual check. */
export interface PathSubject {
  readonly exposure: ExposureResult | null;
  readonly counterpartyExposure: ExposureResult | null;
  /** The transfer's time (or its registration when it has none). */
  readonly from: Millis;
  /** When the check ran (or now). */
  readonly to: Millis;
  /** The direct counterparty, whose listings the sanctions check already shows. */
  readonly counterparty: string | null;
}

/** The addresses of every strongest path of the subject, in path order, each once. */
export function pathAddresses(subject: PathSubject): ReadonlyArray<string> {
  const seen = new Set<string>();
  for (const result of [subject.exposure, subject.counterpartyExposure]) {
    for (const share of result?.shares ?? []) for (const a of share.path) seen.add(a);
  }
  if (subject.counterparty !== null) seen.delete(subject.counterparty);
  return [...seen];
}

/**
 * The sanctions results of the addresses on the subject's paths that have listings (any
 * listing, current or past: `hit` says whether one counted at the transfer's time), hits first.
 */
export async function pathSanctions(
  sanctions: SanctionsSource,
  subject: PathSubject,
): Promise<ReadonlyArray<SanctionsResult>> {
  const addresses = pathAddresses(subject);
  if (addresses.length === 0) return [];
  const listings = await sanctions.listings(addresses);
  const span = { from: subject.from, to: Math.max(subject.from, subject.to) };
  const found: SanctionsResult[] = [];
  for (const address of addresses) {
    const mine = listings.filter((l) => l.address === address);
    if (mine.length === 0) continue;
    const inForce = sanctionsAsOf(mine, address, span);
    found.push(inForce.hit ? inForce : { address, hit: false, listings: mine });
  }
  return found.sort((a, b) => Number(b.hit) - Number(a.hit));
}
