/**
 * A backtest report as one self-contained HTML page (no script, no external resource): the
 * summary, a chart of the level shift (transfers per level as checked and under the candidate,
 * side by side, as inline SVG), the from/to table, alerts by level and by category, the sanctions
 * warning, the "never checked" explanation and the transfers that move with hash and value, in
 * the words of core's BACKTEST_WORDS (as the console and the PDF). Pure: the report in, the page
 * out; every text from the report is escaped.
 */
import {
  type BacktestReportResponse,
  levelShiftSentence,
  modelLabel,
  movedValue,
  RISK_LEVELS,
  sanctionsWarningSentence,
  signedChange,
  BACKTEST_WORDS as W,
} from "@openkyt/core";

const grouped = (n: number) => n.toLocaleString("en-US");

/** Text escaped for HTML content and attribute values. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

const COLORS = { actual: "#8c8c8c", candidate: "#1f6feb" } as const;

/** The level-shift chart: two bars per level (actual, candidate), scaled to the largest count. */
export function levelShiftSvg(r: BacktestReportResponse): string {
  const levels = r.levels;
  const max = Math.max(1, ...levels.flatMap((l) => [l.actual, l.candidate]));
  const height = 180;
  const group = 90;
  const bar = 30;
  const left = 10;
  const parts: string[] = [];
  levels.forEach((l, i) => {
    const x = left + i * group;
    for (const [k, side] of (["actual", "candidate"] as const).entries()) {
      const value = l[side];
      const h = Math.round((value / max) * height);
      const bx = x + k * (bar + 4);
      parts.push(
        `<rect class="${side}" data-level="${l.level}" data-count="${value}" x="${bx}" y="${20 + height - h}" width="${bar}" height="${h}" fill="${COLORS[side]}"/>`,
        `<text x="${bx + bar / 2}" y="${14 + height - h}" font-size="11" text-anchor="middle">${grouped(value)}</text>`,
      );
    }
    parts.push(
      `<text x="${x + bar + 2}" y="${20 + height + 16}" font-size="12" text-anchor="middle">${l.level}</text>`,
    );
  });
  const width = left * 2 + levels.length * group;
  return `<svg xmlns="http://www.w3.org/2000/svg" role="img" aria-label="transfers by risk level, as checked and under the candidate" width="${width}" height="${height + 44}" viewBox="0 0 ${width} ${height + 44}">${parts.join("")}</svg>`;
}

/** Rows as an HTML table; cells are escaped. */
function table(header: ReadonlyArray<string>, rows: ReadonlyArray<ReadonlyArray<string>>): string {
  const cells = (tag: string, row: ReadonlyArray<string>) =>
    row.map((c) => `<${tag}>${escapeHtml(c)}</${tag}>`).join("");
  return `<table><thead><tr>${cells("th", header)}</tr></thead><tbody>${rows.map((r) => `<tr>${cells("td", r)}</tr>`).join("")}</tbody></table>`;
}

/** Level counts as a table: level, as checked, candidate, change (highest level first). */
function levelTable(rows: ReadonlyArray<{ level: string; actual: number; candidate: number }>): string {
  return table(
    [W.level, W.asChecked, W.candidateColumn, W.change],
    [...rows]
      .reverse()
      .map((l) => [l.level, grouped(l.actual), grouped(l.candidate), signedChange(l.candidate - l.actual)]),
  );
}

/** The transfers that move: id, network, hash, value, from and to; bare ids on older reports. */
function movedTable(r: BacktestReportResponse): string {
  if (r.moved.length === 0 && r.shift.up_ids.length + r.shift.down_ids.length > 0) {
    return table(
      [W.movedColumns[0]],
      [...r.shift.up_ids, ...r.shift.down_ids].map((id) => [id]),
    );
  }
  return table(
    [...W.movedColumns],
    r.moved.map((m) => [
      m.id,
      m.network,
      m.tx_hash ?? W.noHash,
      movedValue({ amount: m.amount, tokenSymbol: m.token_symbol, valueInFiat: m.value_in_fiat }),
      m.from,
      m.to,
    ]),
  );
}

