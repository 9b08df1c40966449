/**
 * The look of every report: page geometry, named text styles, colours of risk levels and the
 * thin-ruled table layout. Frozen data; the sections refer to styles by name.
 */
import type { RiskLevel } from "@openkyt/core";
import type { CustomTableLayout, Margins, Style, StyleDictionary } from "pdfmake/interfaces";

/** A4 portrait, in points. */
export const PAGE = Object.freeze({ width: 595.28, height: 841.89 });
/** Left, top, right, bottom: room above for the running header and below for the footer. */
export const PAGE_MARGINS: Margins = [40, 56, 40, 52];
/** Width the content has between the side margins. */
export const CONTENT_WIDTH = PAGE.width - 80;

/** Greys and accents shared by the sections. */
export const COLORS = Object.freeze({
  text: "#212121",
  muted: "#616161",
  faint: "#9E9E9E",
  rule: "#CFD8DC",
  headerFill: "#ECEFF1",
  track: "#F1F3F4",
  accent: "#263238",
  ok: "#2E7D32",
  bad: "#B71C1C",
  notice: "#FFF8E1",
  noticeBorder: "#FFB300",
  info: "#E3F2FD",
  infoBorder: "#64B5F6",
});

/** Fill and text colour of each aggregated risk level. */
export const LEVEL_COLORS: Readonly<Record<RiskLevel, { readonly fill: string; readonly text: string }>> =
  Object.freeze({
    undefined: { fill: "#9E9E9E", text: "#FFFFFF" },
    none: { fill: "#2E7D32", text: "#FFFFFF" },
    low: { fill: "#F9A825", text: "#212121" },
    medium: { fill: "#EF6C00", text: "#FFFFFF" },
    high: { fill: "#C62828", text: "#FFFFFF" },
    severe: { fill: "#6A0000", text: "#FFFFFF" },
  });

/** The body font and size every text starts from. */
export const DEFAULT_STYLE: Style = Object.freeze({
  font: "Report",
  fontSize: 9,
  lineHeight: 1.15,
  color: COLORS.text,
});

/** Named styles used by the sections. */
export const STYLES: StyleDictionary = Object.freeze({
  title: { fontSize: 18, bold: true, color: COLORS.accent },
  h2: { fontSize: 12, bold: true, color: COLORS.accent, margin: [0, 14, 0, 6] },
  label: { color: COLORS.muted },
  token: { fontSize: 8.5, characterSpacing: 0.1 },
  small: { fontSize: 7.5, color: COLORS.muted },
  th: { bold: true, fontSize: 7.5, color: COLORS.accent, fillColor: COLORS.headerFill },
  td: { fontSize: 7.5 },
  paragraph: { margin: [0, 2, 0, 4] },
  running: { fontSize: 7.5, color: COLORS.faint },
});

/** Thin horizontal rules between rows, none between columns. */
export const RULED_LAYOUT: CustomTableLayout = Object.freeze({
  hLineWidth: (i: number, node: { table: { body: unknown[] } }) =>
    i === 0 || i === node.table.body.length ? 0.6 : 0.4,
  vLineWidth: () => 0,
  hLineColor: () => COLORS.rule,
  paddingLeft: () => 4,
  paddingRight: () => 4,
  paddingTop: () => 2.5,
  paddingBottom: () => 2.5,
});

/** No rules at all, tight padding: key/value lists and the bar chart. */
export const PLAIN_LAYOUT: CustomTableLayout = Object.freeze({
  hLineWidth: () => 0,
  vLineWidth: () => 0,
  paddingLeft: (i: number) => (i === 0 ? 0 : 4),
  paddingRight: () => 4,
  paddingTop: () => 1.5,
  paddingBottom: () => 1.5,
});

/** A box with a coloured border: notices and the risk summary. */
export function boxLayout(border: string): CustomTableLayout {
  return {
    hLineWidth: () => 0.8,
    vLineWidth: () => 0.8,
    hLineColor: () => border,
    vLineColor: () => border,
    paddingLeft: () => 8,
    paddingRight: () => 8,
    paddingTop: () => 6,
    paddingBottom: () => 6,
  };
}
