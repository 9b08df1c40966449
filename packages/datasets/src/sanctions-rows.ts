/**
 * Rows of the sanctions formats decoded into {@link SanctionsRow}s: the OFAC-derived CSV, the
 * snapshot history CSV and plain address lists (per asset, or all chains).
 */
import { checkAddress } from "@openkyt/core";
import { type ColumnIndex, columnIndex, fieldAt } from "./csv-table.js";
import type { RowResult } from "./import-rows.js";
import { inferNetwork, networkOfAsset } from "./network-mappings.js";
import { dayEnd, dayStart, freeTextProblem, parseDay } from "./row-values.js";
import { isAddressShaped } from "./sanctions-address-list.js";

/** One sanctioned address as a row of a sanctions file. */
export interface SanctionsRow {
  readonly network: string;
  /** Normalised. */
  readonly address: string;
  /** True when the network came from the address's format alone (no asset given). */
  readonly inferred: boolean;
  readonly program: string | null;
  readonly entity: string | null;
  /** History rows: their own period (snapshot rows take the snapshot's date). */
  readonly period: { readonly listedAt: number; readonly delistedAt: number | null } | null;
  /** The designation date the source gives (start of its day, UTC); null when it gives none. */
  readonly designatedAt: number | null;
}

/** What a sanctions decoder reports beside its rows. */
export interface SanctionsContext {
  warn(line: number, reason: string): void;
  /** Every address text met (lower-cased), accepted or not: none of them is delisted. */
  readonly present: Set<string>;
  /**
   * Address texts (lower-cased) skipped as shaped like an address of no supported network: an
   * address cut short by a truncated file reads as one, so a snapshot that would delist an address
   * beginning with one of them is not complete.
   */
  readonly unplaced: Set<string>;
}

/** Null for an empty text. */
function textOrNull(text: string | undefined): string | null {
  const trimmed = text?.trim() ?? "";
  return trimmed === "" ? null : trimmed;
}

/**
 * The network and normal form of an address listed under `network`. An address whose format is
 * another supported network's (OFAC lists one Tron address under XBT) is taken on that network
 * with a warning, since leaving a sanctioned address out is the worse mistake.
 */
function placeAddress(
  network: string,
  raw: string,
  line: number,
  label: string,
  ctx: SanctionsContext,
): RowResult<{ network: string; address: string }> {
  const check = checkAddress(network, raw);
  if (check.ok) return { value: { network, address: check.value } };
  const inferred = inferNetwork(raw);
  if (inferred === null) return { reject: `address "${raw}" (${label}): ${check.problem}` };
  ctx.warn(
    line,
    `address "${raw}" is listed under ${label} but is a ${inferred.network} address: taken on ${inferred.network}`,
  );
  return { value: inferred };
}

/** An address row whose network comes from an asset code (or the address format when none). */
function assetRow(
  raw: string,
  asset: string | null,
  line: number,
  ctx: SanctionsContext,
): RowResult<Omit<SanctionsRow, "program" | "entity" | "period" | "designatedAt">> {
  if (raw === "") return { reject: "address is missing" };
  ctx.present.add(raw.toLowerCase());
  if (asset === null) {
    const inferred = inferNetwork(raw);
    if (inferred) return { value: { ...inferred, inferred: true } };
    ctx.unplaced.add(raw.toLowerCase());
    return { skip: "address of no supported network" };
  }
  const mapped = networkOfAsset(asset, raw);
  if ("skip" in mapped) {
    if (mapped.skip.endsWith("address of no supported network")) ctx.unplaced.add(raw.toLowerCase());
    return mapped;
  }
  const placed = placeAddress(mapped.network, raw, line, `asset ${asset.toUpperCase()}`, ctx);
  return "value" in placed ? { value: { ...placed.value, inferred: false } } : placed;
}

const OFAC_COLUMNS = ["address", "asset", "sdn_entity", "sdn_programs", "designated_at"] as const;

/** Header names read as the optional designation date column of the OFAC CSV. */
const DESIGNATION_COLUMNS: ReadonlyArray<string> = ["designated_at", "designation_date", "designated"];

/** The designation date of a row: null when the file has no such column or the field is blank. */
function designationOf(text: string | undefined): RowResult<number | null> {
  if (text === undefined || text.trim() === "") return { value: null };
  const day = parseDay("designated_at", text.trim().slice(0, 10));
  return day.ok ? { value: dayStart(day.value) } : { reject: day.problem };
}

