/**
 * The plain-text summary of an import (what `openkyt import` prints without `--json`): the
 * counters that are not zero, why rows were skipped (by count), the rejected rows, and for a
 * sanctions dry run what it would add, change and delist.
 */
import type { ClusterConflict } from "@openkyt/core";
import type { ImportSummary } from "@openkyt/datasets";

/** `n` with thousands separators. */
const grouped = (n: number) => n.toLocaleString("en-US");

/** Skip reasons listed by name; the rest are counted together (`--json` lists them all). */
const REASONS_SHOWN = 8;

/** `label: a, b, c and N more` for the first addresses of an outcome of `total`. */
function addressLine(label: string, addresses: ReadonlyArray<string>, total: number): string {
  const more = total > addresses.length ? ` and ${grouped(total - addresses.length)} more` : "";
  return `  ${label}: ${addresses.join(", ")}${more}\n`;
}

/** `37,756 skipped: 37,700 label x, 56 asset XMR` (most frequent first), or "" when none was. */
export function skippedLine(s: ImportSummary): string {
  if (s.skipped === 0) return "";
  const reasons = Object.entries(s.skippedBy);
  const shown = reasons.slice(0, REASONS_SHOWN).map(([reason, n]) => `${grouped(n)} ${reason}`);
  const rest = reasons.slice(REASONS_SHOWN).reduce((sum, [, n]) => sum + n, 0);
  if (rest > 0)
    shown.push(`${grouped(rest)} for ${reasons.length - REASONS_SHOWN} other reasons (--json lists them)`);
  return `  ${grouped(s.skipped)} skipped: ${shown.join(", ")}\n`;
}

/** The counters of a summary that are not zero, in the order of the summary. */
function counters(s: ImportSummary): string {
  const verb = s.dryRun ? "would be " : "";
  const parts: Array<[number, string]> = [
    [s.added, `${verb}added`],
    [s.updated, s.relisted > 0 ? `${verb}updated (${grouped(s.relisted)} relisted)` : `${verb}updated`],
    [s.unchanged, "unchanged"],
    [s.duplicates, "duplicates"],
    [s.skipped, "skipped"],
    [s.rejected, "rejected"],
    [s.delisted, `${verb}delisted`],
  ];
  const shown = parts.filter(([n]) => n > 0).map(([n, what]) => `${grouped(n)} ${what}`);
  return shown.length === 0 ? "nothing to import" : shown.join(", ");
}

/** One cluster conflict: the cluster and its entities, each with a labelled address. */
export function conflictText(c: ClusterConflict): string {
  const who = c.entities.map((e) => `${e.name} (${e.category}, ${e.address})`).join(", ");
  return `${c.network} address cluster ${c.clusterId} holds ${c.entities.length} labelled entities: ${who}; not merged under one name (the riskiest label extends to it, flagged as a conflict)`;
}

/** The clustering line of a UTXO ledger import, and a line per conflict. */
function clusteringText(s: ImportSummary): string {
  const c = s.utxo?.clustering;
  if (c === undefined) return "";
  if (c === null) return "  clustering off (--no-clustering): no address cluster merged\n";
  const coinJoins = Object.values(c.coinJoins).reduce((a, b) => a + b, 0);
  const kinds = Object.entries(c.coinJoins)
    .filter(([, n]) => n > 0)
    .map(([k, n]) => `${grouped(n)} ${k}`)
    .join(", ");
  let text = `  clusters: ${grouped(c.joined)} transactions joined their input addresses, ${grouped(c.unions)} unions, ${grouped(coinJoins)} CoinJoins left out${kinds ? ` (${kinds})` : ""}, ${grouped(c.conflicts.length)} conflicts\n`;
  for (const conflict of c.conflicts) text += `  conflict: ${conflictText(conflict)}\n`;
  return text;
}

/** The whole plain-text summary of `s`, imported from `file` as `kind`. */
export function summaryText(kind: string, file: string, s: ImportSummary): string {
  const timing = `in ${Math.round(s.durationMs)} ms (reading ${Math.round(s.readingMs)} ms, finishing ${Math.round(s.durationMs - s.readingMs)} ms)`;
  const head = s.dryRun ? "dry run, nothing written: " : "";
  let text = `${head}${kind} ${file}: ${grouped(s.rowsRead)} rows read, ${counters(s)} ${timing}\n`;
  text += skippedLine(s);
  if (s.utxo !== null) {
    const u = s.utxo;
    text += `  ${grouped(u.blocks)} blocks, ${grouped(u.inputs)} inputs, ${grouped(u.outputs)} outputs in the transactions taken; ${grouped(u.outputsWithoutAddress)} outputs pay no address (OP_RETURN, bare multisig, non-standard: kept, address null)\n`;
    text += clusteringText(s);
  }
  for (const problem of s.rejections)
    text += `  rejected ${problem.file}:${problem.line}: ${problem.reason}\n`;
  if (s.rejected > s.rejections.length)
    text += `  (${grouped(s.rejected - s.rejections.length)} more rejected rows not listed)\n`;
  const p = s.preview;
  if (p !== null && (s.dryRun || s.delisted > 0)) {
    const would = s.dryRun ? "would " : "";
    if (s.dryRun && p.added.length > 0) text += addressLine(`${would}add`, p.added, s.added);
    if (s.dryRun && p.updated.length > 0)
      text += addressLine(`${would}change`, p.updated, s.updated - s.relisted);
    if (p.relisted.length > 0) text += addressLine(`${would}relist`, p.relisted, s.relisted);
    if (p.delisted.length > 0) text += addressLine(`${would}delist`, p.delisted, s.delisted);
  }
  if (s.refusal !== null) text += `  a real run would be refused (${s.refusal.code}): ${s.refusal.message}\n`;
  return text;
}
