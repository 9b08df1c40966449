/**
 * Where a hub's read starts: ClickHouse 18.16 cannot read a key range in order and stop after
 * `n` rows, so a top-n of an address with millions of rows scans its whole history. The day
 * tables of migration 4 (rows per hop key and day) tell which days hold the rows a read needs:
 * the read then asks for those days only (`occurred_at >= from` before an incoming bound, `<
 * to` after an outgoing one), which the primary key `(hop_key, occurred_at, ...)` turns into the
 * granules of those days. Counts per day over-count (duplicates, shared hashes, the part of the
 * bound's own day past the bound), so a window may hold fewer rows than planned: the caller then
 * plans again from an earlier day, and a window that reaches the first day is no window at all
 * (every row), so an answer never depends on the day tables being right.
 */
import type { ChClient } from "./ch-client.js";
import { sqlInt, sqlString, sqlStringList } from "./ch-escape.js";
import { DAY_MILLIS, dayOf } from "./ch-schema.js";

/** A hop's direction: incoming (rows before a bound, latest first) or outgoing. */
export type Direction = "in" | "out";

/** Rows of one hop key on one day (by the day table: at least the rows stored). */
export interface DayRows {
  readonly day: number;
  readonly rows: number;
}

/**
 * The window of one address's read, as a time bound on the far side from `bound`: for "in",
 * the earliest time `from` such that the days from the bound's back to `from`'s hold at least
 * `need` rows by `days`, and `from` is before `notAfter` (a window found short before); for
 * "out", the mirror image (an exclusive end). Null when the days never reach `need`: every row
 * past the bound is read.
 */
export function planWindow(
  days: ReadonlyArray<DayRows>,
  direction: Direction,
  bound: number,
  need: number,
  previous: number | null = null,
): number | null {
  let sum = 0;
  if (direction === "in") {
    const last = dayOf(bound - 1);
    const sorted = days.filter((d) => d.day <= last).sort((a, b) => b.day - a.day);
    for (const d of sorted) {
      // Of the bound's own day, the share before the bound (an estimate: a short window widens).
      sum += d.day === last ? (d.rows * (bound - d.day * DAY_MILLIS)) / DAY_MILLIS : d.rows;
      const from = d.day * DAY_MILLIS;
      if (sum >= need && (previous === null || from < previous)) return from;
    }
    return null;
  }
  const first = dayOf(bound + 1);
  const sorted = days.filter((d) => d.day >= first).sort((a, b) => a.day - b.day);
  for (const d of sorted) {
    sum += d.day === first ? (d.rows * ((d.day + 1) * DAY_MILLIS - bound - 1)) / DAY_MILLIS : d.rows;
    const to = (d.day + 1) * DAY_MILLIS;
    if (sum >= need && (previous === null || to > previous)) return to;
  }
  return null;
}

/** The SQL condition of a window on `occurred_at` (empty when there is none). */
export function windowCondition(direction: Direction, window: number | null): string {
  if (window === null) return "";
  return ` AND occurred_at ${direction === "in" ? ">=" : "<"} ${sqlInt(window)}`;
}

/**
 * The hot addresses of a frontier (more than `hotRows` rows by the day table), each with its
 * rows per day; the others are not in the map. One query on the day table: the hop tables
 * are then read with the cold addresses' keys as literals (18.16 narrows a read to key ranges
 * by literals only: a key set from a subquery filters every row of the listed keys, a hub's
 * history included). An address whose hash another frontier address shares gets no days (it
 * is then read whole: exact, not bounded).
 */
export async function hotDays(
  client: ChClient,
  db: string,
  direction: Direction,
  network: string,
  tokenId: string,
  addresses: ReadonlyArray<string>,
  hotRows: number,
): Promise<Map<string, ReadonlyArray<DayRows>>> {
  const out = new Map<string, ReadonlyArray<DayRows>>();
  if (addresses.length === 0) return out;
  const list = sqlStringList(addresses);
  const keys = addresses
    .map((a) => `cityHash64(${sqlString(network)}, ${sqlString(tokenId)}, ${sqlString(a)})`)
    .join(", ");
  // Rows per key are the sum of its days: addresses sharing a hash only over-count (the exact
  // top-n path). One read of the day table, whose small granules keep it to the frontier's keys.
  const rows = await client.rows<{ address: string; days: number[]; rows: Array<number | string> }>(
    `SELECT transform(hop_key, [${keys}], [${list}], '') AS address, groupArray(day) AS days, groupArray(n) AS rows
     FROM (SELECT hop_key, day, sum(rows) AS n FROM ${db}.ledger_hop_${direction}_days
       WHERE hop_key IN (${keys}) GROUP BY hop_key, day)
     GROUP BY hop_key HAVING sum(n) > ${sqlInt(hotRows)}`,
  );
  for (const r of rows) {
    if (r.address === "") continue;
    out.set(
      r.address,
      r.days.map((day, i) => ({ day: Number(day), rows: Number(r.rows[i]) })),
    );
  }
  return out;
}
