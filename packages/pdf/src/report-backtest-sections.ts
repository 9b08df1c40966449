/**
 * The sections of a backtest report: what was evaluated and how fast, the level shift (a chart
 * of transfers per level as checked and under the candidate, and the from/to table), transfers
 * by level, alerts by risk type and category, and the first transfers whose level moves.
 */
import { type BacktestReportData, RISK_LEVELS, type RiskLevel } from "@openkyt/core";
import type { Content, TableCell } from "pdfmake/interfaces";
import { type Fact, facts, paragraph, ruledTable, section, tokenText } from "./report-blocks.js";
import { barShapes } from "./report-exposure-chart.js";
import { capitalised, categoryName, formatChange, formatCount, words } from "./report-format.js";
import { levelCell, levelName } from "./report-risk-level.js";
import { COLORS, CONTENT_WIDTH, LEVEL_COLORS, PLAIN_LAYOUT } from "./report-styles.js";

type Report = BacktestReportData["report"];

/** Levels highest first, as every table of the report lists them. */
const LEVELS_DOWN: ReadonlyArray<RiskLevel> = [...RISK_LEVELS].reverse();

/** The report's counts of each level, highest first (a level it does not list counts 0). */
function levelRows(r: Report): Report["levels"] {
  return LEVELS_DOWN.map(
    (level) => r.levels.find((l) => l.level === level) ?? { level, actual: 0, candidate: 0 },
  );
}

const count = (n: number) => ({ text: formatCount(n), alignment: "right" as const });
const change = (n: number): TableCell => ({ text: formatChange(n), alignment: "right", bold: n !== 0 });

/** What was evaluated, by which models, with which results, and how fast. */
export function backtestSummary(d: BacktestReportData): Content[] {
  const r = d.report;
  const checkedBy = r.actual_models.map((m) => `${m.version} (${formatCount(m.transfers)})`).join(", ");
  const rows: Fact[] = [
    ...(d.backtestId === null ? [] : [{ label: "Backtest", value: d.backtestId, token: true }]),
    { label: "Candidate model", value: r.candidate },
    { label: "Registered", value: `${d.from} .. ${d.to}` },
    {
      label: "Transfers",
      value: `${formatCount(r.evaluated)} evaluated, ${formatCount(r.unchecked)} never checked (not evaluated)`,
    },
    { label: "Checked by", value: checkedBy || "no model" },
    {
      label: "Results seen",
      value: r.retraced
        ? `traced again against the current ledger, labels and lists (${formatCount(r.retrace_failures)} checks could not run: their stored result was used)`
        : "the stored results of each transfer's checks",
    },
    {
      label: "Throughput",
      value: `${formatCount(r.transfers_per_second)} transfers/s (${formatCount(r.elapsed_ms)} ms)`,
    },
  ];
  const gone =
    r.actual_model_missing === 0
      ? []
      : [
          paragraph(
            `${formatCount(r.actual_model_missing)} evaluated transfers were checked by a model version that is gone: their actual alerts are not counted.`,
          ),
        ];
  return [section("Backtest", [facts(rows)]), ...gone];
}

const BAR = 250;

/** One bar of the chart: its label, the bar and the count. */
function barRow(label: string, n: number, max: number, color: string): TableCell[] {
  return [
    { text: label, fontSize: 8, color: COLORS.muted, noWrap: true },
    { canvas: barShapes(n / max, color, BAR) },
    { text: formatCount(n), fontSize: 8, bold: true, noWrap: true },
  ];
}

/** The level-shift chart: per level, a grey bar as checked and one in the level's colour under the candidate. */
export function levelShiftChart(r: Report): Content {
  const max = Math.max(1, ...r.levels.flatMap((l) => [l.actual, l.candidate]));
  const body: TableCell[][] = levelRows(r).flatMap((l) => [
    [
      { text: levelName(l.level), bold: true, fontSize: 8, rowSpan: 2, noWrap: true },
      ...barRow("as checked", l.actual, max, COLORS.faint),
    ],
    [{ text: "" }, ...barRow("candidate", l.candidate, max, LEVEL_COLORS[l.level].fill)],
  ]);
  return {
    table: { widths: [70, 50, BAR, "*"], body },
    layout: PLAIN_LAYOUT,
    margin: [0, 2, 0, 6],
    unbreakable: true,
  };
}

