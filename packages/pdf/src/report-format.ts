/**
 * How values read on the page: money, shares, token amounts, UTC times and the names of codes.
 * Pure functions; formats do not depend on the machine's locale or time zone.
 */
import { entityCategoryInfo } from "@openkyt/core";

const usd = new Intl.NumberFormat("en-US", { minimumFractionDigits: 2, maximumFractionDigits: 2 });
const grouped = new Intl.NumberFormat("en-US", { maximumFractionDigits: 0 });

/** Shown where a value is not known. */
export const UNKNOWN = "—";

/** `20,000.00 USD`, or a dash when unknown. */
export function formatUsd(value: number | null | undefined): string {
  return value === null || value === undefined ? UNKNOWN : `${usd.format(value)} USD`;
}

/** A count grouped by thousands: `12,345`. */
export function formatCount(n: number): string {
  return grouped.format(n);
}

/** A change in a count, signed: `+12`, `-3`, `0`. */
export function formatChange(n: number): string {
  return n > 0 ? `+${grouped.format(n)}` : grouped.format(n);
}

/** `30.0%` (one decimal; `<0.1%` for a tiny non-zero share), or a dash when unknown. */
export function formatShare(share: number | null | undefined): string {
  if (share === null || share === undefined) return UNKNOWN;
  if (share > 0 && share < 0.0005) return "<0.1%";
  return `${(share * 100).toFixed(1)}%`;
}

/** Plain decimal digits of a number, however small or large (no exponent notation). */
function plainDigits(n: number): string {
  const text = String(Math.abs(n));
  const match = /^(\d+)(?:\.(\d+))?e([+-]\d+)$/.exec(text);
  if (!match) return text;
  const digits = (match[1] ?? "") + (match[2] ?? "");
  const point = (match[1] ?? "").length + Number(match[3]);
  if (point <= 0) return `0.${"0".repeat(-point)}${digits}`;
  if (point >= digits.length) return digits + "0".repeat(point - digits.length);
  return `${digits.slice(0, point)}.${digits.slice(point)}`;
}

/**
 * A token amount exactly as the number holds it (shortest round-trip digits, integer part
 * grouped by thousands), followed by the symbol when known.
 */
export function formatAmount(amount: number | null | undefined, symbol: string | null): string {
  if (amount === null || amount === undefined) return UNKNOWN;
  const [whole = "0", fraction] = plainDigits(amount).split(".");
  const text = `${amount < 0 ? "-" : ""}${grouped.format(BigInt(whole))}${fraction ? `.${fraction}` : ""}`;
  return symbol ? `${text} ${symbol}` : text;
}

/** `2024-01-02 00:00:00 UTC` from an epoch time in ms. */
export function formatEpoch(ms: number): string {
  const iso = new Date(ms).toISOString();
  return `${iso.slice(0, 10)} ${iso.slice(11, 19)} UTC`;
}

/** A wire timestamp (any offset) as UTC, or a dash when null; an unreadable one as given. */
export function formatTime(wire: string | null | undefined): string {
  if (wire === null || wire === undefined) return UNKNOWN;
  const ms = Date.parse(wire);
  return Number.isNaN(ms) ? wire : formatEpoch(ms);
}

/** Display name of a category code (the code itself when unknown). */
export function categoryName(code: string): string {
  return entityCategoryInfo(code)?.name ?? code;
}

/** Report colour of a category code (grey when unknown). */
export function categoryColor(code: string): string {
  return entityCategoryInfo(code)?.color ?? "#9E9E9E";
}

/** `in_progress` reads as `in progress`. */
export function words(code: string): string {
  return code.replaceAll("_", " ");
}

/** First letter upper case. */
export function capitalised(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
