/**
 * The parts of a case file beyond the transfer report: the case (the alert it was opened from,
 * its assignee and the decision), the listings of the sanctioned addresses met on the paths of
 * an indirect finding, and the history of every alert of the transfer with its comments.
 */
import type { CaseDecision, CaseFileReportData, CaseHistoryEntry, SanctionsResult } from "@openkyt/core";
import type { Content, TableCell } from "pdfmake/interfaces";
import { facts, paragraph, ruledTable, section, tokenText } from "./report-blocks.js";
import {
  capitalised,
  categoryName,
  formatEpoch,
  formatShare,
  formatTime,
  formatUsd,
  UNKNOWN,
  words,
} from "./report-format.js";
import { listedText } from "./report-sanctions-section.js";
import { COLORS } from "./report-styles.js";

/** "done (false positive) by analyst@acme at TIME", or what is still open. */
export function decisionText(d: CaseDecision): string {
  if (d.decidedAt === null) return `Not decided: the alert is ${words(d.status)}.`;
  const outcome = d.outcome === null ? "" : ` (${words(d.outcome)})`;
  return `Closed${outcome} by ${d.decidedBy ?? "an unknown actor"} at ${formatTime(d.decidedAt)}.`;
}

/** The case: which alert, who works it, and the decision with its comment. */
export function caseSection(d: CaseFileReportData): Content[] {
  const a = d.alert;
  const i = a.entity_interaction;
  const finding = i
    ? `${capitalised(words(a.risk_type))}: ${categoryName(i.entity_category)} (${i.proximity}), ${formatShare(i.value_share)} of the value, ${formatUsd(i.value_in_fiat)}`
    : capitalised(words(a.risk_type));
  return [
    section("Case", [
      facts([
        { label: "Alert", value: a.id, token: true },
        { label: "Finding", value: finding },
        { label: "Risk level", value: words(a.risk_level) },
        { label: "Status", value: words(a.alert_status) },
        { label: "Assignee", value: d.assignee ?? "nobody" },
        { label: "Decision", value: { text: decisionText(d.decision), bold: true } },
        ...(d.decision.comment ? [{ label: "Reason given", value: d.decision.comment }] : []),
      ]),
    ]),
  ];
}

function listingRows(s: SanctionsResult): TableCell[][] {
  return s.listings.map((l, n): TableCell[] => [
    n === 0 ? tokenText(s.address, 130, 7) : { text: "" },
    { text: l.listName, bold: true },
    { text: l.program ?? UNKNOWN },
    { text: l.entity ?? UNKNOWN },
    { text: listedText(l) },
    { text: l.delistedAt === null ? "still listed" : formatEpoch(l.delistedAt) },
  ]);
}

/** The listings of the sanctioned addresses on the strongest paths. */
export function pathSanctionsSection(results: ReadonlyArray<SanctionsResult>): Content[] {
  if (results.length === 0)
    return [
      section("Sanctions on the paths", [
        paragraph("No address on the strongest paths is on a sanctions list."),
      ]),
    ];
  const hits = results.filter((r) => r.hit).length;
  return [
    section("Sanctions on the paths", [
      paragraph(
        `${results.length} address${results.length === 1 ? "" : "es"} on the strongest paths ${results.length === 1 ? "is" : "are"} listed; ${hits} at the transfer's time.`,
      ),
    ]),
    ruledTable(
      [
        { title: "Address", width: 130 },
        { title: "List", width: 60 },
        { title: "Program", width: 50 },
        { title: "Entity", width: "*" },
        { title: "Listed", width: 80 },
        { title: "Delisted", width: 60 },
      ],
      results.flatMap(listingRows),
    ),
  ];
}

function change(e: CaseHistoryEntry): string {
  if (e.from === null) return `opened as ${words(e.to)}`;
  if (e.from === e.to) return e.comment ? "commented" : "updated";
  return `${words(e.from)} to ${words(e.to)}`;
}

/** The history of the transfer's alerts, oldest first, with every comment in full. */
export function historySection(history: ReadonlyArray<CaseHistoryEntry>, alertId: string): Content[] {
  if (history.length === 0) return [section("History and comments", [paragraph("No history is kept.")])];
  const comments = history.filter((e) => e.comment).length;
  return [
    section("History and comments", [
      paragraph(
        `${history.length} change${history.length === 1 ? "" : "s"}, ${comments} with a comment; changes to other alerts of the transfer are marked.`,
      ),
    ]),
    ruledTable(
      [
        { title: "When", width: 92 },
        { title: "Who", width: 80 },
        { title: "Change", width: 90 },
        { title: "Comment", width: "*" },
      ],
      history.map((e): TableCell[] => [
        { text: formatTime(e.at) },
        { text: e.actor ?? "OpenKYT" },
        {
          stack: [
            { text: change(e) },
            ...(e.assignee ? [{ text: `assigned to ${e.assignee}`, style: "small" }] : []),
            ...(e.alert_id === alertId
              ? []
              : [{ text: `other alert ${e.alert_id.slice(0, 8)}`, style: "small", color: COLORS.muted }]),
          ],
        },
        { text: e.comment ?? "" },
      ]),
    ),
  ];
}
