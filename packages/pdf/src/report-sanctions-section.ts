/**
 * The sanctions check: the address looked up and, when it is listed, every listing with its
 * list, program, entity and validity; "no listing" otherwise.
 */
import type { CheckState, SanctionsResult } from "@openkyt/core";
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

function listingsTable(s: SanctionsResult): Content {
  const rows = s.listings.map((l): TableCell[] => [
    { text: l.listName, bold: true },
    { text: l.program ?? UNKNOWN },
    { text: l.entity ?? UNKNOWN },
    { text: l.listedAt === null ? "from the start of the list" : formatEpoch(l.listedAt) },
    { text: l.delistedAt === null ? "still listed" : formatEpoch(l.delistedAt) },
  ]);
  return ruledTable(
    [
      { title: "List", width: 90 },
      { title: "Program", width: 70 },
      { title: "Entity", width: "*" },
      { title: "Listed since", width: 95 },
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
