/**
 * A backtest report as text for the terminal: the levels and alerts side by side (as checked,
 * under the candidate, the change), the level shift as a from/to table, and the first ids each
 * way. Pure: the report in, lines out.
 */
import {
  type BacktestReportResponse,
  modelLabel,
  movedValue,
  RISK_LEVELS,
  sanctionsWarningSentence,
  BACKTEST_WORDS as W,
} from "@openkyt/core";

const grouped = (n: number) => n.toLocaleString("en-US");
const signed = (n: number) => (n > 0 ? `+${grouped(n)}` : n < 0 ? `-${grouped(-n)}` : "0");

/** Rows of cells as lines: the first column left-aligned, the others right-aligned. */
function table(rows: ReadonlyArray<ReadonlyArray<string>>): string[] {
  const widths = rows[0]?.map((_, c) => Math.max(...rows.map((r) => (r[c] ?? "").length))) ?? [];
  return rows.map((r) =>
    r
      .map((cell, c) => (c === 0 ? cell.padEnd(widths[c] ?? 0) : cell.padStart(widths[c] ?? 0)))
      .join("  ")
      .trimEnd(),
  );
}

/** The report as lines of text (no trailing newline on the last). */
export function backtestText(r: BacktestReportResponse, window: { from: string; to: string }): string {
  const lines: string[] = [];
  const model = r.candidate_model ? `${modelLabel(r.candidate_model)}, ${r.candidate}` : r.candidate;
  lines.push(`Backtest of ${model}, transfers registered ${window.from} .. ${window.to}`);
  const warning = sanctionsWarningSentence(r.sanctions_dropped.count);
  if (warning !== null) lines.push(`WARNING: ${W.sanctionsWarning}: ${warning}`);
  lines.push(
    `${grouped(r.evaluated)} transfers evaluated in ${r.elapsed_ms < 1 ? "under 1 ms" : `${grouped(Math.round(r.elapsed_ms))} ms (${grouped(r.transfers_per_second)} transfers/s)`}` +
      (r.unchecked > 0 ? ` (${grouped(r.unchecked)} never checked, not evaluated)` : ""),
  );
  if (r.retraced)
    lines.push(
      `candidate evaluated on fresh traces (current ledger, labels and lists)${r.retrace_failures > 0 ? `; ${grouped(r.retrace_failures)} checks could not run again and kept their stored result` : ""}`,
    );
  if (r.actual_models.length > 0)
    lines.push(
      `checked by: ${r.actual_models.map((m) => `${m.version} (${grouped(m.transfers)})`).join(", ")}`,
    );
  if (r.actual_model_missing > 0)
    lines.push(
      `${grouped(r.actual_model_missing)} checked by a model version no longer stored: their actual alerts are not counted`,
    );
  lines.push("");
  lines.push(
    ...table([
      ["level", "actual", "candidate", "change"],
      ...[...r.levels]
        .reverse()
        .map((l) => [l.level, grouped(l.actual), grouped(l.candidate), signed(l.candidate - l.actual)]),
    ]),
  );
  if (r.unchecked > 0) lines.push(`${W.neverChecked}: ${W.neverCheckedNote}`);
  lines.push("");
  if (r.alert_levels.length > 0) {
    lines.push(
      ...table([
        ["alerts: level", "actual", "candidate", "change"],
        ...[...r.alert_levels]
          .reverse()
          .map((l) => [l.level, grouped(l.actual), grouped(l.candidate), signed(l.candidate - l.actual)]),
      ]),
      "",
    );
  }
  if (r.alerts.length === 0) lines.push("alerts: none under either model");
  else
    lines.push(
      ...table([
        ["alerts: risk type / category", "actual", "candidate", "change"],
        ...r.alerts.map((a) => [
          `${a.risk_type} / ${a.category}`,
          grouped(a.actual),
          grouped(a.candidate),
          signed(a.candidate - a.actual),
        ]),
      ]),
    );
  lines.push("");
  lines.push(
    `level shift: ${grouped(r.shift.up)} up, ${grouped(r.shift.down)} down, ${grouped(r.shift.same)} same`,
  );
  const count = (from: string, to: string) =>
    r.shift.moves.find((m) => m.from === from && m.to === to)?.count ?? 0;
  const levels = [...RISK_LEVELS];
  lines.push(
    ...table([
      ["actual \\ candidate", ...levels],
      ...levels.map((from) => [from, ...levels.map((to) => grouped(count(from, to)))]),
    ]),
  );
  if (r.moved.length > 0) {
    lines.push(
      "",
      `${W.movedTransfers.toLowerCase()} (first ${r.moved.length}):`,
      ...r.moved.map(
        (m) =>
          `  ${m.id}  ${m.network}  ${m.tx_hash ?? W.noHash}  ${movedValue({ amount: m.amount, tokenSymbol: m.token_symbol, valueInFiat: m.value_in_fiat })}  ${m.from} -> ${m.to}`,
      ),
    );
  } else {
    if (r.shift.up_ids.length > 0)
      lines.push("", `up (first ${r.shift.up_ids.length}):`, ...r.shift.up_ids.map((id) => `  ${id}`));
    if (r.shift.down_ids.length > 0)
      lines.push("", `down (first ${r.shift.down_ids.length}):`, ...r.shift.down_ids.map((id) => `  ${id}`));
  }
  return lines.join("\n");
}
