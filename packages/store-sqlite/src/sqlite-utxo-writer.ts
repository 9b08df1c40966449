/**
 * The SQLite store's `putUtxoTransactions`: the kysely one (`kysely-utxo.ts`) builds a
 * multi-row INSERT per 100-odd rows of each table, which kysely compiles, better-sqlite3 prepares
 * (a new SQL text for every chunk size) and binds through arrays of row objects; for a Bitcoin
 * import that is almost all of the CPU (a transaction is ~5 rows). Here three statements are
 * prepared once and each row is bound straight from the `UtxoTransaction`, every call one
 * IMMEDIATE transaction on the store's own connection (`db.connection()`, so it never
 * interleaves with the store's kysely transactions).
 *
 * Same contract as the kysely member: every transaction is checked first (`isSats` values and
 * the rest of `utxoTransactionProblem`), nothing is written when one fails; a transaction
 * already stored (or repeated in the call) is left whole as it is and does not count as new.
 */
import { KytError, type UtxoTransaction, utxoTransactionProblem } from "@openkyt/core";
import type { Database } from "@openkyt/store-kysely";
import type BetterSqlite3 from "better-sqlite3";
import type { Kysely } from "kysely";

const INSERT_TRANSACTION = `INSERT INTO utxo_transactions
  (txid, network, block, block_hash, occurred_at, position, coinbase)
  VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (txid, network) DO NOTHING`;
// Keyed by the new transaction row's id (migration 0101): never there before.
const INSERT_OUTPUT = `INSERT INTO utxo_outputs (tx, vout, address, value, occurred_at) VALUES (?, ?, ?, ?, ?)`;
const INSERT_INPUT = `INSERT INTO utxo_inputs
  (tx, vin, prev_txid, prev_vout, address, value, coinbase) VALUES (?, ?, ?, ?, ?, ?, ?)`;

/** `putUtxoTransactions` over prepared statements of `sqlite`, the connection of `db`. */
export function sqliteUtxoWriter(
  db: Kysely<Database>,
  sqlite: BetterSqlite3.Database,
): (txs: ReadonlyArray<UtxoTransaction>) => Promise<number> {
  let statements: ReturnType<typeof prepare> | null = null;
  function prepare() {
    return {
      tx: sqlite.prepare(INSERT_TRANSACTION),
      output: sqlite.prepare(INSERT_OUTPUT),
      input: sqlite.prepare(INSERT_INPUT),
    };
  }
  const write = (txs: ReadonlyArray<UtxoTransaction>): number => {
    statements ??= prepare();
    const { tx: insertTx, output: insertOutput, input: insertInput } = statements;
    let added = 0;
    // In txid order (stable: the first of a repeated txid still wins): the transactions' key
    // starts with the txid, so it is walked once, in order, instead of at random.
    const ordered = [...txs].sort((a, b) => (a.txid < b.txid ? -1 : a.txid > b.txid ? 1 : 0));
    for (const tx of ordered) {
      const { occurredAt } = tx;
      // A transaction whose row was there already (stored before, or earlier in this call)
      // keeps its rows: its outputs and inputs are not written again.
      const stored = insertTx.run(
        tx.txid,
        tx.network,
        tx.block,
        tx.blockHash,
        occurredAt,
        tx.position,
        tx.coinbase ? 1 : 0,
      );
      if (stored.changes === 0) continue;
      added++;
      const id = stored.lastInsertRowid;
      for (const o of tx.outputs) insertOutput.run(id, o.vout, o.address, o.value, occurredAt);
      const inputs = tx.inputs;
      for (let vin = 0; vin < inputs.length; vin++) {
        const i = inputs[vin] as (typeof inputs)[number];
        insertInput.run(id, vin, i.prevTxid, i.prevVout, i.address, i.value, i.coinbase ? 1 : 0);
      }
    }
    return added;
  };
  const atomicWrite = sqlite.transaction(write);
  return async (txs) => {
    if (txs.length === 0) return 0;
    for (const tx of txs) {
      const problem = utxoTransactionProblem(tx);
      if (problem !== null) throw new KytError("VALIDATION_ERROR", problem);
    }
    return db.connection().execute(async () => atomicWrite.immediate(txs));
  };
}
