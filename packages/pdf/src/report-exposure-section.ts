/**
 * The exposure of a transfer (origin of funds for incoming, destination for outgoing): the direct
 * interaction, the indirect categories with share and value, the unexplained remainder, the bar
 * chart, and how the largest contribution was reached.
 */
import {
  type Direction,
  type ExposureResult,
  type TransferExposureResponse,
  UNDEFINED_CATEGORY,
} from "@openkyt/core";
import type { Content, TableCell } from "pdfmake/interfaces";
import { facts, paragraph, ruledTable, section } from "./report-blocks.js";
import { checkLine } from "./report-checks.js";
import { type ChartBar, exposureChart } from "./report-exposure-chart.js";
import {
  type CategoryTrace,
  categoryTraces,
  contributionPaths,
  traceSummary,
} from "./report-exposure-paths.js";
import { categoryName, formatShare, formatUsd } from "./report-format.js";
import { utxoContributionPaths } from "./report-utxo-paths.js";

/** A path recorded coin by coin (a UTXO trace): a value and a txid:vout per address. */
const isUtxoPath = (t: CategoryTrace): boolean =>
  t.path.length > 0 && t.values.length === t.path.length && t.txHashes.length === t.path.length;

/** What the exposure section needs. */
export interface ExposureInput {
  readonly exposure: TransferExposureResponse | null;
  readonly detail: ExposureResult | null;
  readonly direction: Direction;
  /** The transfer's network: a UTXO trace's values are in its coin (BTC, LTC). */
  readonly network?: string;
}

const REMAINDER = "Unexplained remainder";

function titleOf(direction: Direction): string {
  return direction === "incoming" ? "Exposure: origin of funds" : "Exposure: destination of funds";
}

function introOf(direction: Direction): string {
  return direction === "incoming"
    ? "Where the funds of this transfer came from, traced back through the ledger from the sender."
    : "Where the funds of this transfer went, traced forward through the ledger from the recipient.";
}

function direct(d: NonNullable<TransferExposureResponse["direct_interaction"]>): Content[] {
  const name = categoryName(d.entity_category);
  return [
    facts([
      { label: "Direct interaction", value: `${d.entity_name} (${name})` },
      { label: "Value", value: formatUsd(d.value_in_fiat) },
    ]),
    exposureChart([{ category: d.entity_category, share: 1, label: `${name} (direct)` }]),
  ];
}

function indirect(
  parts: NonNullable<TransferExposureResponse["indirect_interaction"]>,
  detail: ExposureResult | null,
) {
  const traces = new Map((detail ? categoryTraces(detail) : []).map((t) => [t.category, t]));
  const ordered = [
    ...parts.filter((p) => p.entity_category !== UNDEFINED_CATEGORY),
    ...parts.filter((p) => p.entity_category === UNDEFINED_CATEGORY),
  ];
  const rows = ordered.map((p): TableCell[] => {
    const isRemainder = p.entity_category === UNDEFINED_CATEGORY;
    const trace = traces.get(p.entity_category);
    return [
      { text: isRemainder ? REMAINDER : categoryName(p.entity_category), italics: isRemainder },
      { text: formatShare(p.value_share), alignment: "right" },
      { text: formatUsd(p.value_in_fiat), alignment: "right" },
      { text: trace ? String(trace.minHops) : "—", alignment: "right" },
      { text: trace?.entityNames.join(", ") || "—" },
    ];
  });
  const bars: ChartBar[] = ordered.map((p) => ({
    category: p.entity_category,
    share: p.value_share,
    ...(p.entity_category === UNDEFINED_CATEGORY ? { label: REMAINDER } : {}),
  }));
  const table = ruledTable(
    [
      { title: "Indirect category", width: 120 },
      { title: "Share", width: 45, right: true },
      { title: "Value", width: 85, right: true },
      { title: "Fewest hops", width: 45, right: true },
      { title: "Entities met", width: "*" },
    ],
    rows,
  );
  return { table, chart: exposureChart(bars) };
}

function explanation(input: ExposureInput): Content[] {
  if (input.detail === null) return [];
  const from = input.direction === "incoming" ? "the sender" : "the recipient";
  const traces = categoryTraces(input.detail);
  const perCoin = input.detail.utxoRule !== undefined || traces.some(isUtxoPath);
  const traced = input.exposure?.direct_interaction
    ? []
    : perCoin
      ? utxoContributionPaths(
          traces.filter(isUtxoPath),
          input.detail.utxoRule ?? null,
          input.network ?? "BTC",
          input.direction === "incoming",
        )
      : contributionPaths(traces, from);
  return [...traced, traceSummary(input.detail)];
}

/** The exposure section of a transfer or a transfer check. */
export function exposureSection(input: ExposureInput): Content[] {
  const { exposure, direction } = input;
  const title = titleOf(direction);
  const lead: Content[] = [paragraph(introOf(direction))];
  if (exposure?.check_status !== undefined) {
    lead.push(checkLine("Exposure check", exposure.check_status, exposure.checked_at ?? null));
  }
  if (exposure === null || (exposure.direct_interaction === null && exposure.indirect_interaction === null)) {
    const done = exposure?.check_status === undefined || exposure.check_status === "checked";
    const why = done ? "the check found no interaction to report." : "the exposure check has not finished.";
    return [section(title, [...lead, paragraph(`No exposure is available: ${why}`)])];
  }
  if (exposure.direct_interaction !== null) {
    return [section(title, [...lead, ...direct(exposure.direct_interaction)]), ...explanation(input)];
  }
  const { table, chart } = indirect(exposure.indirect_interaction ?? [], input.detail);
  return [section(title, [...lead, table]), chart, ...explanation(input)];
}
