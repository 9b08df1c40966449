/**
 * The SQLite store's ledger in stored order. A row's position is its rowid: SQLite gives a new
 * row a rowid above every one in the table (rows are never deleted from the ledger), so the
 * rows after a position are exactly the ones stored since. A VACUUM may renumber rowids; a
 * warm copy that follows the ledger must then be reloaded (restart the process).
 */
import type { LedgerScan, LedgerTransfer } from "@openkyt/core";
import type { Database } from "@openkyt/store-kysely";
import { type Kysely, sql } from "kysely";

interface ScannedRow {
  readonly position: number | bigint;
  readonly network: string;
  readonly tx_hash: string;
  readonly log_index: number | bigint;
  readonly token_id: string;
  readonly from_address: string;
  readonly to_address: string;
  readonly amount: number;
  readonly occurred_at: number | bigint;
  readonly block: number | bigint | null;
  readonly value_usd: number | null;
}

/** `scanLedger` over the store's database. */
export function sqliteLedgerScan(
  db: Kysely<Database>,
): (after: number, limit: number) => Promise<LedgerScan> {
  return async (after, limit) => {
    const { rows } = await sql<ScannedRow>`
      select rowid as position, network, tx_hash, log_index, token_id, from_address, to_address,
             amount, occurred_at, block, value_usd
      from ledger_transfers where rowid > ${Math.floor(after)} order by rowid limit ${Math.max(0, Math.floor(limit))}`.execute(
      db,
    );
    const out = rows.map(
      (r): LedgerTransfer => ({
        network: r.network,
        txHash: r.tx_hash,
        logIndex: Number(r.log_index),
        tokenId: r.token_id,
        from: r.from_address,
        to: r.to_address,
        amount: Number(r.amount),
        occurredAt: Number(r.occurred_at),
        block: r.block === null ? null : Number(r.block),
        valueUsd: r.value_usd === null ? null : Number(r.value_usd),
      }),
    );
    const tail = rows[rows.length - 1];
    return { rows: out, last: tail ? Number(tail.position) : Math.floor(after) };
  };
}
