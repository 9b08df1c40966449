/**
 * The SQLite store's ledger in stored order. A row's position is its rowid: SQLite gives a new
 * row a rowid above every one in the table (rows are never deleted from the ledger), so the
 * rows after a position are exactly the ones stored since. A VACUUM may renumber rowids; a
 * warm copy that follows the ledger must then be reloaded (restart the process).
 */
import type { LedgerScan } from "@openkyt/core";
import { type Database, type LedgerTransfersTable, ledgerTransferFromRow } from "@openkyt/store-kysely";
import { type Kysely, type Selectable, sql } from "kysely";

/** `scanLedger` over the store's database. */
export function sqliteLedgerScan(
  db: Kysely<Database>,
): (after: number, limit: number) => Promise<LedgerScan> {
  return async (after, limit) => {
    const from = Math.floor(after);
    const { rows } = await sql<Selectable<LedgerTransfersTable> & { position: number | bigint }>`
      select rowid as position, * from ledger_transfers
      where rowid > ${from} order by rowid limit ${Math.max(0, Math.floor(limit))}`.execute(db);
    const tail = rows[rows.length - 1];
    return { rows: rows.map(ledgerTransferFromRow), last: tail ? Number(tail.position) : from };
  };
}
