/**
 * Date filters of the list endpoints. A date-only `YYYY-MM-DD` covers the whole UTC day, both
 * ends inclusive: as a lower bound it is 00:00:00.000, as an upper bound 23:59:59.999. A full
 * ISO 8601 datetime must carry `Z` or an offset and is taken as that instant (a `+` that a
 * query string decoded to a space is read back as `+`). Results are epoch milliseconds.
 */

/** Which end of a range a value bounds. */
export type DateBound = "from" | "to";

/** A parsed bound, or why the text is not one. */
export type DateBoundResult =
  | { readonly ok: true; readonly ms: number }
  | { readonly ok: false; readonly problem: string };

const DATE_ONLY = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATE_TIME =
  /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d{1,9}))?)?(?:([Zz])|([+\- ])(\d{2}):?(\d{2}))$/;
const DAY_MS = 86_400_000;
const EXPECTED = "expected a date YYYY-MM-DD or an ISO 8601 datetime with Z or an offset";

function utcDay(year: number, month: number, day: number): number | null {
  const ms = Date.UTC(year, month - 1, day);
  const d = new Date(ms);
  const valid = d.getUTCFullYear() === year && d.getUTCMonth() === month - 1 && d.getUTCDate() === day;
  return valid && year >= 1970 ? ms : null;
}

/** Parses one date filter value as the `from` or `to` end of a range. */
export function parseDateBound(text: string, bound: DateBound): DateBoundResult {
  const value = text.trim();
  const dateOnly = DATE_ONLY.exec(value);
  if (dateOnly) {
    const day = utcDay(Number(dateOnly[1]), Number(dateOnly[2]), Number(dateOnly[3]));
    if (day === null) return { ok: false, problem: `not a valid date: ${value}` };
    return { ok: true, ms: bound === "from" ? day : day + DAY_MS - 1 };
  }
  const m = DATE_TIME.exec(value);
  if (!m) {
    const naive = /^\d{4}-\d{2}-\d{2}[Tt]\d{2}:\d{2}(:\d{2}(\.\d+)?)?$/.test(value);
    return { ok: false, problem: naive ? "a datetime needs Z or a UTC offset (e.g. +00:00)" : EXPECTED };
  }
  const day = utcDay(Number(m[1]), Number(m[2]), Number(m[3]));
  const [hour, minute, second] = [Number(m[4]), Number(m[5]), Number(m[6] ?? 0)];
  const [offsetHours, offsetMinutes] = [Number(m[10] ?? 0), Number(m[11] ?? 0)];
  if (day === null || hour > 23 || minute > 59 || second > 59 || offsetHours > 23 || offsetMinutes > 59) {
    return { ok: false, problem: `not a valid datetime: ${value}` };
  }
  const millis = Number((m[7] ?? "").padEnd(3, "0").slice(0, 3));
  const sign = m[9] === "-" ? -1 : 1;
  const offset = m[8] ? 0 : sign * (offsetHours * 60 + offsetMinutes) * 60_000;
  return { ok: true, ms: day + ((hour * 60 + minute) * 60 + second) * 1000 + millis - offset };
}
