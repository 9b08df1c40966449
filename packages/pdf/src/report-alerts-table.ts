/**
 * The alerts raised for a transfer's risks, with their workflow status.
 */
import type { AlertResponse, AlertStatus } from "@openkyt/core";
import type { Content, TableCell } from "pdfmake/interfaces";
import { paragraph, ruledTable, section, tokenText } from "./report-blocks.js";
import { capitalised, categoryName, formatShare, formatTime, formatUsd, words } from "./report-format.js";
import { byLevelDesc, levelCell } from "./report-risk-level.js";
import { COLORS } from "./report-styles.js";

const STATUS_COLOR: Readonly<Record<AlertStatus, string>> = Object.freeze({
  open: COLORS.bad,
  in_progress: "#E65100",
  awaiting_response: "#E65100",
  done: COLORS.ok,
});

function row(a: AlertResponse): TableCell[] {
  const i = a.entity_interaction;
  return [
    tokenText(a.id, 140, 6.8),
    { text: words(a.alert_status), bold: true, color: STATUS_COLOR[a.alert_status] },
    levelCell(a.risk_level),
    { text: capitalised(words(a.risk_type)) },
    {
      stack: [
        { text: i ? categoryName(i.entity_category) : "—", bold: true },
        ...(i
          ? [{ text: `${i.proximity}; ${formatUsd(i.value_in_fiat)}; ${formatShare(i.value_share)}` }]
          : []),
      ],
    },
    {
      stack: [
        { text: `created ${formatTime(a.created_at)}` },
        { text: a.updated_at ? `updated ${formatTime(a.updated_at)}` : "not updated", style: "small" },
      ],
    },
  ];
}

/** The alerts section, highest level first. */
export function alertsSection(alerts: ReadonlyArray<AlertResponse>): Content[] {
  if (alerts.length === 0) return [section("Alerts", [paragraph("No alert was raised for this transfer.")])];
  const open = alerts.filter((a) => a.alert_status !== "done").length;
  const count = alerts.length === 1 ? "1 alert" : `${alerts.length} alerts`;
  return [
    section("Alerts", [paragraph(`${count} raised, ${open} not done.`)]),
    ruledTable(
      [
        { title: "Alert ID", width: 140 },
        { title: "Status", width: 46 },
        { title: "Level", width: 38 },
        { title: "Risk type", width: 54 },
        { title: "Interaction", width: "*" },
        { title: "Created / updated", width: 90 },
      ],
      [...alerts].sort(byLevelDesc).map(row),
    ),
  ];
}
