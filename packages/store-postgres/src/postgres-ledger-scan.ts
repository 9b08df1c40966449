/**
 * The Postgres store's ledger in stored order. A row's position is its `seq` (migration 0010):
 * ledger writers take an advisory lock before inserting, so numbers are handed out in commit
 * order and the rows after a position are exactly the ones committed since it was read. Gaps
 * (a rolled-back insert, a row ignored as a duplicate) are stepped over.
 */
import type { LedgerScan } from "@openkyt/core";
import { type Database, type LedgerTransfersTable, ledgerTransferFromRow } from "@openkyt/store-kysely";
import { type Kysely, type Selectable, sql } from "kysely";

/** `scanLedger` over the store's database. */
export function postgresLedgerScan(
  db: Kysely<Database>,
): (after: number, limit: number) => Promise<LedgerScan> {
  return async (after, limit) => {
    const from = Math.floor(after);
    const { rows } = await sql<Selectable<LedgerTransfersTable> & { seq: number | string }>`
      select * from ledger_transfers
      where seq > ${from} order by seq limit ${Math.max(0, Math.floor(limit))}`.execute(db);
    const tail = rows[rows.length - 1];
    return { rows: rows.map(ledgerTransferFromRow), last: tail ? Number(tail.seq) : from };
  };
}
