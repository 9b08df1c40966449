/**
 * Every file format the importers read, as one table, and recognising a file's format from its
 * first line (the CSV header). Formats are tried in table order, so a more specific header
 * comes before a more general one. Recognition is strict: a file that is none of the formats
 * (binary, prose, a CSV of another kind) is refused (`UNKNOWN_FORMAT`) with its first line
 * quoted, and an address list must look like one (see sanctions-address-list.ts).
 */
import { basename, extname } from "node:path";
import { parse } from "csv-parse/sync";
import { missingColumns } from "./csv-table.js";
import { headText, readHeadBytes } from "./file-text.js";
import { quotedFirstLine } from "./format-first-line.js";
import { type ImportKind, refusal } from "./import-types.js";
import { LEDGER_REQUIRED_COLUMNS, TRONSCAN_COLUMNS } from "./ledger-rows.js";
import { looksLikeAddressList } from "./sanctions-address-list.js";

/** One format: its kind, id (what `format` names) and the header columns it requires. */
export interface FormatInfo {
  readonly kind: ImportKind;
  readonly id: string;
  readonly description: string;
  /** Required header columns (`a|b` either, `name*` a prefix); null for a file without a CSV header. */
  readonly columns: ReadonlyArray<string> | null;
}

const format = (kind: ImportKind, id: string, description: string, columns: string[] | null): FormatInfo =>
  Object.freeze({ kind, id, description, columns: columns && Object.freeze(columns) });

/** Every format, in detection order. */
export const FORMATS: ReadonlyArray<FormatInfo> = Object.freeze([
  format("sanctions", "ofac-csv", "OFAC SDN derived CSV", ["address", "asset", "sdn_entity", "sdn_programs"]),
  format("sanctions", "ofac-history", "OFAC address snapshot history CSV", [
    "address",
    "first_seen",
    "last_seen",
    "in_latest_snapshot*",
  ]),
  format("sanctions", "address-list", "one address per line, # comments; every line one token", null),
  format("labels", "eth-labels", "dawsbot/eth-labels CSV", ["chain", "address", "label", "name_tag"]),
  format("labels", "tagpack-csv", "GraphSense TagPack flat CSV", [
    "address",
    "currency",
    "label",
    "category",
    "abuse",
  ]),
  format("labels", "tagpack-yaml", "GraphSense TagPack YAML", null),
  format("labels", "csv", "generic labels CSV", ["network", "address", "entity_name", "entity_category"]),
  format("ledger", "csv", "ledger CSV", [...LEDGER_REQUIRED_COLUMNS]),
  format("ledger", "jsonl", "ledger JSON lines", null),
  format("ledger", "bitcoin-core", "Bitcoin Core getblock <hash> 3 answers, one JSON object a line", null),
  format("ledger", "esplora", "Esplora transaction objects, one JSON object a line", null),
  format("ledger", "bitcoin-blocks", "Bitcoin Core blk*.dat (or one raw block) with its undo data", null),
  format("ledger", "tronscan-trc20", "Tronscan-style TRC-20 transfer export", [...TRONSCAN_COLUMNS]),
  format("tokens", "ethereum-lists", "ethereum-lists/tokens derived CSV", [
    "chain",
    "address",
    "symbol",
    "decimals",
  ]),
  format("tokens", "trustwallet-trc20", "trustwallet TRC-20 tokens CSV", ["address", "symbol", "decimals"]),
  format("tokens", "csv", "generic tokens CSV", ["network", "token_id", "symbol", "decimals"]),
  format("prices", "csv", "generic daily prices CSV", ["network", "token_id", "date", "usd"]),
  format("prices", "yahoo", "Yahoo-style daily prices (Date,Close or Date,Adj_Close)", [
    "date",
    "adj_close|close",
  ]),
]);

/** The format `id` of `kind`, or undefined. */
export function formatOf(kind: ImportKind, id: string): FormatInfo | undefined {
  return FORMATS.find((f) => f.kind === kind && f.id === id);
}

/** The columns `kind`/`id` requires (none for headerless formats). */
export function requiredColumns(kind: ImportKind, id: string): ReadonlyArray<string> {
  return formatOf(kind, id)?.columns ?? [];
}

/** The header names of a CSV line (trimmed, lower-cased), or null when it is not one. */
function headerOf(line: string): string[] | null {
  try {
    const [row] = parse(line, { relax_column_count: true, relax_quotes: true }) as string[][];
    return row ? row.map((name) => name.trim().toLowerCase()) : null;
  } catch {
    return null;
  }
}

/** True when `head` is not text: it holds NUL bytes, or its first line bytes that are not UTF-8. */
function isBinary(head: string): boolean {
  const first = head.trimStart().split("\n", 1)[0] ?? "";
  return head.includes("\u0000") || first.includes("\uFFFD");
}

