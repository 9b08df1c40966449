/**
 * The words of a backtest report, one table for every place that shows one: the console, the
 * CLI's HTML and text reports and the PDF. A heading or an explanation changes here, once.
 * Pure data and string functions: safe in a browser bundle (exported by `@openkyt/core/wire`).
 */

/** Headings, column names and explanations of a backtest report. */
export const BACKTEST_WORDS = Object.freeze({
  title: "Backtest report",
  candidate: "Candidate model",
  window: "Window",
  asChecked: "As checked",
  candidateColumn: "Candidate",
  change: "Change",
  level: "Level",
  transfersByLevel: "Transfers by risk level",
  levelShift: "Level shift",
  alertsByLevel: "Alerts by level",
  alertsByLevelNote:
    "Alerts each model opens (one per finding), by the level of the rule that raised them. A level change shows here even when the same findings fire.",
  alertsByCategory: "Alerts by risk type and category",
  alertsByCategoryNote:
    "The same findings counted by what they found: a level change alone does not move these.",
  movedTransfers: "Transfers that change level",
  movedColumns: ["Transfer", "Network", "Hash", "Value", "From", "To"] as const,
  checkedBy: "Checked by",
  neverChecked: "Never checked",
  neverCheckedNote:
    "Transfers registered in the window that no model has checked yet (their checks are still queued, or failed every time): there is no stored result to re-evaluate, so they are left out of every count.",
  modelGone: "checked by a model version no longer stored: their level is counted, their alerts are not.",
  sanctionsWarning: "Sanctions findings dropped",
  noHash: "not bound yet",
});

/** "+3", "-1,200", "0": a change as shown in every report. */
export function signedChange(n: number): string {
  return n > 0 ? `+${countText(n)}` : n < 0 ? `-${countText(-n)}` : "0";
}

/** A model named for a reader: "Strict (version 3)". */
export function modelLabel(model: { readonly name: string; readonly version: number }): string {
  return `${model.name} (version ${model.version})`;
}

/** How a count is written: "1,234" (en-US grouping), the same in every report. */
export function countText(n: number): string {
  return Math.round(n).toLocaleString("en-US");
}

/** The level shift in one sentence: "81 transfers change level: 60 up, 21 down; 400 stay the same." */
export function levelShiftSentence(shift: {
  readonly up: number;
  readonly down: number;
  readonly same: number;
}): string {
  const moved = shift.up + shift.down;
  return `${countText(moved)} ${moved === 1 ? "transfer changes" : "transfers change"} level: ${countText(shift.up)} up, ${countText(shift.down)} down; ${countText(shift.same)} stay the same.`;
}

/** The warning shown when the candidate drops sanctions findings; null when it drops none. */
export function sanctionsWarningSentence(count: number): string | null {
  if (count === 0) return null;
  return `The candidate raises no sanctions finding on ${countText(count)} ${count === 1 ? "transfer" : "transfers"} where the model that checked ${count === 1 ? "it" : "them"} raised one: a sanctioned counterparty would go unalerted.`;
}

/** A transfer's value for a reader: "1.5 ETH (USD 4,200.00)", whatever is known. */
export function movedValue(t: {
  readonly amount: number | null;
  readonly tokenSymbol: string | null;
  readonly valueInFiat: number | null;
}): string {
  const parts: string[] = [];
  if (t.amount !== null) parts.push(`${t.amount}${t.tokenSymbol ? ` ${t.tokenSymbol}` : ""}`);
  if (t.valueInFiat !== null) {
    const usd = `USD ${t.valueInFiat.toLocaleString("en-US", { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;
    parts.push(parts.length ? `(${usd})` : usd);
  }
  return parts.length ? parts.join(" ") : "unknown";
}