/** The from/to table: transfers by level as checked (rows) and under the candidate (columns). */
function movesTable(r: Report): Content {
  const moved = (from: RiskLevel, to: RiskLevel) =>
    r.shift.moves.find((m) => m.from === from && m.to === to)?.count ?? 0;
  return ruledTable(
    [
      { title: "As checked \\ candidate", width: 90 },
      ...LEVELS_DOWN.map((l) => ({ title: levelName(l), width: "*" as const, right: true })),
    ],
    LEVELS_DOWN.map((from) => [
      levelCell(from),
      ...LEVELS_DOWN.map(
        (to): TableCell => ({ ...count(moved(from, to)), bold: from !== to && moved(from, to) > 0 }),
      ),
    ]),
  );
}

/** The level shift: how many go up, down or stay, the chart and the from/to table. */
export function levelShiftSection(r: Report): Content[] {
  const s = r.shift;
  const transfers = (n: number) => `${formatCount(n)} ${n === 1 ? "transfer" : "transfers"}`;
  const lead = `${transfers(s.up)} would go up a level or more, ${formatCount(s.down)} down, ${formatCount(s.same)} stay.`;
  return [section("Level shift", [paragraph(lead), levelShiftChart(r)]), movesTable(r)];
}

/** Transfers by level under each model, highest first. */
export function levelsSection(r: Report): Content[] {
  return [
    section("Transfers by level", []),
    ruledTable(
      [
        { title: "Level", width: 80 },
        { title: "As checked", width: "*", right: true },
        { title: "Candidate", width: "*", right: true },
        { title: "Change", width: "*", right: true },
      ],
      [...r.levels]
        .reverse()
        .map((l) => [
          levelCell(l.level),
          count(l.actual),
          count(l.candidate),
          change(l.candidate - l.actual),
        ]),
    ),
  ];
}

/** Alerts each model opens (one per finding), by risk type and category. */
export function backtestAlertsSection(r: Report): Content[] {
  if (r.alerts.length === 0)
    return [section("Alerts by risk type and category", [paragraph("Neither model opens an alert.")])];
  return [
    section("Alerts by risk type and category", [
      paragraph("Alerts each model opens: one per finding (risk type, category, proximity)."),
    ]),
    ruledTable(
      [
        { title: "Risk type", width: 130 },
        { title: "Category", width: "*" },
        { title: "As checked", width: 60, right: true },
        { title: "Candidate", width: 60, right: true },
        { title: "Change", width: 60, right: true },
      ],
      r.alerts.map((a) => [
        { text: capitalised(words(a.risk_type)) },
        { text: categoryName(a.category) },
        count(a.actual),
        count(a.candidate),
        change(a.candidate - a.actual),
      ]),
    ),
  ];
}

/** The first transfers (registration order) whose level goes up, then down. */
export function movedTransfersSection(r: Report): Content[] {
  const list = (ids: ReadonlyArray<string>, total: number, way: string): Content[] => {
    if (total === 0) return [paragraph(`No transfer goes ${way}.`)];
    const lead =
      ids.length < total
        ? `The first ${formatCount(ids.length)} of ${formatCount(total)} going ${way}:`
        : `All ${formatCount(total)} going ${way}:`;
    return [
      paragraph(lead),
      ...(ids.length === 0
        ? []
        : [{ stack: ids.map((id) => tokenText(id, CONTENT_WIDTH)), margin: [8, 0, 0, 6] } as Content]),
    ];
  };
  const [lead, ...up] = list(r.shift.up_ids, r.shift.up, "up");
  return [
    section("Transfers whose level moves", lead ? [lead] : []),
    ...up,
    ...list(r.shift.down_ids, r.shift.down, "down"),
  ];
}
