/**
 * A backtest report as one self-contained HTML page (no script, no external resource): the
 * summary, a chart of the level shift (transfers per level as checked and under the candidate,
 * side by side, as inline SVG), the alerts table, the from/to table and the listed ids. Pure: the
 * report in, the page out; every text from the report is escaped.
 */
import { type BacktestReportResponse, RISK_LEVELS } from "@openkyt/core";

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

/** The report as an HTML page. */
export function backtestHtml(r: BacktestReportResponse, window: { from: string; to: string }): string {
  const signed = (n: number) => (n > 0 ? `+${grouped(n)}` : grouped(n));
  const count = (from: string, to: string) =>
    r.shift.moves.find((m) => m.from === from && m.to === to)?.count ?? 0;
  const levels = [...RISK_LEVELS];
  const title = `Backtest of ${r.candidate}`;
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title>
<style>body{font-family:system-ui,sans-serif;margin:2em;color:#222}table{border-collapse:collapse;margin:1em 0}td,th{border:1px solid #ccc;padding:4px 8px;text-align:right}td:first-child,th:first-child{text-align:left}.key span{display:inline-block;width:12px;height:12px;margin:0 4px 0 12px}</style>
</head><body>
<h1>${escapeHtml(title)}</h1>
<p>Transfers registered ${escapeHtml(window.from)} .. ${escapeHtml(window.to)}: ${grouped(r.evaluated)} evaluated, ${grouped(r.unchecked)} never checked.
Checked by ${escapeHtml(r.actual_models.map((m) => `${m.version} (${grouped(m.transfers)})`).join(", ") || "no model")}.
${r.retraced ? "The candidate saw fresh traces (current ledger, labels and lists)." : "The candidate saw the stored results."}</p>
<h2>Level shift: ${grouped(r.shift.up)} up, ${grouped(r.shift.down)} down, ${grouped(r.shift.same)} same</h2>
<p class="key"><span style="background:${COLORS.actual}"></span>as checked<span style="background:${COLORS.candidate}"></span>candidate</p>
${levelShiftSvg(r)}
${table(
  ["actual \\ candidate", ...levels],
  levels.map((from) => [from, ...levels.map((to) => grouped(count(from, to)))]),
)}
<h2>Transfers by level</h2>
${table(
  ["level", "actual", "candidate", "change"],
  [...r.levels]
    .reverse()
    .map((l) => [l.level, grouped(l.actual), grouped(l.candidate), signed(l.candidate - l.actual)]),
)}
<h2>Alerts by risk type and category</h2>
${table(
  ["risk type / category", "actual", "candidate", "change"],
  r.alerts.map((a) => [
    `${a.risk_type} / ${a.category}`,
    grouped(a.actual),
    grouped(a.candidate),
    signed(a.candidate - a.actual),
  ]),
)}
<h2>Transfers that move</h2>
${table(
  ["up (first)", "down (first)"],
  Array.from({ length: Math.max(r.shift.up_ids.length, r.shift.down_ids.length) }, (_, i) => [
    r.shift.up_ids[i] ?? "",
    r.shift.down_ids[i] ?? "",
  ]),
)}
</body></html>
`;
}
