/**
 * The senders' siblings of hubs (`LedgerReader.ledgerSenderSiblings`) where the rows are: the
 * store joins a hub's incoming rows to its senders' outgoing rows at the same times over the two
 * hop indexes, instead of a caller sending it every (sender, time) pair. A hub cache asks it on
 * a hub's first lumped read; on the real-shaped 1M benchmark ledger that was 391,799 pairs in
 * 1,082 outgoing reads over 300 screened transfers (docs/benchmarks.md, "Siblings").
 *
 * With lateral joins (Postgres) one fixed statement serves several hubs, passed as an array, and
 * answers one JSON array (as the hops do, kysely-ledger-frontier.ts); elsewhere (SQLite, in
 * process) one statement per hub. The distinct (sender, time) pairs are taken first, so each
 * sibling comes once however many rows its sender sent to the hub at that time.
 *
 * Most pairs have no sibling (the sender sent the hub's row alone at that time; on the benchmark
 * ledger none of 100,385 pairs of three large hubs had one), so Postgres first counts the
 * sender's rows at that time from the outgoing index alone (an index-only scan once the table is
 * vacuumed) and reads rows, which needs the table for `to_address`, only where there are two or
 * more: about 12 us a pair instead of 23 on the 1M benchmark ledger (EXPLAIN ANALYZE).
 */
import { KytError, type LedgerTransfer } from "@openkyt/core";
import { CompiledQuery, type Kysely, type Selectable, sql } from "kysely";
import type { StoreDialect } from "./kysely-dialect.js";
import { type Num, numberOf } from "./kysely-ledger-frontier.js";
import type { Database, LedgerTransfersTable } from "./kysely-schema.js";
import { chunksOf } from "./kysely-values.js";

/** Hubs per statement (their siblings come back as one JSON value). */
const HUBS_PER_STATEMENT = 16;

/**
 * $1 network, $2 token, $3 hub addresses. One row, one column `rows`: a JSON array of [hub
 * position, tx_hash, log_index, from_address, to_address, amount, occurred_at, block,
 * value_usd] (see {@link CELLS}).
 */
export const LATERAL_SIBLINGS_SQL = [
  "select coalesce(json_agg(json_build_array(",
  "  h.i - 1, o.tx_hash, o.log_index, o.from_address, o.to_address, o.amount, o.occurred_at, o.block, o.value_usd",
  ")), '[]') as rows",
  "from unnest($3::text[]) with ordinality as h(address, i)",
  "cross join lateral (",
  "  select distinct l.from_address, l.occurred_at from ledger_transfers l",
  "  where l.network = $1 and l.token_id = $2 and l.to_address = h.address and l.from_address <> h.address",
  ") p",
  "cross join lateral (",
  "  select l.tx_hash, l.log_index, l.from_address, l.to_address, l.amount, l.occurred_at, l.block, l.value_usd",
  "  from ledger_transfers l",
  "  where (",
  "      select count(*) from ledger_transfers c",
  "      where c.network = $1 and c.token_id = $2 and c.from_address = p.from_address",
  "        and c.occurred_at = p.occurred_at",
  "    ) > 1",
  "    and l.network = $1 and l.token_id = $2 and l.from_address = p.from_address",
  "    and l.occurred_at = p.occurred_at and l.to_address <> h.address",
  ") o",
].join("\n");

/** A row of {@link LATERAL_SIBLINGS_SQL}'s array. */
type SiblingCells = [number, string, number, string, string, Num, Num, Num | null, Num | null];

/** Cells per row, checked so that the statement and its reader cannot drift apart unnoticed. */
const CELLS = 9;

/** Per hub of `addresses`, in order, its senders' siblings (one statement per {@link HUBS_PER_STATEMENT}). */
async function lateralSiblings(
  db: Kysely<Database>,
  network: string,
  tokenId: string,
  addresses: ReadonlyArray<string>,
): Promise<LedgerTransfer[][]> {
  const out: LedgerTransfer[][] = [];
  for (const chunk of chunksOf(addresses, HUBS_PER_STATEMENT)) {
    const query = CompiledQuery.raw(LATERAL_SIBLINGS_SQL, [network, tokenId, chunk]) as CompiledQuery<{
      rows: ReadonlyArray<SiblingCells>;
    }>;
    const result = await db.executeQuery(query);
    const groups: LedgerTransfer[][] = chunk.map(() => []);
    for (const r of result.rows[0]?.rows ?? []) {
      const group = groups[r[0]];
      if (r.length !== CELLS || group === undefined) {
        throw new KytError(
          "STORE_ERROR",
          `ledger siblings: unexpected row ${JSON.stringify(r)} for ${chunk.length} hubs`,
        );
      }
      group.push({
        network,
        txHash: r[1],
        logIndex: r[2],
        tokenId,
        from: r[3],
        to: r[4],
        amount: numberOf(r[5]),
        occurredAt: numberOf(r[6]),
        block: r[7] === null ? null : numberOf(r[7]),
        valueUsd: r[8] === null ? null : numberOf(r[8]),
      });
    }
    out.push(...groups);
  }
  return out;
}

/** One hub's senders' siblings in one plain join (dialects without lateral joins). */
async function joinedSiblings(
  db: Kysely<Database>,
  network: string,
  tokenId: string,
  address: string,
  toTransfer: (row: Selectable<LedgerTransfersTable>) => LedgerTransfer,
): Promise<LedgerTransfer[]> {
  const { rows } = await sql<Selectable<LedgerTransfersTable>>`
    select o.network, o.tx_hash, o.log_index, o.token_id, o.from_address, o.to_address, o.amount,
      o.occurred_at, o.block, o.value_usd
    from (
      select distinct from_address, occurred_at from ledger_transfers
      where network = ${network} and token_id = ${tokenId} and to_address = ${address}
        and from_address <> ${address}
    ) p
    join ledger_transfers o
      on o.network = ${network} and o.token_id = ${tokenId} and o.from_address = p.from_address
        and o.occurred_at = p.occurred_at
    where o.to_address <> ${address}`.execute(db);
  return rows.map(toTransfer);
}

/** `ledgerSenderSiblings` over `db` in `dialect` (rows of plain joins read with `toTransfer`). */
export function senderSiblings(
  db: Kysely<Database>,
  dialect: StoreDialect,
  toTransfer: (row: Selectable<LedgerTransfersTable>) => LedgerTransfer,
): (network: string, tokenId: string, addresses: ReadonlyArray<string>) => Promise<LedgerTransfer[][]> {
  return async (network, tokenId, addresses) => {
    if (addresses.length === 0) return [];
    if (dialect.lateralJoins) return lateralSiblings(db, network, tokenId, addresses);
    const out: LedgerTransfer[][] = [];
    for (const address of addresses)
      out.push(await joinedSiblings(db, network, tokenId, address, toTransfer));
    return out;
  };
}
