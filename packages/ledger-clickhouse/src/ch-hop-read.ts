/**
 * The tracing hops of the ClickHouse ledger (`LedgerReader.ledgerIncoming` / `ledgerOutgoing`).
 *
 * Reads are correct while parts are unmerged: a hop asks for each frontier address's first
 * `limit` rows in hop order (one query, `LIMIT n BY address`), removes duplicates by key, and
 * asks again with a larger limit only for an address whose answer was cut short by duplicates.
 * Hot addresses (more rows than `hotRows`) are read with a top-n of their own over the days that
 * hold the rows it needs (ch-hop-window.ts), so an address with millions of transfers costs the
 * granules of those days: work and memory bounded by the edge budget, not by the address.
 */
import { type IncomingQuery, KytError, type LedgerTransfer, type OutgoingQuery } from "@openkyt/core";
import type { ChClient } from "./ch-client.js";
import { sqlInt, sqlString, sqlStringList } from "./ch-escape.js";
import type { HopPrefetch, PrefetchEntry } from "./ch-hop-prefetch.js";
import { type DayRows, type Direction, hotDays, planWindow, windowCondition } from "./ch-hop-window.js";
import { firstByKey, fromRow, type LedgerRow, SELECT_COLUMNS } from "./ch-ledger-row.js";

/** One hot (or cut short) address still to read: how many rows to ask, and the window found short before. */
interface TopRead {
  readonly address: string;
  readonly fetch: number;
  readonly previous: number | null;
}

const NO_DAYS: ReadonlyArray<DayRows> = [];

/** The SQL of one direction. */
export const DIRECTION = {
  in: {
    table: "ledger_hop_in",
    column: "to_address",
    op: "<",
    order: "DESC",
  },
  out: {
    table: "ledger_hop_out",
    column: "from_address",
    op: ">",
    order: "ASC",
  },
} as const;

/**
 * The hop key of an address as SQL: the same `cityHash64(network, token_id, address)` the
 * materialized views store (ch-schema.ts migration 3), computed by the server from literals.
 */
export function hopKey(network: string, tokenId: string, address: string): string {
  return `cityHash64(${sqlString(network)}, ${sqlString(tokenId)}, ${sqlString(address)})`;
}

/**
 * One hop: every frontier address's first `limit` rows in hop order, duplicates removed.
 *
 * One query per hop (per `perQuery` addresses): a `LIMIT n BY address` over every frontier
 * address whose row count (by the day tables) is at most `hotRows`, plus the list of the others.
 * After the hop's counts (`prefetch`), small addresses are answered from the rows the counts
 * fetched and the day tables are asked only about addresses the counts did not see.
 * The sort of that query holds at most `hotRows` rows per address. A hot address (an exchange's
 * deposit address with millions of rows) then gets a top-n branch of its own over the days that
 * hold its latest rows before the bound (the day table): the server reads those days' granules
 * and keeps `n` rows. A window that returns fewer than `n` rows is widened (the day table
 * over-counts), so the answer is the same as over the whole history.
 */
export async function hop(
  client: ChClient,
  db: string,
  direction: Direction,
  network: string,
  tokenId: string,
  queries: ReadonlyArray<IncomingQuery | OutgoingQuery>,
  limit: number,
  perQuery: number,
  hotRows: number,
  prefetch: HopPrefetch | null = null,
): Promise<ReadonlyArray<LedgerTransfer>> {
  if (!Number.isSafeInteger(limit) || limit < 0) {
    throw new KytError("VALIDATION_ERROR", `limitPerAddress: expected a non-negative integer, got ${limit}`);
  }
  if (limit === 0 || queries.length === 0) return [];
  // One bound per address: the widest (a caller may list an address twice).
  const bounds = new Map<string, number>();
  for (const q of queries) {
    const bound = "before" in q ? q.before : q.after;
    sqlInt(bound);
    const previous = bounds.get(q.address);
    const widest =
      previous === undefined
        ? bound
        : direction === "in"
          ? Math.max(previous, bound)
          : Math.min(previous, bound);
    bounds.set(q.address, widest);
  }
  // Answers per address, given back in frontier order (as the SQL stores do).
  const answers = new Map<string, LedgerTransfer[]>();
  const addresses = [...bounds.keys()];
  for (let i = 0; i < addresses.length; i += perQuery) {
    const chunk = addresses.slice(i, i + perQuery);
    // What the hop's counts learnt (ch-hop-prefetch.ts): a small address's rows, whether it is hot.
    const known = new Map<string, PrefetchEntry>();
    if (prefetch !== null) {
      for (const address of chunk) {
        const entry = prefetch.take(direction, network, tokenId, address, bounds.get(address) ?? 0);
        if (entry) known.set(address, entry);
      }
    }
    // The hot addresses and their days first; the others in one `LIMIT n BY` over their keys.
    const days = await hotDays(
      client,
      db,
      direction,
      network,
      tokenId,
      chunk.filter((a) => !known.has(a)),
      hotRows,
    );
    for (const [address, entry] of known) {
      if (entry.days !== null) days.set(address, entry.days);
      else if (entry.rows !== null) answers.set(address, entry.rows.slice(0, limit));
    }
    const cold = chunk.filter((a) => !days.has(a) && !answers.has(a));
    const grouped = groupByAddress(
      cold.length === 0
        ? []
        : await client.rows<LedgerRow>(hopQuery(db, direction, network, tokenId, cold, bounds, limit)),
      direction,
    );
    const short: string[] = [...days.keys()];
    for (const address of cold) {
      const raw = grouped.get(address) ?? [];
      const unique = sortHop(firstByKey(raw.map(fromRow)), direction);
      if (raw.length >= limit && unique.length < limit) short.push(address);
      else answers.set(address, unique.slice(0, limit));
    }
    // Hot addresses, and addresses whose first `limit` rows held duplicates: top-n branches,
    // each over the days that hold the rows it asks for (none known: every row past the bound).
    let pending: TopRead[] = short.map((address) => ({ address, fetch: limit, previous: null }));
    while (pending.length > 0) {
      const again: TopRead[] = [];
      for (let j = 0; j < pending.length; j += perQuery) {
        const part = pending.slice(j, j + perQuery).map((p) => ({
          ...p,
          window: planWindow(
            days.get(p.address) ?? NO_DAYS,
            direction,
            bounds.get(p.address) ?? 0,
            p.fetch,
            p.previous,
          ),
        }));
        const found = groupByAddress(
          await client.rows<LedgerRow>(
            part
              .map((p) =>
                topBranch(
                  db,
                  direction,
                  network,
                  tokenId,
                  p.address,
                  bounds.get(p.address) ?? 0,
                  p.fetch,
                  p.window,
                ),
              )
              .join("\nUNION ALL\n"),
          ),
          direction,
        );
        for (const p of part) {
          const raw = found.get(p.address) ?? [];
          const unique = sortHop(firstByKey(raw.map(fromRow)), direction);
          // A window with fewer rows than asked: older (later) rows may exist, start a day further.
          if (raw.length < p.fetch && p.window !== null) again.push({ ...p, previous: p.window });
          else if (raw.length >= p.fetch && unique.length < limit)
            again.push({ address: p.address, fetch: p.fetch * 4, previous: null });
          else answers.set(p.address, unique.slice(0, limit));
        }
      }
      pending = again;
    }
  }
  return addresses.flatMap((address) => answers.get(address) ?? []);
}

