/**
 * PROTOTYPE of the bulk ledger path a SQLite store could offer (a proposed optional Store member,
 * see docs/data.md "Speed"), kept in the benchmark to measure it against the port path. It is
 * not a store: it opens the store's file with better-sqlite3 beside the store.
 *
 * Why: inserting rows one batch at a time into `ledger_transfers` updates three B-trees keyed by
 * random strings (the primary key on the transaction hash, and the incoming/outgoing indexes);
 * once they outgrow the page cache every row dirties pages all over them, and the port path
 * falls to a few thousand rows/s. Here rows go to an unindexed TEMP table first (appends only);
 * `finish()` then, in one transaction, moves them into the ledger sorted by primary key (rows
 * already present are ignored), dropping and rebuilding the two secondary indexes when the
 * ledger was empty (a sort per index instead of millions of random inserts). All rows land
 * at once, or none.
 */
import type { LedgerTransfer } from "@openkyt/core";
import type { LedgerWriter } from "@openkyt/datasets";
import Database from "better-sqlite3";

const COLUMNS =
  "network, tx_hash, log_index, token_id, from_address, to_address, amount, occurred_at, block, value_usd";
/** Rows per multi-row insert statement (10 parameters each). */
const ROWS_PER_STATEMENT = 100;

/** Options of the prototype. */
export interface BulkWriterOptions {
  /** Page cache of the connection in MiB (default 16; SQLite's sorter sizes its memory from it). */
  readonly cacheMiB?: number;
  /** Told how long each phase took, in seconds. */
  readonly onPhases?: (phases: { staging: number; merge: number; indexes: number }) => void;
}

/** Opens the prototype bulk writer on the SQLite file of a migrated store. */
export function sqliteBulkLedgerWriter(filename: string, options: BulkWriterOptions = {}): LedgerWriter {
  const db = new Database(filename);
  db.pragma("journal_mode = WAL");
  db.pragma("synchronous = NORMAL");
  db.pragma(`cache_size = -${(options.cacheMiB ?? 16) * 1024}`);
  db.exec(`CREATE TEMP TABLE ledger_staging (${COLUMNS})`);
  const one = `(${Array(10).fill("?").join(",")})`;
  const many = db.prepare(
    `INSERT INTO ledger_staging (${COLUMNS}) VALUES ${Array(ROWS_PER_STATEMENT).fill(one).join(",")}`,
  );
  const single = db.prepare(`INSERT INTO ledger_staging (${COLUMNS}) VALUES ${one}`);
  const values = (r: LedgerTransfer) => [
    r.network,
    r.txHash,
    r.logIndex,
    r.tokenId,
    r.from,
    r.to,
    r.amount,
    r.occurredAt,
    r.block,
    r.valueUsd,
  ];
  const stage = db.transaction((rows: ReadonlyArray<LedgerTransfer>) => {
    let at = 0;
    for (; at + ROWS_PER_STATEMENT <= rows.length; at += ROWS_PER_STATEMENT) {
      const params: unknown[] = [];
      for (let i = at; i < at + ROWS_PER_STATEMENT; i++) params.push(...values(rows[i] as LedgerTransfer));
      many.run(params);
    }
    for (; at < rows.length; at++) single.run(values(rows[at] as LedgerTransfer));
  });
  let staging = 0;
  const merge = db.transaction((): number => {
    const empty = db.prepare("SELECT NOT EXISTS (SELECT 1 FROM ledger_transfers) AS empty").get() as {
      empty: number;
    };
    const indexes = db
      .prepare(
        "SELECT name, sql FROM sqlite_master WHERE type = 'index' AND tbl_name = 'ledger_transfers' AND sql IS NOT NULL",
      )
      .all() as Array<{ name: string; sql: string }>;
    if (empty.empty) for (const index of indexes) db.exec(`DROP INDEX "${index.name}"`);
    const t0 = performance.now();
    const added = db
      .prepare(
        `INSERT INTO ledger_transfers (${COLUMNS}) SELECT ${COLUMNS} FROM ledger_staging ORDER BY network, tx_hash, log_index ON CONFLICT DO NOTHING`,
      )
      .run().changes;
    const t1 = performance.now();
    if (empty.empty) for (const index of indexes) db.exec(index.sql);
    options.onPhases?.({
      staging: staging / 1000,
      merge: (t1 - t0) / 1000,
      indexes: (performance.now() - t1) / 1000,
    });
    return added;
  });
  return {
    async write(rows) {
      const t = performance.now();
      stage(rows);
      staging += performance.now() - t;
    },
    async finish() {
      try {
        return merge();
      } finally {
        db.close();
      }
    },
    async abort() {
      db.close();
    },
  };
}
