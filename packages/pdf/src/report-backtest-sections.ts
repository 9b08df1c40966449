/**
 * The sections of a backtest report: what was evaluated and how fast, the warning when the
 * candidate drops sanctions findings, the level shift (a chart of transfers per level as checked
 * and under the candidate, and the from/to table), transfers by level, alerts by level and by
 * risk type and category, and the first transfers whose level moves with hash and value. Every
 * heading and explanation comes from core's BACKTEST_WORDS, as in the console and the CLI.
 */
import {
  type BacktestReportData,
  levelShiftSentence,
  modelLabel,
  movedValue,
  RISK_LEVELS,
  type RiskLevel,
  sanctionsWarningSentence,
  BACKTEST_WORDS as W,
} from "@openkyt/core";
import type { Content, TableCell } from "pdfmake/interfaces";
import { type Fact, facts, notice, paragraph, ruledTable, section, tokenText } from "./report-blocks.js";
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

/** The candidate as a reader names it: "Strict (version 3)", its tag kept beside it. */
function candidateName(r: Report): string {
  return r.candidate_model ? `${modelLabel(r.candidate_model)}, ${r.candidate}` : r.candidate;
}

/** What was evaluated, by which models, with which results, and how fast. */
export function backtestSummary(d: BacktestReportData): Content[] {
  const r = d.report;
  const checkedBy = r.actual_models.map((m) => `${m.version} (${formatCount(m.transfers)})`).join(", ");
  const rows: Fact[] = [
    ...(d.backtestId === null ? [] : [{ label: "Backtest", value: d.backtestId, token: true }]),
    { label: W.candidate, value: candidateName(r) },
    { label: W.window, value: `${d.from} .. ${d.to}` },
    {
      label: "Transfers",
      value: `${formatCount(r.evaluated)} evaluated, ${formatCount(r.unchecked)} ${W.neverChecked.toLowerCase()} (not evaluated)`,
    },
    { label: W.checkedBy, value: checkedBy || "no model" },
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
      : [paragraph(`${formatCount(r.actual_model_missing)} evaluated transfers were ${W.modelGone}`)];
  const unchecked = r.unchecked === 0 ? [] : [paragraph(`${W.neverChecked}: ${W.neverCheckedNote}`)];
  const warning = sanctionsWarningSentence(r.sanctions_dropped.count);
  const warned =
    warning === null
      ? []
      : [notice([{ text: `${W.sanctionsWarning}: `, bold: true }, { text: warning }], "#fdecea", "#c0392b")];
  return [section("Backtest", [facts(rows)]), ...warned, ...gone, ...unchecked];
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
      { title: `${W.asChecked} \\ ${W.candidateColumn.toLowerCase()}`, width: 90 },
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
  return [section(W.levelShift, [paragraph(levelShiftSentence(r.shift)), levelShiftChart(r)]), movesTable(r)];
}

/** Transfers by level under each model, highest first. */
export function levelsSection(r: Report): Content[] {
  return [
    section(W.transfersByLevel, []),
    ruledTable(
      [
        { title: W.level, width: 80 },
        { title: W.asChecked, width: "*", right: true },
        { title: W.candidateColumn, width: "*", right: true },
        { title: W.change, width: "*", right: true },
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

/** Alerts each model opens (one per finding), by the level of the rule that raised them, highest first. */
export function alertLevelsSection(r: Report): Content[] {
  if (r.alert_levels.length === 0) return [];
  return [
    section(W.alertsByLevel, [paragraph(W.alertsByLevelNote)]),
    ruledTable(
      [
        { title: W.level, width: 80 },
        { title: W.asChecked, width: "*", right: true },
        { title: W.candidateColumn, width: "*", right: true },
        { title: W.change, width: "*", right: true },
      ],
      [...r.alert_levels]
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
    return [section(W.alertsByCategory, [paragraph("Neither model opens an alert.")])];
  return [
    section(W.alertsByCategory, [paragraph(W.alertsByCategoryNote)]),
    ruledTable(
      [
        { title: "Risk type", width: 130 },
        { title: "Category", width: "*" },
        { title: W.asChecked, width: 60, right: true },
        { title: W.candidateColumn, width: 60, right: true },
        { title: W.change, width: 60, right: true },
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

/**
 * The first transfers whose level moves: a table of id, network, hash, value and from -> to
 * level. A report stored before these were kept lists the bare ids instead.
 */
export function movedTransfersSection(r: Report): Content[] {
  const s = r.shift;
  const total = s.up + s.down;
  if (total === 0) return [section(W.movedTransfers, [paragraph("No transfer changes level.")])];
  const listed = r.moved.length > 0 ? r.moved.length : s.up_ids.length + s.down_ids.length;
  const lead =
    listed < total
      ? `The first ${formatCount(listed)} of ${formatCount(total)} (up ones, then down ones):`
      : `All ${formatCount(total)} (up ones, then down ones):`;
  if (r.moved.length === 0) {
    const ids = [...s.up_ids, ...s.down_ids];
    return [
      section(W.movedTransfers, [paragraph(lead)]),
      { stack: ids.map((id) => tokenText(id, CONTENT_WIDTH)), margin: [8, 0, 0, 6] } as Content,
    ];
  }
  const [transfer, network, hash, value, from, to] = W.movedColumns;
  // The transfer id and its hash share a column, one above the other: a 66-character hash
  // fits a line of it whole, so it can be read (and searched for) in one piece.
  const fixed = 40 + 85 + 45 + 45;
  const wide = CONTENT_WIDTH - fixed - 10;
  return [
    section(W.movedTransfers, [paragraph(lead)]),
    ruledTable(
      [
        { title: `${transfer} / ${hash}`, width: "*" },
        { title: network, width: 40 },
        { title: value, width: 85 },
        { title: from, width: 45 },
        { title: to, width: 45 },
      ],
      r.moved.map((m) => [
        {
          stack: [
            tokenText(m.id, wide, 6.5),
            m.tx_hash === null
              ? { text: W.noHash, fontSize: 7, color: COLORS.muted }
              : tokenText(m.tx_hash, wide, 6.5),
          ],
        } as TableCell,
        { text: m.network, fontSize: 8 },
        {
          text: movedValue({ amount: m.amount, tokenSymbol: m.token_symbol, valueInFiat: m.value_in_fiat }),
          fontSize: 8,
        },
        levelCell(m.from),
        levelCell(m.to),
      ]),
    ),
  ];
}