/** The report as an HTML page; headings and explanations are core's BACKTEST_WORDS. */
export function backtestHtml(r: BacktestReportResponse, window: { from: string; to: string }): string {
  const count = (from: string, to: string) =>
    r.shift.moves.find((m) => m.from === from && m.to === to)?.count ?? 0;
  const levels = [...RISK_LEVELS];
  const model = r.candidate_model ? `${modelLabel(r.candidate_model)}, ${r.candidate}` : r.candidate;
  const title = `${W.title}: ${model}`;
  const warning = sanctionsWarningSentence(r.sanctions_dropped.count);
  const listed = r.moved.length || r.shift.up_ids.length + r.shift.down_ids.length;
  const moved = r.shift.up + r.shift.down;
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title>
<style>body{font-family:system-ui,sans-serif;margin:2em;color:#222}table{border-collapse:collapse;margin:1em 0}td,th{border:1px solid #ccc;padding:4px 8px;text-align:right}td:first-child,th:first-child{text-align:left}.key span{display:inline-block;width:12px;height:12px;margin:0 4px 0 12px}.warning{border:2px solid #c0392b;background:#fdecea;padding:.5em 1em}</style>
</head><body>
<h1>${escapeHtml(title)}</h1>
<p>${W.window}: transfers registered ${escapeHtml(window.from)} .. ${escapeHtml(window.to)}: ${grouped(r.evaluated)} evaluated, ${grouped(r.unchecked)} ${W.neverChecked.toLowerCase()}.
${W.checkedBy} ${escapeHtml(r.actual_models.map((m) => `${m.version} (${grouped(m.transfers)})`).join(", ") || "no model")}.
${r.retraced ? "The candidate saw fresh traces (current ledger, labels and lists)." : "The candidate saw the stored results."}</p>
${warning === null ? "" : `<p class="warning" role="alert"><strong>${W.sanctionsWarning}:</strong> ${escapeHtml(warning)}</p>`}
${r.unchecked > 0 ? `<p><strong>${W.neverChecked}:</strong> ${escapeHtml(W.neverCheckedNote)}</p>` : ""}
${r.actual_model_missing > 0 ? `<p>${grouped(r.actual_model_missing)} evaluated transfers were ${escapeHtml(W.modelGone)}</p>` : ""}
<h2>${W.levelShift}: ${grouped(r.shift.up)} up, ${grouped(r.shift.down)} down, ${grouped(r.shift.same)} same</h2>
<p>${escapeHtml(levelShiftSentence(r.shift))}</p>
<p class="key"><span style="background:${COLORS.actual}"></span>${W.asChecked.toLowerCase()}<span style="background:${COLORS.candidate}"></span>${W.candidateColumn.toLowerCase()}</p>
${levelShiftSvg(r)}
${table(
  [`${W.asChecked} \\ ${W.candidateColumn.toLowerCase()}`, ...levels],
  levels.map((from) => [from, ...levels.map((to) => grouped(count(from, to)))]),
)}
<h2>${W.transfersByLevel}</h2>
${levelTable(r.levels)}
<h2>${W.alertsByLevel}</h2>
<p>${escapeHtml(W.alertsByLevelNote)}</p>
${levelTable(r.alert_levels)}
<h2>${W.alertsByCategory}</h2>
<p>${escapeHtml(W.alertsByCategoryNote)}</p>
${table(
  ["Risk type / category", W.asChecked, W.candidateColumn, W.change],
  r.alerts.map((a) => [
    `${a.risk_type} / ${a.category}`,
    grouped(a.actual),
    grouped(a.candidate),
    signedChange(a.candidate - a.actual),
  ]),
)}
<h2>${W.movedTransfers}</h2>
<p>${moved === 0 ? "No transfer changes level." : listed < moved ? `The first ${grouped(listed)} of ${grouped(moved)} (up ones, then down ones).` : `All ${grouped(moved)} (up ones, then down ones).`}</p>
${moved === 0 ? "" : movedTable(r)}
</body></html>
`;
}
