/**
 * The sanctions check: the address looked up and, when it is listed, every listing with its
 * list, program, entity and validity; "no listing" otherwise. A listing's start is its
 * designation date when the list's source gives one ("since DATE (designated)"); otherwise only
 * the list snapshot it was first read from is known, and the report says so ("in list snapshot
 * of DATE") rather than pass the snapshot's date off as a designation date.
 */
import type { CheckState, SanctionsListing, SanctionsResult } from "@openkyt/core";
import type { Content, TableCell } from "pdfmake/interfaces";
import { facts, paragraph, ruledTable, section } from "./report-blocks.js";
import { checkLine } from "./report-checks.js";
import { formatEpoch, UNKNOWN } from "./report-format.js";
import { COLORS } from "./report-styles.js";

/** The sanctions result and the state of the check that produced it. */
export interface SanctionsInput {
  readonly sanctions: SanctionsResult | null;
  readonly state: CheckState;
  readonly at: string | null;
}

/** A date as YYYY-MM-DD when it is a day's start (UTC), else with its time. */
function dayOrTime(ms: number): string {
  return ms % 86_400_000 === 0 ? new Date(ms).toISOString().slice(0, 10) : formatEpoch(ms);
}

/** When a listing began, and what that date is. */
export function listedText(l: SanctionsListing): string {
  if (l.designatedAt !== undefined && l.designatedAt !== null)
    return `since ${dayOrTime(l.designatedAt)} (designated)`;
  if (l.listedAt === null) return "from the start of the list";
  return `in list snapshot of ${dayOrTime(l.listedAt)}`;
}

function listingsTable(s: SanctionsResult): Content {
  const rows = s.listings.map((l): TableCell[] => [
    { text: l.listName, bold: true },
    { text: l.program ?? UNKNOWN },
    { text: l.entity ?? UNKNOWN },
    { text: listedText(l) },
    { text: l.delistedAt === null ? "still listed" : formatEpoch(l.delistedAt) },
  ]);
  return ruledTable(
    [
      { title: "List", width: 90 },
      { title: "Program", width: 70 },
      { title: "Entity", width: "*" },
      { title: "Listed", width: 95 },
      { title: "Delisted", width: 95 },
    ],
    rows,
  );
}

/** The sanctions section. */
export function sanctionsSection({ sanctions, state, at }: SanctionsInput): Content[] {
  const line = checkLine("Sanctions check", state, at);
  if (sanctions === null) {
    const why = state === "checked" ? "no address to look up." : "the check has not finished.";
    return [section("Sanctions", [line, paragraph(`No sanctions result is available: ${why}`)])];
  }
  const verdict: Content = sanctions.hit
    ? { text: "LISTED: the address is on a sanctions list.", bold: true, color: COLORS.bad, fontSize: 10 }
    : {
        text: "No listing: the address is on none of the sanctions lists checked.",
        bold: true,
        color: COLORS.ok,
      };
  const result = facts([
    { label: "Address looked up", value: sanctions.address, token: true },
    { label: "Result", value: verdict },
  ]);
  return [
    section("Sanctions", [line, result]),
    ...(sanctions.hit && sanctions.listings.length > 0 ? [listingsTable(sanctions)] : []),
  ];
}
