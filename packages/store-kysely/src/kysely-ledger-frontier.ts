/**
 * A hop of the ledger in one statement, on backends with lateral joins (Postgres): the frontier
 * travels as two array parameters (addresses and times) and a lateral subquery per element reads
 * that address's rows in index order, up to the limit. The SQL text is fixed per direction and
 * dialect, so no query is built per call and the server parses a few hundred bytes per hop,
 * where a UNION ALL of one subquery per address sent and planned tens of kilobytes (about a
 * fifth of a cold worker's CPU went to writing them to the socket, docs/benchmarks.md).
 */
import { CompiledQuery, type Kysely, type Selectable } from "kysely";
import type { StoreDialect } from "./kysely-dialect.js";
import type { Database, LedgerTransfersTable } from "./kysely-schema.js";

/** A ledger row with the 0-based position of the frontier address it answers. */
export type FrontierRow = Selectable<LedgerTransfersTable> & { readonly query_index: number | string };

/** One frontier address of a hop: rows before `at` (incoming) or after `at` (outgoing). */
export interface FrontierAddress {
  readonly address: string;
  readonly at: number;
}

/** The statement of one direction: $1 network, $2 token, $3 addresses, $4 times, $5 limit. */
export function lateralFrontierSql(incoming: boolean, collation: string | null): string {
  const column = incoming ? "to_address" : "from_address";
  const order = incoming ? "desc" : "asc";
  const txHash = collation === null ? "l.tx_hash" : `l.tx_hash collate "${collation.replaceAll('"', '""')}"`;
  return [
    "select q.i - 1 as query_index, t.*",
    "from unnest($3::text[], $4::int8[]) with ordinality as q(address, at, i)",
    "cross join lateral (",
    "  select l.network, l.tx_hash, l.log_index, l.token_id, l.from_address, l.to_address,",
    "    l.amount, l.occurred_at, l.block, l.value_usd",
    "  from ledger_transfers l",
    `  where l.network = $1 and l.token_id = $2 and l.${column} = q.address`,
    `    and l.occurred_at ${incoming ? "<" : ">"} q.at`,
    `  order by l.occurred_at ${order}, ${txHash} ${order}, l.log_index ${order}`,
    "  limit $5",
    ") t",
  ].join("\n");
}

/** SQL texts per dialect and direction, made once. */
const texts = new WeakMap<StoreDialect, { incoming: string; outgoing: string }>();

/** Reads every address of `frontier` in one statement; rows in no particular order. */
export async function readLateralFrontier(
  db: Kysely<Database>,
  dialect: StoreDialect,
  network: string,
  tokenId: string,
  incoming: boolean,
  frontier: ReadonlyArray<FrontierAddress>,
  limit: number,
): Promise<ReadonlyArray<FrontierRow>> {
  let made = texts.get(dialect);
  if (!made) {
    made = {
      incoming: lateralFrontierSql(true, dialect.orderCollation),
      outgoing: lateralFrontierSql(false, dialect.orderCollation),
    };
    texts.set(dialect, made);
  }
  const addresses = frontier.map((q) => q.address);
  // occurred_at is an integer: a bound between two integers reads as the next one inward, so a
  // fractional time cannot fail the int8 array's parse.
  const times = frontier.map((q) => (incoming ? Math.ceil(q.at) : Math.floor(q.at)));
  const query = CompiledQuery.raw(incoming ? made.incoming : made.outgoing, [
    network,
    tokenId,
    addresses,
    times,
    limit,
  ]) as CompiledQuery<FrontierRow>;
  return (await db.executeQuery(query)).rows;
}
