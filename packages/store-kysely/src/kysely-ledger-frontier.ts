/**
 * A hop of the ledger in one statement, on backends with lateral joins (Postgres): the frontier
 * travels as two array parameters (addresses and times) and a lateral subquery per element reads
 * that address's rows in index order, up to the limit. The SQL text is fixed per direction and
 * dialect, so no query is built per call and the server parses a few hundred bytes per hop.
 *
 * The rows come back as one JSON array in one result row, each row an array of the columns the
 * caller does not already know (network, token and the frontier address are the query's own):
 * a trace on the real-shaped ledger reads tens of thousands of rows per screened transfer, and
 * one `JSON.parse` in the driver costs the worker about a third of what a result row per ledger
 * row did (pg's row parse, a row object, then a transfer object; docs/benchmarks.md, "Cold
 * traces"). Numbers keep their bits: the server prints int8 and float8 as it does in text
 * results, and NaN or an infinity, which JSON has no number for, arrive as strings.
 *
 * The counts (`LedgerReader.ledgerIncomingCounts`) are one statement of the same shape: the
 * tracer asks them before a hop, and a hub whose rows cannot fit in its edge budget is then
 * not read at all (on the 1M real-shaped ledger, about 40% of the rows a cold trace read). The
 * same statement sends all the rows of each address that has few, for the read that follows
 * (`HopPrefetch` in kysely-ledger.ts), so a hop without hubs still costs one round trip.
 */
import { KytError, type LedgerTransfer } from "@openkyt/core";
import { CompiledQuery, type Kysely } from "kysely";
import type { StoreDialect } from "./kysely-dialect.js";
import type { Database } from "./kysely-schema.js";

/** One frontier address of a hop: rows before `at` (incoming) or after `at` (outgoing). */
export interface FrontierAddress {
  readonly address: string;
  readonly at: number;
}

/** The frontier as the statements' `unnest` (parameters $3 and $4) and the address column it matches. */
function frontierSource(incoming: boolean): { from: string; match: string } {
  const column = incoming ? "to_address" : "from_address";
  return {
    from: "from unnest($3::text[], $4::int8[]) with ordinality as q(address, at, i)",
    match: `l.network = $1 and l.token_id = $2 and l.${column} = q.address and l.occurred_at ${incoming ? "<" : ">"} q.at`,
  };
}

/**
 * The read of one direction: $1 network, $2 token, $3 addresses, $4 times, $5 limit. One row,
 * one column `rows`: a JSON array of [frontier position, tx_hash, log_index, counterparty,
 * amount, occurred_at, block, value_usd] (see {@link ROW_CELLS}).
 */
export function lateralFrontierSql(incoming: boolean, collation: string | null): string {
  const order = incoming ? "desc" : "asc";
  const other = incoming ? "from_address" : "to_address";
  const txHash = collation === null ? "l.tx_hash" : `l.tx_hash collate "${collation.replaceAll('"', '""')}"`;
  const { from, match } = frontierSource(incoming);
  return [
    "select coalesce(json_agg(json_build_array(",
    "  q.i - 1, t.tx_hash, t.log_index, t.other, t.amount, t.occurred_at, t.block, t.value_usd",
    ")), '[]') as rows",
    from,
    "cross join lateral (",
    `  select l.tx_hash, l.log_index, l.${other} as other, l.amount, l.occurred_at, l.block, l.value_usd`,
    "  from ledger_transfers l",
    `  where ${match}`,
    `  order by l.occurred_at ${order}, ${txHash} ${order}, l.log_index ${order}`,
    "  limit $5",
    ") t",
  ].join("\n");
}

/**
 * The counts of one direction, and the rows of each address that has at most $5 of them:
 * $1 network, $2 token, $3 addresses, $4 times, $5 the most rows to send. One row, one column
 * `counts`: a JSON array in frontier order of [count, rows or null], rows as in
 * {@link lateralFrontierSql}.
 */
export function lateralCountsSql(incoming: boolean): string {
  const other = incoming ? "from_address" : "to_address";
  const { from, match } = frontierSource(incoming);
  return [
    "select coalesce(json_agg(json_build_array(c.n, p.rows) order by q.i), '[]') as counts",
    from,
    `cross join lateral (select count(*) as n from ledger_transfers l where ${match}) c`,
    "cross join lateral (",
    "  select json_agg(json_build_array(",
    `    q.i - 1, l.tx_hash, l.log_index, l.${other}, l.amount, l.occurred_at, l.block, l.value_usd`,
    `  )) as rows from ledger_transfers l where c.n <= $5 and ${match}`,
    ") p",
  ].join("\n");
}

/** The cells of a row of {@link lateralFrontierSql}'s array. */
type RowCells = [number, string, number, string, Num, Num, Num | null, Num | null];

/** A JSON number, or the string the server writes for NaN and the infinities. */
export type Num = number | string;

/** Cells per row, checked so that a statement and its reader cannot drift apart unnoticed. */
const ROW_CELLS = 8;

/** A number from a JSON cell ("NaN", "Infinity" and "-Infinity" read as Number does). */
export function numberOf(cell: Num): number {
  return typeof cell === "number" ? cell : Number(cell);
}

