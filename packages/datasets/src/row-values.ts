/**
 * Field values of imported rows: amounts, times and days, each parsed to a value or to the
 * reason it is not one (no exceptions on the hot path); and the check of free text.
 */
import { MAX_FREE_TEXT_CHARS, textProblem } from "@openkyt/core";

/** A parsed value or why the text is not one. */
export type Parsed<T> =
  | { readonly ok: true; readonly value: T }
  | { readonly ok: false; readonly problem: string };

const ok = <T>(value: T): Parsed<T> => ({ ok: true, value });
const bad = (problem: string): Parsed<never> => ({ ok: false, problem });

const DECIMAL = /^\d+(\.\d*)?([eE][+-]?\d+)?$|^\.\d+([eE][+-]?\d+)?$/;
const INTEGER = /^\d+$/;
const SIGNED_INTEGER = /^-?\d+$/;
const ISO_DAY = /^(\d{4})-(\d{2})-(\d{2})$/;
const ISO_TIME = /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}(:?\d{2})?)$/i;

/** Most digits whose value a double always holds exactly (10^15 < 2^53). */
const EXACT_DIGITS = 15;

/**
 * The value of `text` when it is 1 to {@link EXACT_DIGITS} ASCII digits and nothing else, else
 * -1: the common case of counts and epoch times, read without a regular expression, a trim or
 * `Number`. Other texts go the general way (same values, same problems).
 */
function plainDigits(text: string): number {
  if (text.length === 0 || text.length > EXACT_DIGITS) return -1;
  let value = 0;
  for (let i = 0; i < text.length; i++) {
    const digit = text.charCodeAt(i) - 48;
    if (digit < 0 || digit > 9) return -1;
    value = value * 10 + digit;
  }
  return value;
}

/** True when `text` is digits with at most one `.` and at least one digit: a decimal as DECIMAL reads it. */
function isPlainDecimal(text: string): boolean {
  let digits = 0;
  let dots = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 46) dots++;
    else if (c >= 48 && c <= 57) digits++;
    else return false;
  }
  return digits > 0 && dots <= 1;
}

/** Bitcoin's first block (2009-01-03): an epoch-ms time before it is most likely in seconds. */
export const EARLIEST_CHAIN_TIME = Date.UTC(2009, 0, 3);

/** A non-negative decimal number (`12`, `0.5`, `1e-6`); `name` names the field in the problem. */
export function parseAmount(name: string, text: string | undefined): Parsed<number> {
  if (text === undefined || text === "") return bad(`${name} is missing`);
  let trimmed = text;
  if (!isPlainDecimal(text)) {
    trimmed = text.trim();
    if (!DECIMAL.test(trimmed)) return bad(`${name} "${text}" is not a non-negative number`);
  }
  const value = Number(trimmed);
  return Number.isFinite(value) ? ok(value) : bad(`${name} "${text}" is not a finite number`);
}

/** A non-negative integer. */
export function parseCount(name: string, text: string | undefined): Parsed<number> {
  if (text === undefined || text === "") return bad(`${name} is missing`);
  const plain = plainDigits(text);
  if (plain >= 0) return ok(plain);
  const trimmed = text.trim();
  const value = Number(trimmed);
  return INTEGER.test(trimmed) && Number.isSafeInteger(value)
    ? ok(value)
    : bad(`${name} "${text}" is not a non-negative integer`);
}

/**
 * An integer that may be negative (a ledger row's log index: negative means its position in the
 * block is unknown, docs/risk-model.md, "Order of transfers").
 */
export function parseInteger(name: string, text: string | undefined): Parsed<number> {
  if (text === undefined || text === "") return bad(`${name} is missing`);
  const plain = plainDigits(text);
  if (plain >= 0) return ok(plain);
  const trimmed = text.trim();
  const value = Number(trimmed);
  return SIGNED_INTEGER.test(trimmed) && Number.isSafeInteger(value)
    ? ok(value === 0 ? 0 : value)
    : bad(`${name} "${text}" is not an integer`);
}

