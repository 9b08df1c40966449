/**
 * The SQLite store's tracing reads (`LedgerReader`): one prepared statement per direction, run
 * once per frontier address by better-sqlite3 with its rows as arrays, the whole hop inside one
 * hold of kysely's connection. SQLite runs in this process, so a statement per address costs no
 * round trip, and its text never changes: the kysely store's UNION ALL of one subquery per
 * address was built, compiled and prepared per shape of frontier, and sorted each subquery in a
 * temporary b-tree of its own; these reads took a cold worker's ledger CPU from about 2.2 ms to
 * about 0.4 ms per screened transfer on the benchmark ledger (docs/benchmarks.md, "Cold traces").
 * Rows, limit and order are the kysely store's: the same conformance suite runs over both.
 */
import type { LedgerReader, LedgerTransfer } from "@openkyt/core";
import type { Database } from "@openkyt/store-kysely";
import type BetterSqlite3 from "better-sqlite3";
import type { Kysely } from "kysely";

/** The selected columns, in the order a row array holds them. */
const COLUMNS =
  "network, tx_hash, log_index, token_id, from_address, to_address, amount, occurred_at, block, value_usd";

/** The statement of one direction: network, token, address, time, limit. */
function hopSql(incoming: boolean): string {
  const order = incoming ? "desc" : "asc";
  return `select ${COLUMNS} from ledger_transfers
    where network = ? and token_id = ? and ${incoming ? "to_address" : "from_address"} = ?
      and occurred_at ${incoming ? "<" : ">"} ?
    order by occurred_at ${order}, tx_hash ${order}, log_index ${order} limit ?`;
}

type Cell = number | string | bigint | null;

/** A number from an integer or real cell (bigint only if the connection reads safe integers). */
function n(value: Cell): number {
  return typeof value === "number" ? value : Number(value);
}

/** A row array as a ledger transfer. */
function transferOf(r: ReadonlyArray<Cell>): LedgerTransfer {
  return {
    network: r[0] as string,
    txHash: r[1] as string,
    logIndex: n(r[2] as Cell),
    tokenId: r[3] as string,
    from: r[4] as string,
    to: r[5] as string,
    amount: n(r[6] as Cell),
    occurredAt: n(r[7] as Cell),
    block: r[8] === null || r[8] === undefined ? null : n(r[8]),
    valueUsd: r[9] === null || r[9] === undefined ? null : n(r[9]),
  };
}

/** Time, then transaction hash, then log index, ascending (the kysely store's order of a group). */
function compareForward(a: LedgerTransfer, b: LedgerTransfer): number {
  if (a.occurredAt !== b.occurredAt) return a.occurredAt - b.occurredAt;
  if (a.txHash !== b.txHash) return a.txHash < b.txHash ? -1 : 1;
  return a.logIndex - b.logIndex;
}

/** The ledger reads over `sqlite`, the connection under `db`. */
export function sqliteLedgerReads(
  db: Kysely<Database>,
  sqlite: BetterSqlite3.Database,
): Pick<LedgerReader, "ledgerIncoming" | "ledgerOutgoing"> {
  let statements: { incoming: BetterSqlite3.Statement; outgoing: BetterSqlite3.Statement } | null = null;
  const read = async (
    network: string,
    tokenId: string,
    incoming: boolean,
    frontier: ReadonlyArray<{ readonly address: string; readonly at: number }>,
    limit: number,
  ): Promise<LedgerTransfer[]> => {
    if (limit <= 0 || frontier.length === 0) return [];
    statements ??= {
      incoming: sqlite.prepare(hopSql(true)).raw(true),
      outgoing: sqlite.prepare(hopSql(false)).raw(true),
    };
    const statement = incoming ? statements.incoming : statements.outgoing;
    // Holding kysely's connection: the reads never land inside one of the store's open
    // transactions on that connection (they would see what is not committed).
    return db.connection().execute(async () => {
      const out: LedgerTransfer[] = [];
      for (const q of frontier) {
        const rows = statement.all(network, tokenId, q.address, q.at, limit) as Cell[][];
        const group = rows.map(transferOf).sort(compareForward);
        if (incoming) group.reverse();
        for (const t of group) out.push(t);
      }
      return out;
    });
  };
  return {
    ledgerIncoming: (network, tokenId, queries, limit) =>
      read(
        network,
        tokenId,
        true,
        queries.map((q) => ({ address: q.address, at: q.before })),
        limit,
      ),
    ledgerOutgoing: (network, tokenId, queries, limit) =>
      read(
        network,
        tokenId,
        false,
        queries.map((q) => ({ address: q.address, at: q.after })),
        limit,
      ),
  };
}