export function addressOf(row: LedgerRow, direction: Direction): string {
  return direction === "in" ? row.to_address : row.from_address;
}

export function groupByAddress(
  rows: ReadonlyArray<LedgerRow>,
  direction: Direction,
): Map<string, LedgerRow[]> {
  const grouped = new Map<string, LedgerRow[]>();
  for (const row of rows) {
    const address = addressOf(row, direction);
    const list = grouped.get(address) ?? [];
    list.push(row);
    grouped.set(address, list);
  }
  return grouped;
}

/**
 * The condition of a hop's rows for addresses that are not hot: their keys as literals (the
 * primary key's ranges), the strings checked too (a shared hash cannot bring another address's
 * rows), and each address's own bound.
 */
export function pastBounds(
  direction: Direction,
  network: string,
  tokenId: string,
  addresses: ReadonlyArray<string>,
  bounds: ReadonlyMap<string, number>,
): string {
  const { column, op } = DIRECTION[direction];
  const list = sqlStringList(addresses);
  const keys = addresses.map((a) => hopKey(network, tokenId, a)).join(", ");
  const boundList = addresses.map((a) => `toInt64(${sqlInt(bounds.get(a) ?? 0)})`).join(", ");
  return `hop_key IN (${keys})
      AND network = ${sqlString(network)} AND token_id = ${sqlString(tokenId)} AND ${column} IN (${list})
      AND occurred_at ${op} transform(${column}, [${list}], [${boundList}], toInt64(0))`;
}

/** The `LIMIT n BY` of a hop over addresses that are not hot (their keys as literals). */
function hopQuery(
  db: string,
  direction: Direction,
  network: string,
  tokenId: string,
  addresses: ReadonlyArray<string>,
  bounds: ReadonlyMap<string, number>,
  limit: number,
): string {
  const { table, column, order } = DIRECTION[direction];
  return `SELECT ${SELECT_COLUMNS} FROM ${db}.${table}
    WHERE ${pastBounds(direction, network, tokenId, addresses, bounds)}
    ORDER BY ${column}, occurred_at ${order}, tx_hash ${order}, log_index ${order}
    LIMIT ${sqlInt(limit)} BY ${column}`;
}

/** A top-`fetch` branch in hop order for one address, within `window` (see planWindow). */
function topBranch(
  db: string,
  direction: Direction,
  network: string,
  tokenId: string,
  address: string,
  bound: number,
  fetch: number,
  window: number | null,
): string {
  const { table, column, op, order } = DIRECTION[direction];
  return `SELECT * FROM (SELECT ${SELECT_COLUMNS} FROM ${db}.${table}
    WHERE hop_key = ${hopKey(network, tokenId, address)}
      AND network = ${sqlString(network)} AND token_id = ${sqlString(tokenId)}
      AND ${column} = ${sqlString(address)} AND occurred_at ${op} ${sqlInt(bound)}${windowCondition(direction, window)}
    ORDER BY occurred_at ${order}, tx_hash ${order}, log_index ${order} LIMIT ${sqlInt(fetch)})`;
}

/** Hop order: incoming latest first, outgoing earliest first (ties by tx hash, then log index). */
export function sortHop(rows: LedgerTransfer[], direction: Direction): LedgerTransfer[] {
  const sign = direction === "in" ? -1 : 1;
  return rows.sort(
    (a, b) =>
      sign *
      (a.occurredAt - b.occurredAt ||
        (a.txHash < b.txHash ? -1 : a.txHash > b.txHash ? 1 : 0) ||
        a.logIndex - b.logIndex),
  );
}
