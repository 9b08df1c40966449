/**
 * What the traced exposure explains: per category, the fewest hops, the entities met and the
 * path of its largest contribution with the transfers it went through; and the sentences that
 * tell the reader how far the trace went.
 */
import { type ExposureResult, UNDEFINED_CATEGORY } from "@openkyt/core";
import type { Content, TableCell } from "pdfmake/interfaces";
import { paragraph, ruledTable, tokenRuns } from "./report-blocks.js";
import { categoryName, formatShare, formatUsd } from "./report-format.js";
import { CONTENT_WIDTH } from "./report-styles.js";

/** The trace of one category, merged over its direct and indirect parts. */
export interface CategoryTrace {
  readonly category: string;
  readonly share: number;
  readonly valueInFiat: number | null;
  readonly minHops: number;
  readonly entityNames: ReadonlyArray<string>;
  /** Path of the largest single contribution, start address first. */
  readonly path: ReadonlyArray<string>;
  /** Hashes of the transfers along `path`, one per hop (empty on results stored without them). */
  readonly txHashes: ReadonlyArray<string>;
  /** UTXO traces: the value of each coin of `path`, in satoshis (empty otherwise). */
  readonly values: ReadonlyArray<number>;
  /** UTXO traces: the hop of the path's first coin (account-model paths start at hop 1). */
  readonly startHop: number;
}

/** Explained categories of a trace, largest share first (the unexplained remainder left out). */
export function categoryTraces(detail: ExposureResult): CategoryTrace[] {
  const merged = new Map<string, CategoryTrace & { readonly top: number }>();
  for (const s of detail.shares) {
    if (s.category === UNDEFINED_CATEGORY) continue;
    const prev = merged.get(s.category);
    const value = prev === undefined ? s.valueInFiat : sumOrNull(prev.valueInFiat, s.valueInFiat);
    const larger = prev === undefined || s.share > prev.top;
    merged.set(s.category, {
      category: s.category,
      share: (prev?.share ?? 0) + s.share,
      valueInFiat: value,
      minHops: Math.min(prev?.minHops ?? Number.POSITIVE_INFINITY, s.minHops),
      entityNames: [...new Set([...(prev?.entityNames ?? []), ...s.entityNames])],
      path: larger ? s.path : (prev?.path ?? []),
      txHashes: larger ? (s.pathTxHashes ?? []) : (prev?.txHashes ?? []),
      values: larger ? (s.pathValues ?? []) : (prev?.values ?? []),
      startHop: larger ? (s.pathStartHop ?? 1) : (prev?.startHop ?? 1),
      top: larger ? s.share : (prev?.top ?? 0),
    });
  }
  return [...merged.values()]
    .map(({ top: _top, ...trace }) => trace)
    .sort((a, b) => b.share - a.share || a.category.localeCompare(b.category));
}

function sumOrNull(a: number | null, b: number | null): number | null {
  return a === null || b === null ? null : a + b;
}

const hops = (n: number) => (n === 1 ? "1 hop" : `${n} hops`);

/** Width of the path column: the page less the category, entities and hops columns and paddings. */
const PATH_WIDTH = CONTENT_WIDTH - 90 - 80 - 34 - 24;

/** Separates the addresses of a path. */
const STEP = "  ›  ";

/** "How far the trace went": truncation said plainly, else the edges read and the depth. */
export function traceSummary(detail: ExposureResult): Content {
  if (detail.truncated) {
    return paragraph([
      { text: "Trace truncated: ", bold: true },
      `the edge budget ran out after ${detail.edgesRead} edges (deepest hop reached: ${detail.hops}). ` +
        "What was not traced counts in the unexplained remainder, so the explained shares are a lower bound.",
    ]);
  }
  if (detail.direct !== null && detail.edgesRead === 0) {
    return paragraph("The counterparty itself is attributed to an entity: no tracing was needed.");
  }
  return paragraph(`Trace complete: ${detail.edgesRead} edges read, deepest hop reached ${detail.hops}.`);
}

/** The lead sentence about the largest contribution and the table of every category's path. */
export function contributionPaths(traces: ReadonlyArray<CategoryTrace>, from: string): Content[] {
  const top = traces[0];
  if (top === undefined) return [paragraph("No identified entity was met by the trace.")];
  const names = top.entityNames.length > 0 ? ` (${top.entityNames.join(", ")})` : "";
  const lead = paragraph([
    "The largest explained contribution is ",
    { text: `${categoryName(top.category)}${names}`, bold: true },
    `: ${formatShare(top.share)} of the value (${formatUsd(top.valueInFiat)}), first met ${hops(top.minHops)} ` +
      `from ${from}. Its largest path: `,
    { text: tokenRuns(top.path, STEP, CONTENT_WIDTH, 8.5), style: "token" },
    ...(top.txHashes.length > 0
      ? [
          ", through the transfers ",
          { text: tokenRuns(top.txHashes, STEP, CONTENT_WIDTH, 8.5), style: "token" },
        ]
      : []),
    ". The largest path of each category:",
  ]);
  const rows = traces.map((t): TableCell[] => [
    { text: categoryName(t.category) },
    { text: t.entityNames.join(", ") || "—" },
    { text: String(t.minHops), alignment: "right" },
    t.path.length === 0 ? { text: "—" } : pathCell(t),
  ]);
  return [
    lead,
    ruledTable(
      [
        { title: "Category", width: 90 },
        { title: "Entities met", width: 80 },
        { title: "Hops", width: 34, right: true },
        { title: "Path (start address first; then its transfers)", width: "*" },
      ],
      rows,
    ),
  ];
}

/** A category's path, and below it the hashes of its transfers when the result has them. */
function pathCell(t: CategoryTrace): TableCell {
  const path = tokenRuns(t.path, STEP, PATH_WIDTH, 7.5);
  if (t.txHashes.length === 0) return { text: path, style: "token", fontSize: 7.5 };
  return {
    stack: [
      { text: path, style: "token", fontSize: 7.5 },
      { text: ["tx: ", ...tokenRuns(t.txHashes, STEP, PATH_WIDTH, 6.5)], style: "token", fontSize: 6.5 },
    ],
  };
}