/** `raw` token base units (an integer) divided by 10^decimals, exactly in decimal before rounding to a double. */
export function scaleUnits(raw: string, decimals: number): Parsed<number> {
  const digits = raw.trim();
  if (!INTEGER.test(digits)) return bad(`amount "${raw}" is not a whole number of base units`);
  if (!Number.isInteger(decimals) || decimals < 0 || decimals > 36)
    return bad(`decimals ${decimals} out of range`);
  if (decimals === 0) return ok(Number(digits));
  const padded = digits.padStart(decimals + 1, "0");
  return ok(Number(`${padded.slice(0, -decimals)}.${padded.slice(-decimals)}`));
}

/** A UTC day `YYYY-MM-DD` that exists in the calendar. */
export function parseDay(name: string, text: string | undefined): Parsed<string> {
  if (text === undefined || text === "") return bad(`${name} is missing`);
  const day = text.trim();
  const match = ISO_DAY.exec(day);
  if (!match) return bad(`${name} "${text}" is not a date YYYY-MM-DD`);
  const at = Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3]));
  return new Date(at).toISOString().slice(0, 10) === day
    ? ok(day)
    : bad(`${name} "${text}" is not a real date`);
}

/** Midnight UTC of a day `YYYY-MM-DD` (already checked). */
export function dayStart(day: string): number {
  return Date.parse(`${day}T00:00:00Z`);
}

/** The last millisecond of a day `YYYY-MM-DD` (already checked). */
export function dayEnd(day: string): number {
  return dayStart(day) + 86_400_000 - 1;
}

/**
 * A time: epoch milliseconds (digits only), a date `YYYY-MM-DD` (midnight UTC) or an ISO 8601
 * date-time with a zone (`Z` or an offset); a date-time without a zone is refused, since it
 * would be read in the machine's own zone.
 */
export function parseTime(name: string, text: string | undefined): Parsed<number> {
  if (text === undefined || text === "") return bad(`${name} is missing`);
  const plain = plainDigits(text);
  if (plain >= 0)
    return plain < EARLIEST_CHAIN_TIME
      ? bad(`${name} "${text}" is before 2009: expected epoch milliseconds, not seconds`)
      : ok(plain);
  const trimmed = text.trim();
  if (INTEGER.test(trimmed)) {
    const ms = Number(trimmed);
    if (!Number.isSafeInteger(ms)) return bad(`${name} "${text}" is out of range`);
    return ms < EARLIEST_CHAIN_TIME
      ? bad(`${name} "${text}" is before 2009: expected epoch milliseconds, not seconds`)
      : ok(ms);
  }
  if (ISO_DAY.test(trimmed)) {
    const day = parseDay(name, trimmed);
    return day.ok ? ok(dayStart(day.value)) : day;
  }
  if (!ISO_TIME.test(trimmed))
    return bad(`${name} "${text}" is not epoch milliseconds or an ISO 8601 time with a zone`);
  const ms = Date.parse(trimmed.replace(" ", "T"));
  return Number.isFinite(ms) ? ok(ms) : bad(`${name} "${text}" is not a real time`);
}

/** An optional non-negative number: empty means null. */
export function parseOptionalAmount(name: string, text: string | undefined): Parsed<number | null> {
  return text === undefined || text === "" || text.trim() === "" ? ok(null) : parseAmount(name, text);
}

/** An optional non-negative integer: empty means null. */
export function parseOptionalCount(name: string, text: string | undefined): Parsed<number | null> {
  return text === undefined || text === "" || text.trim() === "" ? ok(null) : parseCount(name, text);
}

/**
 * Why a row's free text (names, labels, programs: text copied from the file without a format
 * check) cannot be stored, naming the first field at fault: longer than
 * {@link MAX_FREE_TEXT_CHARS}, a NUL (Postgres text cannot hold it) or an unpaired surrogate (a
 * JSON or YAML escape); null when every value can. Null values are absent fields. The rule of
 * the characters is core's `textProblem`, the one the wire schemas use.
 */
export function freeTextProblem(fields: Readonly<Record<string, string | null>>): string | null {
  for (const name in fields) {
    const value = fields[name];
    if (value === null || value === undefined) continue;
    if (value.length > MAX_FREE_TEXT_CHARS) {
      return `${name} is ${value.length} characters long, longer than the ${MAX_FREE_TEXT_CHARS} allowed`;
    }
    const problem = textProblem(value);
    if (problem !== null) return `${name} ${problem}`;
  }
  return null;
}
