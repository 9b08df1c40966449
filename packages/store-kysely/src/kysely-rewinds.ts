/**
 * The rewind log of the kysely store (migration 0070, `Store.scanRewinds`): the removals of a
 * chain follower's undo, each recorded in the transaction that removes the rows, so a warm copy
 * in any process drops them too.
 */
import type { LedgerRewind, RewoundLedger } from "@openkyt/core";
import { type Kysely, sql } from "kysely";
import type { StoreDialect } from "./kysely-dialect.js";
import { lockLedgerSequence } from "./kysely-ledger.js";
import type { Database } from "./kysely-schema.js";
import { num } from "./kysely-values.js";

/** The table each ledger's rows are scanned from. */
const TABLES: Readonly<Record<RewoundLedger, "ledger_transfers" | "utxo_transactions">> = Object.freeze({
  account: "ledger_transfers",
  utxo: "utxo_transactions",
});

/** The column `scanLedger` / `scanUtxoTransactions` read positions from, or null when there is none. */
function positionColumn(dialect: StoreDialect, ledger: RewoundLedger): "rowid" | "seq" | null {
  if (ledger === "account") return dialect.ledgerOrder;
  // Only SQLite scans its UTXO ledger (by rowid); elsewhere a copy reads it from the start.
  return dialect.ledgerOrder === "rowid" ? "rowid" : null;
}

/** The lowest and highest position of `table`'s rows of `network` at or above `fromHeight`, or of all. */
async function positionOf(
  tx: Kysely<Database>,
  table: string,
  column: string,
  which: "min" | "max",
  where: { network: string; fromHeight: number } | null,
): Promise<number | null> {
  const agg = which === "min" ? sql`min(${sql.id(column)})` : sql`max(${sql.id(column)})`;
  const filter =
    where === null ? sql`` : sql`where network = ${where.network} and block >= ${where.fromHeight}`;
  const { rows } = await sql<{
    p: number | string | bigint | null;
  }>`select ${agg} as p from ${sql.table(table)} ${filter}`.execute(tx);
  const p = rows[0]?.p;
  return p === null || p === undefined ? null : Number(p);
}

/**
 * Runs `remove` (which deletes the rows of `network` in `ledger` at or above `fromHeight` and
 * answers how many) inside `tx`, and when it removed any, appends the rewind. `resumeAfter` is
 * the lower of the position just before the first removed row and the highest position left
 * (SQLite gives a new row the highest rowid plus one, which may reuse a removed row's).
 */
export async function removeAndRecordRewind(
  tx: Kysely<Database>,
  dialect: StoreDialect,
  rewind: { readonly ledger: RewoundLedger; readonly network: string; readonly fromHeight: number },
  remove: () => Promise<number>,
): Promise<number> {
  // Ids in commit order on Postgres: the ledger writers' lock (held to the end of the transaction).
  if (dialect.ledgerOrder === "seq") await lockLedgerSequence(tx);
  const table = TABLES[rewind.ledger];
  const column = positionColumn(dialect, rewind.ledger);
  const first = column === null ? null : await positionOf(tx, table, column, "min", rewind);
  const removed = await remove();
  if (removed === 0) return 0;
  let resumeAfter = 0;
  if (column !== null && first !== null) {
    const highest = (await positionOf(tx, table, column, "max", null)) ?? 0;
    resumeAfter = Math.max(0, Math.min(first - 1, highest));
  }
  const { rows } = await sql<{
    id: number | string | bigint;
  }>`select coalesce(max(id), 0) + 1 as id from ledger_rewinds`.execute(tx);
  await tx
    .insertInto("ledger_rewinds")
    .values({
      id: Number(rows[0]?.id ?? 1),
      ledger: rewind.ledger,
      network: rewind.network,
      from_height: rewind.fromHeight,
      resume_after: resumeAfter,
    })
    .execute();
  return removed;
}

/** `scanRewinds` over `db`. */
export function kyselyRewindScan(
  db: Kysely<Database>,
): (after: number, limit: number) => Promise<ReadonlyArray<LedgerRewind>> {
  return async (after, limit) => {
    const rows = await db
      .selectFrom("ledger_rewinds")
      .selectAll()
      .where("id", ">", Math.floor(after))
      .orderBy("id")
      .limit(Math.max(0, Math.floor(limit)))
      .execute();
    return rows.map((r) => ({
      id: num(r.id),
      ledger: r.ledger === "utxo" ? "utxo" : "account",
      network: r.network,
      fromHeight: num(r.from_height),
      resumeAfter: num(r.resume_after),
    }));
  };
}
