/**
 * The CSV export of alerts and their decisions (RFC 4180: comma-separated, CRLF line ends, every
 * field quoted when it holds a comma, a quote or a line break, quotes doubled). A field that a
 * spreadsheet would run as a formula (starting with =, +, -, @, tab or carriage return) is
 * prefixed with an apostrophe, so opening the file runs nothing.
 */
import type { AlertExportRow } from "@openkyt/core";

/** The columns, in order. */
export const ALERT_CSV_COLUMNS = [
  "alert_id",
  "created_at",
  "updated_at",
  "alert_status",
  "risk_level",
  "risk_type",
  "entity_category",
  "proximity",
  "value_share",
  "value_in_fiat",
  "assignee",
  "transfer_id",
  "client_id",
  "network",
  "direction",
  "tx_hash",
  "input_address",
  "output_address",
  "occurred_at",
  "decision_outcome",
  "decided_by",
  "decided_at",
  "decision_comment",
  "comments",
] as const;

/** One field as CSV. */
export function csvField(value: string | number | null | undefined): string {
  if (value === null || value === undefined) return "";
  let text = String(value);
  if (/^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

function cells(r: AlertExportRow): ReadonlyArray<string | number | null | undefined> {
  const a = r.alert;
  const t = r.transfer;
  const i = a.entity_interaction;
  return [
    a.id,
    a.created_at,
    a.updated_at,
    a.alert_status,
    a.risk_level,
    a.risk_type,
    i?.entity_category,
    i?.proximity,
    i?.value_share,
    i?.value_in_fiat,
    r.assignee,
    t?.id,
    t?.clientId,
    t?.network,
    t?.direction,
    t?.txHash,
    t?.inputAddress,
    t?.outputAddress,
    t?.occurredAt === null || t?.occurredAt === undefined ? null : new Date(t.occurredAt).toISOString(),
    r.decision.outcome,
    r.decision.decidedBy,
    r.decision.decidedAt,
    r.decision.comment,
    r.comments.join(" | "),
  ];
}

/** The CSV text of the rows, with a header line. */
export function alertsCsv(rows: ReadonlyArray<AlertExportRow>): string {
  const lines = [ALERT_CSV_COLUMNS.join(","), ...rows.map((r) => cells(r).map(csvField).join(","))];
  return `${lines.join("\r\n")}\r\n`;
}
