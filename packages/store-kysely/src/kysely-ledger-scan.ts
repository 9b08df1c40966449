/**
 * `Store.scanLedger` over a column that numbers the ledger's rows in the order they were stored:
 * the rows after a position are exactly the ones stored since it was read.
 *
 * - SQLite: `rowid`. A new row gets a rowid above every one in the table (rows are never deleted
 *   from the ledger). A VACUUM may renumber rowids; a warm copy that follows the ledger must then
 *   be reloaded (restart the process).
 * - Postgres: `seq` (migration 0010). Ledger writers take an advisory lock before inserting
 *   (`ledgerSequence`), so numbers are handed out in commit order. Gaps (a rolled-back insert, a
 *   row ignored as a duplicate) are stepped over.
 */
import type { LedgerScan } from "@openkyt/core";
import { type Kysely, type Selectable, sql } from "kysely";
import { ledgerTransferFromRow } from "./kysely-ledger.js";
import type { Database, LedgerTransfersTable } from "./kysely-schema.js";

/** `scanLedger` over `db`, positions read from `column`. */
export function kyselyLedgerScan(
  db: Kysely<Database>,
  column: "rowid" | "seq",
): (after: number, limit: number) => Promise<LedgerScan> {
  const position = sql.id(column);
  return async (after, limit) => {
    const from = Math.floor(after);
    const { rows } = await sql<Selectable<LedgerTransfersTable> & { position: number | string | bigint }>`
      select ${position} as position, * from ledger_transfers
      where ${position} > ${from} order by ${position} limit ${Math.max(0, Math.floor(limit))}`.execute(db);
    const tail = rows[rows.length - 1];
    return { rows: rows.map(ledgerTransferFromRow), last: tail ? Number(tail.position) : from };
  };
}
