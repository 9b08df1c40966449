/**
 * The strongest paths of a UTXO trace (Bitcoin, Litecoin), laid out per coin: each hop is an
 * output, shown by its address, its full `txid:vout` and its value in the coin with 8
 * decimals, under a sentence naming the taint rule the trace used (haircut or FIFO,
 * docs/risk-model.md, "Bitcoin"). Account-model paths keep report-exposure-paths' layout.
 */
import type { UtxoTaintRule } from "@openkyt/core";
import type { Content, TableCell } from "pdfmake/interfaces";
import { paragraph, ruledTable, tokenText } from "./report-blocks.js";
import { categoryName, formatShare, formatUsd } from "./report-format.js";
import { CONTENT_WIDTH } from "./report-styles.js";

/** A category's strongest path as a UTXO trace records it: one coin per hop. */
export interface UtxoPathTrace {
  readonly category: string;
  readonly share: number;
  readonly valueInFiat: number | null;
  readonly minHops: number;
  readonly entityNames: ReadonlyArray<string>;
  readonly path: ReadonlyArray<string>;
  /** `txid:vout` of each coin of `path`. */
  readonly txHashes: ReadonlyArray<string>;
  /** Value of each coin of `path`, in satoshis. */
  readonly values: ReadonlyArray<number>;
  /** Hop of the path's first coin (0: the transfer's own output; 1: the counterparty's coin). */
  readonly startHop: number;
}

/** Paths of at most this many coins are kept on one page with their sentence. */
const KEEP_TOGETHER = 12;

/** Satoshis per coin (BTC, LTC). */
const SATS_PER_COIN = 100_000_000;

/** Widths of the hop and value columns; the coin column takes the rest. */
const HOP_WIDTH = 26;
const VALUE_WIDTH = 82;
const COIN_WIDTH = CONTENT_WIDTH - HOP_WIDTH - VALUE_WIDTH - 24;

/** `12.34567890` from 1,234,567,890 satoshis: integer arithmetic, always 8 decimals. */
export function formatSats(sats: number): string {
  const whole = Math.trunc(sats / SATS_PER_COIN);
  const rest = sats - whole * SATS_PER_COIN;
  return `${whole.toLocaleString("en-US")}.${String(rest).padStart(8, "0")}`;
}

/** The sentence that names the rule, for a reader who has not read the risk model. */
export function ruleSentence(rule: UtxoTaintRule | null): Content {
  if (rule === "fifo") {
    return paragraph([
      "Traced through the exact coins each transaction spent, by the ",
      { text: "FIFO rule", bold: true },
      ": a transaction's inputs and outputs are laid end to end in their order, and each output " +
        "takes its value from the inputs its range overlaps (Anderson et al. 2018).",
    ]);
  }
  return paragraph([
    "Traced through the exact coins each transaction spent, by the ",
    { text: rule === "haircut" ? "haircut rule" : "haircut rule (the default)", bold: true },
    ": every output of a transaction carries the composition of all its inputs, pro rata to their values.",
  ]);
}

/** Role of the coin at hop `hop` of a path ending at `last`. */
function roleOf(hop: number, isLast: boolean, incoming: boolean, category: string): string {
  if (isLast) return categoryName(category);
  if (hop === 0) return "This transfer's output";
  if (hop === 1) return incoming ? "Spent by this transfer (sender)" : "Recipient's coin";
  return incoming ? "Earlier coin" : "Later coin";
}

/** One category's path: a sentence, then a row per coin. */
function pathTable(t: UtxoPathTrace, symbol: string, incoming: boolean): Content[] {
  const names = t.entityNames.length > 0 ? ` (${t.entityNames.join(", ")})` : "";
  const lead = paragraph([
    { text: `${categoryName(t.category)}${names}`, bold: true },
    `: ${formatShare(t.share)} of the value (${formatUsd(t.valueInFiat)}), first met at hop ${t.minHops}. ` +
      "Its largest path, coin by coin:",
  ]);
  const last = t.path.length - 1;
  const rows = t.path.map((address, n): TableCell[] => {
    const hop = t.startHop + n;
    const value = t.values[n];
    return [
      { text: String(hop), alignment: "right" },
      {
        stack: [
          { text: roleOf(hop, n === last, incoming, t.category), style: "small" },
          tokenText(address, COIN_WIDTH, 7.5),
          tokenText(t.txHashes[n] ?? "", COIN_WIDTH, 6.5),
        ],
      },
      {
        text: value === undefined ? "—" : `${formatSats(value)} ${symbol}`,
        alignment: "right",
        style: "token",
        fontSize: 7.5,
      },
    ];
  });
  const table = ruledTable(
    [
      { title: "Hop", width: HOP_WIDTH, right: true },
      { title: "Coin: address, then txid:vout", width: "*" },
      { title: `Value (${symbol})`, width: VALUE_WIDTH, right: true },
    ],
    rows,
  );
  // A short path stays on one page with its sentence; a long one may break between rows.
  const block: Content = { stack: [lead, table], margin: [0, 6, 0, 0] };
  return [t.path.length <= KEEP_TOGETHER ? { ...block, unbreakable: true } : block];
}

/**
 * The rule sentence, then every category's largest path coin by coin, largest share first.
 * `symbol` is the network's coin (BTC, LTC).
 */
export function utxoContributionPaths(
  traces: ReadonlyArray<UtxoPathTrace>,
  rule: UtxoTaintRule | null,
  symbol: string,
  incoming: boolean,
): Content[] {
  if (traces.length === 0)
    return [ruleSentence(rule), paragraph("No identified entity was met by the trace.")];
  return [ruleSentence(rule), ...traces.flatMap((t) => pathTable(t, symbol, incoming))];
}
