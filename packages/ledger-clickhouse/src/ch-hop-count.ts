/**
 * The hop counts of the ClickHouse ledger (`LedgerReader.ledgerIncomingCounts` /
 * `ledgerOutgoingCounts`), capped: per query, how many rows the hop would return without a
 * limit, or `cap` when it would return at least `cap`. A tracer asks them before a hop and does
 * not read a hub whose rows cannot fit in its edge budget (the count reaches its limit), so the
 * cap only needs to be above the largest limit it reads with (the default edge budget + 1).
 *
 * Rows are counted once per key (`uniqExact(tx_hash, log_index)`, duplicates of unmerged parts
 * included) with the strings checked, as the hop reads them. An address of at most `hotRows`
 * rows (by the day tables) is counted whole, in one query for the chunk; a hot one over the days
 * that hold its latest `cap` rows (ch-hop-window.ts), so counting a hub costs about `cap` rows,
 * not its history; a window found short is widened, and a count without a window is exact.
 */
import type { IncomingQuery, OutgoingQuery } from "@openkyt/core";
import type { ChClient } from "./ch-client.js";
import { sqlInt, sqlString, sqlStringList } from "./ch-escape.js";
import { DIRECTION, hopKey } from "./ch-hop-read.js";
import { type DayRows, type Direction, hotDays, planWindow, windowCondition } from "./ch-hop-window.js";

/** One address to count over a window (see planWindow). */
interface WindowCount {
  readonly address: string;
  readonly bound: number;
  /** The window counted so far (null: none yet), and its rows. */
  readonly previous: number | null;
  readonly counted: number;
}

/** Counts of one hop, per query in order, each at most `cap`. */
export async function countHop(
  client: ChClient,
  db: string,
  direction: Direction,
  network: string,
  tokenId: string,
  queries: ReadonlyArray<IncomingQuery | OutgoingQuery>,
  cap: number,
  perQuery: number,
  hotRows: number,
): Promise<number[]> {
  // Times are whole milliseconds: a bound between two is the next one out (before 4.5 is before 5).
  const boundOf = (q: IncomingQuery | OutgoingQuery) =>
    sqlIntValue("before" in q ? Math.ceil(q.before) : Math.floor(q.after));
  const counts: number[] = new Array<number>(queries.length).fill(0);
  // Rounds of distinct addresses (an address listed twice, with two bounds, is counted twice).
  let left = queries.map((q, i) => ({ q, i }));
  while (left.length > 0) {
    const seen = new Set<string>();
    const round: typeof left = [];
    const later: typeof left = [];
    for (const item of left) {
      if (seen.has(item.q.address)) later.push(item);
      else {
        seen.add(item.q.address);
        round.push(item);
      }
    }
    left = later;
    for (let j = 0; j < round.length; j += perQuery) {
      const chunk = round.slice(j, j + perQuery);
      const bounds = new Map(chunk.map(({ q }) => [q.address, boundOf(q)]));
      const days = await hotDays(client, db, direction, network, tokenId, [...bounds.keys()], hotRows);
      const coldList = [...bounds.keys()].filter((a) => !days.has(a));
      const cold = new Map<string, number>();
      if (coldList.length > 0) {
        const found = await client.rows<{ address: string; n: number | string }>(
          coldCountQuery(db, direction, network, tokenId, coldList, bounds),
        );
        for (const r of found) cold.set(r.address, Number(r.n));
      }
      const hotCounts = await countHot(client, db, direction, network, tokenId, days, bounds, cap, perQuery);
      for (const { q, i } of chunk) {
        counts[i] = Math.min(cap, hotCounts.get(q.address) ?? cold.get(q.address) ?? 0);
      }
    }
  }
  return counts;
}

/** Leaves out a window counted before (its rows are in `counted`). */
function beyond(direction: Direction, previous: number | null): string {
  if (previous === null) return "";
  return ` AND occurred_at ${direction === "in" ? "<" : ">="} ${sqlInt(previous)}`;
}

function sqlIntValue(value: number): number {
  sqlInt(value);
  return value;
}

/** Exact counts of addresses that are not hot (their keys as literals), in one query. */
function coldCountQuery(
  db: string,
  direction: Direction,
  network: string,
  tokenId: string,
  addresses: ReadonlyArray<string>,
  bounds: ReadonlyMap<string, number>,
): string {
  const { table, column, op } = DIRECTION[direction];
  const list = sqlStringList(addresses);
  const keys = addresses.map((a) => hopKey(network, tokenId, a)).join(", ");
  const boundList = addresses.map((a) => `toInt64(${sqlInt(bounds.get(a) ?? 0)})`).join(", ");
  return `SELECT ${column} AS address, toUInt64(uniqExact(tx_hash, log_index)) AS n
    FROM ${db}.${table}
    WHERE hop_key IN (${keys})
      AND network = ${sqlString(network)} AND token_id = ${sqlString(tokenId)} AND ${column} IN (${list})
      AND occurred_at ${op} transform(${column}, [${list}], [${boundList}], toInt64(0))
    GROUP BY ${column}`;
}

/** Counts of hot addresses, each over the days that hold its latest `cap` rows (at most `cap`). */
async function countHot(
  client: ChClient,
  db: string,
  direction: Direction,
  network: string,
  tokenId: string,
  days: ReadonlyMap<string, ReadonlyArray<DayRows>>,
  bounds: ReadonlyMap<string, number>,
  cap: number,
  perQuery: number,
): Promise<Map<string, number>> {
  const out = new Map<string, number>();
  let pending: WindowCount[] = [...days.keys()].map((address) => ({
    address,
    bound: bounds.get(address) ?? 0,
    previous: null,
    counted: 0,
  }));
  while (pending.length > 0) {
    const again: WindowCount[] = [];
    for (let j = 0; j < pending.length; j += perQuery) {
      const part = pending.slice(j, j + perQuery).map((p) => ({
        ...p,
        window: planWindow(days.get(p.address) ?? [], direction, p.bound, cap, p.previous),
      }));
      const { table, column, op } = DIRECTION[direction];
      const found = await client.rows<{ address: string; n: number | string }>(
        part
          .map(
            (p) => `SELECT ${sqlString(p.address)} AS address, toUInt64(uniqExact(tx_hash, log_index)) AS n
    FROM ${db}.${table}
    WHERE hop_key = ${hopKey(network, tokenId, p.address)}
      AND network = ${sqlString(network)} AND token_id = ${sqlString(tokenId)} AND ${column} = ${sqlString(p.address)}
      AND occurred_at ${op} ${sqlInt(p.bound)}${windowCondition(direction, p.window)}${beyond(direction, p.previous)}`,
          )
          .join("\nUNION ALL\n"),
      );
      const n = new Map(found.map((r) => [r.address, Number(r.n)]));
      for (const p of part) {
        // A key's copies share its time, so the days before a counted window add their own.
        const counted = p.counted + (n.get(p.address) ?? 0);
        // Fewer than `cap` in a window: the rows before it may still reach the cap.
        if (counted < cap && p.window !== null) again.push({ ...p, previous: p.window, counted });
        else out.set(p.address, Math.min(cap, counted));
      }
    }
    pending = again;
  }
  return out;
}
