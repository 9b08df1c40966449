/**
 * The SQLite store's `scanUtxoTransactions`: UTXO transactions in stored order (their id, the
 * rowid, which only grows as rows are appended), a page at a time, each with its outputs and
 * inputs. Three prepared statements per page: the transactions by id, then their outputs and
 * inputs as one range of each table's key `(tx, vout|vin)` (migration 0101), read in key order
 * and matched to the page's transactions in one pass; rows read as arrays, not objects. This is
 * what a warm copy of a large UTXO ledger loads.
 */
import type { UtxoInput, UtxoOutput, UtxoScan, UtxoTransaction } from "@openkyt/core";
import type { Database } from "@openkyt/store-kysely";
import type BetterSqlite3 from "better-sqlite3";
import type { Kysely } from "kysely";

type TxRow = [number, string, string, number | null, string | null, number, number, number];
type OutputRow = [number, number, string | null, number];
type InputRow = [number, number, string | null, number | null, string | null, number, number];

/** `scanUtxoTransactions` over `sqlite`, the connection of `db`. */
export function sqliteUtxoScan(
  db: Kysely<Database>,
  sqlite: BetterSqlite3.Database,
): (after: number, limit: number) => Promise<UtxoScan> {
  let statements: ReturnType<typeof prepare> | null = null;
  function prepare() {
    return {
      txs: sqlite
        .prepare(
          "SELECT id, txid, network, block, block_hash, occurred_at, position, coinbase FROM utxo_transactions WHERE id > ? ORDER BY id LIMIT ?",
        )
        .raw(),
      outputs: sqlite
        .prepare(
          "SELECT tx, vout, address, value FROM utxo_outputs WHERE tx > ? AND tx <= ? ORDER BY tx, vout",
        )
        .raw(),
      inputs: sqlite
        .prepare(
          "SELECT tx, vin, prev_txid, prev_vout, address, value, coinbase FROM utxo_inputs WHERE tx > ? AND tx <= ? ORDER BY tx, vin",
        )
        .raw(),
    };
  }
  const read = (after: number, limit: number): UtxoScan => {
    statements ??= prepare();
    const rows = statements.txs.all(after, limit) as TxRow[];
    if (rows.length === 0) return { txs: [], last: after };
    const last = (rows[rows.length - 1] as TxRow)[0];
    const outputRows = statements.outputs.all(after, last) as OutputRow[];
    const inputRows = statements.inputs.all(after, last) as InputRow[];
    // Both lists are in (tx, vout|vin) order, the page in tx order: one cursor into each.
    let o = 0;
    let i = 0;
    const txs: UtxoTransaction[] = rows.map(
      ([id, txid, network, block, blockHash, occurredAt, position, coinbase]) => {
        const outputs: UtxoOutput[] = [];
        while (o < outputRows.length && (outputRows[o] as OutputRow)[0] < id) o++;
        for (; o < outputRows.length; o++) {
          const [tx, vout, address, value] = outputRows[o] as OutputRow;
          if (tx !== id) break;
          outputs.push({ vout, address, value, spentBy: null });
        }
        const inputs: UtxoInput[] = [];
        while (i < inputRows.length && (inputRows[i] as InputRow)[0] < id) i++;
        for (; i < inputRows.length; i++) {
          const [tx, , prevTxid, prevVout, address, value, coinbaseInput] = inputRows[i] as InputRow;
          if (tx !== id) break;
          inputs.push({ prevTxid, prevVout, address, value, coinbase: coinbaseInput !== 0 });
        }
        return {
          network,
          txid,
          block,
          blockHash,
          occurredAt,
          position,
          coinbase: coinbase !== 0,
          inputs,
          outputs,
        };
      },
    );
    return { txs, last };
  };
  return (after, limit) => db.connection().execute(async () => read(after, limit));
}
