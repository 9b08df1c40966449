/**
 * The hop counts of the ClickHouse ledger (`LedgerReader.ledgerIncomingCounts` /
 * `ledgerOutgoingCounts`), capped: per query, how many rows the hop would return without a
 * limit, or `cap` when it would return at least `cap`. A tracer asks them before a hop and does
 * not read a hub whose rows cannot fit in its edge budget (the count reaches its limit), so the
 * cap only needs to be above the largest limit it reads with (the default edge budget + 1).
 *
 * Rows are counted once per key (duplicates of unmerged parts included) with the strings
 * checked, as the hop reads them. An address of at most `hotRows` rows (by the day tables) is
 * counted whole: with a prefetch, its first {@link PREFETCH_ROWS} + 1 rows are fetched for the
 * chunk in one query and, when that is all of them, counted here and kept for the read
 * (ch-hop-prefetch.ts), the others counted on the server (`uniqExact(tx_hash, log_index)`); a
 * hot one over the days that hold its latest `cap` rows (ch-hop-window.ts), so counting a hub
 * costs about `cap` rows, not its history; a window found short is widened, and a count without
 * a window is exact.
 */
import type { IncomingQuery, OutgoingQuery } from "@openkyt/core";
import type { ChClient } from "./ch-client.js";
import { sqlInt, sqlString } from "./ch-escape.js";
import { type HopPrefetch, PREFETCH_ROWS } from "./ch-hop-prefetch.js";
import { DIRECTION, groupByAddress, hopKey, pastBounds, sortHop } from "./ch-hop-read.js";
import { type DayRows, type Direction, hotDays, planWindow, windowCondition } from "./ch-hop-window.js";
import { firstByKey, fromRow, type LedgerRow, SELECT_COLUMNS } from "./ch-ledger-row.js";

/** One address to count over a window (see planWindow). */
interface WindowCount {
  readonly address: string;
  readonly bound: number;
  /** The window counted so far (null: none yet), and its rows. */
  readonly previous: number | null;
  readonly counted: number;
}

/**
 * Counts of one hop, per query in order, each at most `cap`; what they learn is kept in
 * `prefetch` (when given) for the read that follows.
 */
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
  prefetch: HopPrefetch | null = null,
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
      let coldList = [...bounds.keys()].filter((a) => !days.has(a));
      const cold = new Map<string, number>();
      if (prefetch !== null) {
        for (const [address, own] of days)
          prefetch.put(direction, network, tokenId, address, bounds.get(address) ?? 0, {
            rows: null,
            days: own,
          });
        coldList = await fetchSmall(
          client,
          db,
          direction,
          network,
          tokenId,
          coldList,
          bounds,
          prefetch,
          cold,
        );
      }
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

/**
 * Fetches the first {@link PREFETCH_ROWS} + 1 rows of each address of `addresses` (not hot) in one
 * query; an address with no more than {@link PREFETCH_ROWS} is counted into `counts` and its rows
 * kept in `prefetch`. Returns the addresses with more, which are still to count.
 */
async function fetchSmall(
  client: ChClient,
  db: string,
  direction: Direction,
  network: string,
  tokenId: string,
  addresses: ReadonlyArray<string>,
  bounds: ReadonlyMap<string, number>,
  prefetch: HopPrefetch,
  counts: Map<string, number>,
): Promise<string[]> {
  if (addresses.length === 0) return [];
  const grouped = groupByAddress(
    await client.rows<LedgerRow>(smallRowsQuery(db, direction, network, tokenId, addresses, bounds)),
    direction,
  );
  const many: string[] = [];
  for (const address of addresses) {
    const raw = grouped.get(address) ?? [];
    const bound = bounds.get(address) ?? 0;
    if (raw.length > PREFETCH_ROWS) {
      many.push(address);
      prefetch.put(direction, network, tokenId, address, bound, { rows: null, days: null });
      continue;
    }
    const rows = sortHop(firstByKey(raw.map(fromRow)), direction);
    counts.set(address, rows.length);
    prefetch.put(direction, network, tokenId, address, bound, { rows, days: null });
  }
  return many;
}

/**
 * Up to {@link PREFETCH_ROWS} + 1 rows of each address past its bound, in no order (`LIMIT n BY`
 * without a sort: an address that returns no more than {@link PREFETCH_ROWS} returned all of them).
 */
function smallRowsQuery(
  db: string,
  direction: Direction,
  network: string,
  tokenId: string,
  addresses: ReadonlyArray<string>,
  bounds: ReadonlyMap<string, number>,
): string {
  const { table, column } = DIRECTION[direction];
  return `SELECT ${SELECT_COLUMNS} FROM ${db}.${table}
    WHERE ${pastBounds(direction, network, tokenId, addresses, bounds)}
    LIMIT ${sqlInt(PREFETCH_ROWS + 1)} BY ${column}`;
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
  const { table, column } = DIRECTION[direction];
  return `SELECT ${column} AS address, toUInt64(uniqExact(tx_hash, log_index)) AS n
    FROM ${db}.${table}
    WHERE ${pastBounds(direction, network, tokenId, addresses, bounds)}
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
