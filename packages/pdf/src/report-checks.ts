/**
 * The state of a transfer's work: binding and the three checks, whether anything is still
 * pending, and the notice that says so on the page.
 */
import type { CheckState, ManualCheckResponse, TransferResponse, TxStatus } from "@openkyt/core";
import type { Content, TableCell } from "pdfmake/interfaces";
import { notice, ruledTable } from "./report-blocks.js";
import { formatTime, words } from "./report-format.js";
import { COLORS, CONTENT_WIDTH } from "./report-styles.js";

const STATE_TEXT: Readonly<Record<CheckState, string>> = Object.freeze({
  none: "not started",
  queued: "queued",
  checking: "checking",
  checked: "checked",
  error: "error",
});

const TX_STATUS_TEXT: Readonly<Record<TxStatus, string>> = Object.freeze({
  none: "none (an attempt: no transaction to bind)",
  binding: "binding (waiting for the transaction on chain)",
  bound: "bound (found on chain)",
  not_found: "not found on chain",
  error: "error (binding kept failing)",
});

/** tx_status with what it means. */
export function txStatusText(status: TxStatus | null): string {
  return status === null ? "not looked up yet" : TX_STATUS_TEXT[status];
}

/** A check's state, coloured, and when it last changed, as text runs. */
export function checkStateText(state: CheckState, at: string | null): Content[] {
  const color = state === "checked" ? COLORS.ok : state === "error" ? COLORS.bad : COLORS.muted;
  return [{ text: STATE_TEXT[state], bold: true, color }, at ? ` (since ${formatTime(at)})` : ""];
}

/** One line: a check's name, state and when it last changed. */
export function checkLine(label: string, state: CheckState, at: string | null): Content {
  // One short line (about 60 characters) on the full width: never wraps.
  return {
    text: [`${label}: `, ...checkStateText(state, at)],
    margin: [0, 0, 0, 4],
    noWrap: true,
  } as Content;
}

/** The three checks of a transfer as a table. */
export function checksTable(t: TransferResponse): Content {
  const c = t.check_state;
  const rows: Array<[string, CheckState, string | null]> = [
    ["Exposure", c.exposure, c.exposure_checked_at],
    ["Counterparty", c.counterparty, c.counterparty_checked_at],
    ["Sanctions", c.sanctions, c.sanctions_checked_at],
  ];
  return ruledTable(
    [
      { title: "Check", width: 120 },
      { title: "State", width: 90 },
      { title: "State since (UTC)", width: CONTENT_WIDTH - 120 - 90 - 24 },
    ],
    rows.map(([name, state, at]): TableCell[] => [
      { text: name },
      { text: STATE_TEXT[state], bold: true, color: state === "error" ? COLORS.bad : COLORS.text },
      { text: formatTime(at) },
    ]),
  );
}

/** What is still pending or failed for a transfer; empty when all work is done. */
export function transferPending(
  t: TransferResponse,
  extra: { readonly lastError?: string | null; readonly autoCheckDisabled?: boolean } = {},
): string[] {
  const open: string[] = [];
  if (extra.autoCheckDisabled)
    open.push("it was registered with disable_auto_check, so its checks run only on request");
  if (t.tx_status === "binding") open.push("the transaction is not bound yet (binding in progress)");
  const c = t.check_state;
  const checks: Array<[string, CheckState]> = [
    ["exposure", c.exposure],
    ["counterparty", c.counterparty],
    ["sanctions", c.sanctions],
  ];
  const waiting = checks.filter(([, s]) => s === "queued" || s === "checking" || s === "none");
  if (waiting.length > 0) {
    open.push(`checks not finished: ${waiting.map(([n, s]) => `${n} (${STATE_TEXT[s]})`).join(", ")}`);
  }
  const failed = checks.filter(([, s]) => s === "error").map(([n]) => n);
  if (failed.length > 0) open.push(`checks that ended in error: ${failed.join(", ")}`);
  if (t.tx_status === "not_found" || t.tx_status === "error") {
    open.push(`binding ended as ${words(t.tx_status)}`);
  }
  if (extra.lastError && (failed.length > 0 || t.tx_status === "not_found" || t.tx_status === "error")) {
    open.push(`reason: ${extra.lastError}`);
  }
  return open;
}

/** What is pending or failed for a manual check; empty when it finished. */
export function manualCheckPending(c: ManualCheckResponse, lastError: string | null = null): string[] {
  if (c.check_status === "checking") return ["the check is still running"];
  if (c.check_status === "error")
    return [lastError ? `the check ended in error: ${lastError}` : "the check ended in error"];
  return [];
}

/** The notice of unfinished work, or nothing. */
export function pendingNotice(subject: string, open: ReadonlyArray<string>): Content[] {
  if (open.length === 0) return [];
  return [
    notice([
      { text: `This ${subject} is not finished. `, bold: true },
      `The report shows what was known when it was generated: ${open.join("; ")}.`,
    ]),
  ];
}