/**
 * Decoder of the OFAC-derived CSV (`address,address_lower,asset,sdn_entity,sdn_programs,...`),
 * with an optional designation date column (`designated_at`, `designation_date` or
 * `designated`, YYYY-MM-DD); the shipped OFAC extracts have none.
 */
export function ofacCsvDecoder(header: ReadonlyArray<string>, ctx: SanctionsContext) {
  const named = header.map((name) => (DESIGNATION_COLUMNS.includes(name) ? "designated_at" : name));
  const at: ColumnIndex<(typeof OFAC_COLUMNS)[number]> = columnIndex(named, OFAC_COLUMNS);
  return (fields: ReadonlyArray<string>, line: number): RowResult<SanctionsRow> => {
    const raw = fieldAt(fields, at.address)?.trim() ?? "";
    const asset = textOrNull(fieldAt(fields, at.asset));
    if (asset === null) return { reject: "asset is missing" };
    const placed = assetRow(raw, asset, line, ctx);
    if (!("value" in placed)) return placed;
    const designated = designationOf(fieldAt(fields, at.designated_at));
    if (!("value" in designated)) return designated;
    const program = textOrNull(fieldAt(fields, at.sdn_programs));
    const entity = textOrNull(fieldAt(fields, at.sdn_entity));
    const unstorable = freeTextProblem({ sdn_entity: entity, sdn_programs: program });
    if (unstorable !== null) return { reject: unstorable };
    return { value: { ...placed.value, program, entity, period: null, designatedAt: designated.value } };
  };
}

/**
 * Decoder of one line of an address list; `asset` is the list's asset (null: every chain). A line
 * not shaped like an address is rejected (see sanctions-address-list.ts).
 */
export function addressListDecoder(asset: string | null, ctx: SanctionsContext) {
  return (text: string, line: number): RowResult<SanctionsRow> => {
    const raw = text.trim();
    if (!isAddressShaped(raw)) return { reject: `"${raw.slice(0, 60)}" is not shaped like an address` };
    const placed = assetRow(raw, asset, line, ctx);
    return "value" in placed
      ? { value: { ...placed.value, program: null, entity: null, period: null, designatedAt: null } }
      : placed;
  };
}

const HISTORY_COLUMNS = ["address", "asset_0xb10c", "first_seen", "last_seen", "in_latest"] as const;

/**
 * Decoder of the snapshot history CSV (`address,asset_0xB10C,first_seen,last_seen,
 * in_latest_snapshot_<date>,...`): listed from the start of first_seen; an address no longer in
 * the latest snapshot is delisted at the end of last_seen, the last day it was seen listed.
 */
export function historyDecoder(header: ReadonlyArray<string>, ctx: SanctionsContext) {
  const named = header.map((name) => (name.startsWith("in_latest_snapshot") ? "in_latest" : name));
  const at: ColumnIndex<(typeof HISTORY_COLUMNS)[number]> = columnIndex(named, HISTORY_COLUMNS);
  return (fields: ReadonlyArray<string>, line: number): RowResult<SanctionsRow> => {
    const raw = fieldAt(fields, at.address)?.trim() ?? "";
    const placed = assetRow(raw, textOrNull(fieldAt(fields, at.asset_0xb10c)), line, ctx);
    if (!("value" in placed)) return placed;
    const first = parseDay("first_seen", fieldAt(fields, at.first_seen));
    if (!first.ok) return { reject: first.problem };
    const latest = fieldAt(fields, at.in_latest)?.trim().toLowerCase();
    if (latest !== "yes" && latest !== "no")
      return { reject: `in_latest_snapshot "${latest ?? ""}" is not yes or no` };
    let delistedAt: number | null = null;
    if (latest === "no") {
      const last = parseDay("last_seen", fieldAt(fields, at.last_seen));
      if (!last.ok) return { reject: last.problem };
      if (last.value < first.value) return { reject: "last_seen is before first_seen" };
      delistedAt = dayEnd(last.value);
    }
    const period = { listedAt: dayStart(first.value), delistedAt };
    return { value: { ...placed.value, program: null, entity: null, period, designatedAt: null } };
  };
}

/** The asset of a per-asset list file name such as `sanctioned_addresses_XBT.txt`, or null. */
export function assetOfFileName(fileName: string): string | null {
  const match = /^sanctioned_addresses_([A-Za-z0-9]+)\.txt$/i.exec(fileName);
  return match?.[1]?.toUpperCase() ?? null;
}