/**
 * The format of a file from its first bytes and name, among `kind`'s formats (all kinds when
 * omitted); null when none fits. `cut`: the head ends inside the file (its last line may be
 * incomplete).
 */
export function detectFormatOfHead(
  head: string,
  fileName: string,
  kind?: ImportKind,
  cut = false,
): FormatInfo | null {
  const candidates = FORMATS.filter((f) => kind === undefined || f.kind === kind);
  // Binary: a Bitcoin Core block file (blkNNNNN.dat) or one raw block (NAME.raw).
  if (isBinary(head))
    return /^blk\d+\.dat$|\.raw$/i.test(fileName)
      ? (candidates.find((f) => f.kind === "ledger" && f.id === "bitcoin-blocks") ?? null)
      : null;
  const lines = head.split("\n").map((l) => l.trim());
  const first = lines.find((l) => l !== "") ?? "";
  const extension = extname(fileName).toLowerCase();
  if (extension === ".yaml" || extension === ".yml" || /^tags:/m.test(head))
    return candidates.find((f) => f.id === "tagpack-yaml") ?? null;
  // A UTXO ledger's JSON lines: a getblock 3 answer (its transactions under "tx", each with
  // "vin"), or an Esplora transaction ("vin" entries with "is_coinbase"). A block's line is long:
  // only its start is in the head.
  if (first.startsWith("{")) {
    const utxo =
      /"tx"\s*:\s*\[\s*\{/.test(first) && /"vin"\s*:/.test(first)
        ? "bitcoin-core"
        : /"vin"\s*:\s*\[/.test(first) && /"is_coinbase"\s*:/.test(first)
          ? "esplora"
          : null;
    if (utxo !== null) return candidates.find((f) => f.kind === "ledger" && f.id === utxo) ?? null;
  }
  // JSON lines: an object on each line (a pretty-printed JSON document starts with a lone "{").
  if (first.startsWith("{") && first.endsWith("}"))
    return candidates.find((f) => f.kind === "ledger" && f.id === "jsonl") ?? null;
  const header = headerOf(first);
  if (header !== null && header.length > 1) {
    const match = candidates.find(
      (f) => f.columns !== null && missingColumns(header, f.columns).length === 0,
    );
    if (match) return match;
  }
  return looksLikeAddressList(head, cut) ? (candidates.find((f) => f.id === "address-list") ?? null) : null;
}

/** `format (description: columns)` for an error message. */
function describeFormat(f: FormatInfo): string {
  const columns = f.columns === null ? "" : `: columns ${f.columns.join(", ")}`;
  return `${f.id} (${f.description}${columns})`;
}

/** The refusal of a file that is none of `kind`'s formats: its first line quoted, what was expected. */
function unknownFormat(file: string, bytes: Buffer, cut: boolean, kind?: ImportKind): Error {
  const expected = FORMATS.filter((f) => kind === undefined || f.kind === kind)
    .map((f) => (kind === undefined ? `${f.kind}/${describeFormat(f)}` : describeFormat(f)))
    .join("; ");
  const other =
    kind === undefined ? null : detectFormatOfHead(headText(bytes), basename(file), undefined, cut);
  const hint =
    other === null
      ? ""
      : ` It looks like a ${other.kind} file (${other.id}): try openkyt import ${other.kind}.`;
  const what = kind === undefined ? "an importable" : `a ${kind}`;
  return refusal(
    "UNKNOWN_FORMAT",
    file,
    `not ${what} file of a known format; its first line is ${quotedFirstLine(bytes)}.${hint} Expected: ${expected}`,
  );
}

/**
 * The format of `file`, recognised from its first line (and its name for YAML), among `kind`'s
 * formats; a file that fits none is refused (`UNKNOWN_FORMAT`, see `refusalOf`) with its first
 * line quoted and the formats expected.
 */
export async function detectFormat(file: string, kind?: ImportKind): Promise<FormatInfo> {
  const { bytes, cut } = await readHeadBytes(file);
  const found = detectFormatOfHead(headText(bytes), basename(file), kind, cut);
  if (found) return found;
  throw unknownFormat(file, bytes, cut, kind);
}

/**
 * Checks that `file` can be of `format`, named by the caller rather than recognised: a file that
 * is not text, or is named an address list without looking like one, is refused as by
 * {@link detectFormat}. (A CSV format's columns are checked when its header is read.)
 */
export async function checkFormatFits(file: string, format: FormatInfo): Promise<void> {
  const { bytes, cut } = await readHeadBytes(file);
  const head = headText(bytes);
  // Block files are binary: their records are checked as they are read.
  if (format.id === "bitcoin-blocks") return;
  const fits = format.id === "address-list" ? looksLikeAddressList(head, cut) : !isBinary(head);
  if (!fits) throw unknownFormat(file, bytes, cut, format.kind);
}
