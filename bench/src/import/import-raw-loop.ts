/**
 * The baseline the import is measured against (issue #7): a raw better-sqlite3 prepared-insert
 * loop over the same CSV into the same schema (a store migrated the same way), with nothing of
 * the importer: each line split on commas, its ten values bound to one cached prepared
 * `INSERT ... ON CONFLICT DO NOTHING`, a transaction per 50,000 rows. No validation, no
 * normalisation: the rows of the benchmark's generated file are already in normal form.
 */
import { createReadStream } from "node:fs";
import { createInterface } from "node:readline";
import Database from "better-sqlite3";

const COLUMNS =
  "network, tx_hash, log_index, token_id, from_address, to_address, amount, occurred_at, block, value_usd";
/** Rows per transaction. */
const ROWS_PER_TRANSACTION = 50_000;

/** A CSV number field, or null when empty. */
const numberOrNull = (text: string | undefined) => (text === undefined || text === "" ? null : Number(text));

/**
 * Inserts the first `limit` data rows of the ledger CSV `file` (columns in the benchmark's order)
 * into the ledger of the migrated SQLite database `dbFile`; answers rows read and rows added.
 */
export async function rawInsertLoop(
  file: string,
  dbFile: string,
  limit: number,
): Promise<{ rows: number; added: number }> {
  const db = new Database(dbFile);
  db.pragma("journal_mode = WAL");
  db.pragma("synchronous = NORMAL");
  const insert = db.prepare(
    `INSERT INTO ledger_transfers (${COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING`,
  );
  const insertAll = db.transaction((batch: ReadonlyArray<ReadonlyArray<unknown>>) => {
    let added = 0;
    for (const values of batch) added += insert.run(values).changes;
    return added;
  });
  let rows = 0;
  let added = 0;
  let batch: unknown[][] = [];
  let header = true;
  try {
    for await (const line of createInterface({
      input: createReadStream(file),
      crlfDelay: Number.POSITIVE_INFINITY,
    })) {
      if (header) {
        header = false;
        continue;
      }
      if (rows >= limit) break;
      const f = line.split(",");
      batch.push([
        f[0],
        f[1],
        Number(f[2]),
        f[3],
        f[4],
        f[5],
        Number(f[6]),
        Number(f[7]),
        numberOrNull(f[8]),
        numberOrNull(f[9]),
      ]);
      rows++;
      if (batch.length === ROWS_PER_TRANSACTION) {
        added += insertAll(batch);
        batch = [];
      }
    }
    if (batch.length > 0) added += insertAll(batch);
    db.pragma("wal_checkpoint(TRUNCATE)");
  } finally {
    db.close();
  }
  return { rows, added };
}