/** SQL texts per dialect: reads and counts per direction, made once. */
interface FrontierTexts {
  readonly incoming: string;
  readonly outgoing: string;
  readonly incomingCounts: string;
  readonly outgoingCounts: string;
}

const texts = new WeakMap<StoreDialect, FrontierTexts>();

/** The texts of `dialect`, made on first use. */
function textsOf(dialect: StoreDialect): FrontierTexts {
  let made = texts.get(dialect);
  if (!made) {
    made = {
      incoming: lateralFrontierSql(true, dialect.orderCollation),
      outgoing: lateralFrontierSql(false, dialect.orderCollation),
      incomingCounts: lateralCountsSql(true),
      outgoingCounts: lateralCountsSql(false),
    };
    texts.set(dialect, made);
  }
  return made;
}

/** The statement parameters of a frontier: network, token, addresses, times. */
function frontierParameters(
  network: string,
  tokenId: string,
  incoming: boolean,
  frontier: ReadonlyArray<FrontierAddress>,
): unknown[] {
  // occurred_at is an integer: a bound between two integers reads as the next one inward, so a
  // fractional time cannot fail the int8 array's parse.
  return [
    network,
    tokenId,
    frontier.map((q) => q.address),
    frontier.map((q) => (incoming ? Math.ceil(q.at) : Math.floor(q.at))),
  ];
}

/** Appends the transfer of row `r` (see {@link lateralFrontierSql}) to its frontier position's group. */
function transferOf(
  r: RowCells,
  frontier: ReadonlyArray<FrontierAddress>,
  network: string,
  tokenId: string,
  incoming: boolean,
  groups: LedgerTransfer[][],
): void {
  const at = r[0];
  const q = frontier[at];
  const group = groups[at];
  if (r.length !== ROW_CELLS || q === undefined || group === undefined) {
    throw new KytError(
      "STORE_ERROR",
      `ledger hop: unexpected row ${JSON.stringify(r)} for ${frontier.length} addresses`,
    );
  }
  group.push({
    network,
    txHash: r[1],
    logIndex: r[2],
    tokenId,
    from: incoming ? r[3] : q.address,
    to: incoming ? q.address : r[3],
    amount: numberOf(r[4]),
    occurredAt: numberOf(r[5]),
    block: r[6] === null ? null : numberOf(r[6]),
    valueUsd: r[7] === null ? null : numberOf(r[7]),
  });
}

/**
 * Reads every address of `frontier` in one statement: per frontier position, that address's
 * rows in no particular order (the caller orders them).
 */
export async function readLateralFrontier(
  db: Kysely<Database>,
  dialect: StoreDialect,
  network: string,
  tokenId: string,
  incoming: boolean,
  frontier: ReadonlyArray<FrontierAddress>,
  limit: number,
): Promise<LedgerTransfer[][]> {
  const made = textsOf(dialect);
  const query = CompiledQuery.raw(incoming ? made.incoming : made.outgoing, [
    ...frontierParameters(network, tokenId, incoming, frontier),
    limit,
  ]) as CompiledQuery<{ rows: ReadonlyArray<RowCells> }>;
  const result = await db.executeQuery(query);
  const groups: LedgerTransfer[][] = frontier.map(() => []);
  for (const r of result.rows[0]?.rows ?? []) transferOf(r, frontier, network, tokenId, incoming, groups);
  return groups;
}

/** A hop's counts, and all the rows of each address that has few (null for the others). */
export interface FrontierCounts {
  readonly counts: number[];
  readonly rows: ReadonlyArray<LedgerTransfer[] | null>;
}

/**
 * Per address of `frontier`, in order, how many rows {@link readLateralFrontier} would give it
 * without a limit, and its rows (in no order) when it has at most `rowsUpTo`.
 */
export async function countLateralFrontier(
  db: Kysely<Database>,
  dialect: StoreDialect,
  network: string,
  tokenId: string,
  incoming: boolean,
  frontier: ReadonlyArray<FrontierAddress>,
  rowsUpTo: number,
): Promise<FrontierCounts> {
  if (frontier.length === 0) return { counts: [], rows: [] };
  const made = textsOf(dialect);
  const query = CompiledQuery.raw(incoming ? made.incomingCounts : made.outgoingCounts, [
    ...frontierParameters(network, tokenId, incoming, frontier),
    rowsUpTo,
  ]) as CompiledQuery<{ counts: ReadonlyArray<[Num, ReadonlyArray<RowCells> | null]> }>;
  const answer = (await db.executeQuery(query)).rows[0]?.counts ?? [];
  if (answer.length !== frontier.length) {
    throw new KytError(
      "STORE_ERROR",
      `ledger counts: ${answer.length} counts for ${frontier.length} addresses`,
    );
  }
  const groups: LedgerTransfer[][] = frontier.map(() => []);
  const counts = answer.map(([n, rows]) => {
    for (const r of rows ?? []) transferOf(r, frontier, network, tokenId, incoming, groups);
    return numberOf(n);
  });
  return { counts, rows: counts.map((n, i) => (n <= rowsUpTo ? (groups[i] ?? []) : null)) };
}
