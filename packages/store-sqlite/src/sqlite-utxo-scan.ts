/**
 * The SQLite store's `scanUtxoTransactions`: UTXO transactions in stored order (rowid, which only
 * grows as rows are appended), a page at a time, each with its outputs and inputs. Three
 * prepared statements per page (the transactions by rowid; their outputs and inputs by their
 * keys), rows read as arrays, not objects: this is what a warm copy of a large UTXO ledger loads.
 */
import type { UtxoInput, UtxoOutput, UtxoScan, UtxoTransaction } from "@openkyt/core";
import type { Database } from "@openkyt/store-kysely";
import type BetterSqlite3 from "better-sqlite3";
import type { Kysely } from "kysely";

/** Txids per IN list of the outputs and inputs reads. */
const TXIDS_PER_READ = 500;

type TxRow = [number, string, string, number | null, string | null, number, number, number];
type OutputRow = [string, string, number, string | null, number];
type InputRow = [string, string, number, string | null, number | null, string | null, number, number];

/** `scanUtxoTransactions` over `sqlite`, the connection of `db`. */
export function sqliteUtxoScan(
  db: Kysely<Database>,
  sqlite: BetterSqlite3.Database,
): (after: number, limit: number) => Promise<UtxoScan> {
  let statements: ReturnType<typeof prepare> | null = null;
  function prepare() {
    const list = Array(TXIDS_PER_READ).fill("?").join(", ");
    return {
      txs: sqlite
        .prepare(
          "SELECT rowid, txid, network, block, block_hash, occurred_at, position, coinbase FROM utxo_transactions WHERE rowid > ? ORDER BY rowid LIMIT ?",
        )
        .raw(),
      outputs: sqlite
        .prepare(`SELECT txid, network, vout, address, value FROM utxo_outputs WHERE txid IN (${list})`)
        .raw(),
      inputs: sqlite
        .prepare(
          `SELECT txid, network, vin, prev_txid, prev_vout, address, value, coinbase FROM utxo_inputs WHERE txid IN (${list})`,
        )
        .raw(),
    };
  }
  const read = (after: number, limit: number): UtxoScan => {
    statements ??= prepare();
    const rows = statements.txs.all(after, limit) as TxRow[];
    if (rows.length === 0) return { txs: [], last: after };
    const key = (network: string, txid: string) => `${network}\u0000${txid}`;
    const outputs = new Map<string, UtxoOutput[]>();
    const inputs = new Map<string, Array<UtxoInput & { vin: number }>>();
    for (let at = 0; at < rows.length; at += TXIDS_PER_READ) {
      const ids: Array<string | null> = rows.slice(at, at + TXIDS_PER_READ).map((r) => r[1]);
      while (ids.length < TXIDS_PER_READ) ids.push(null);
      for (const [txid, network, vout, address, value] of statements.outputs.all(...ids) as OutputRow[]) {
        const k = key(network, txid);
        let list = outputs.get(k);
        if (!list) {
          list = [];
          outputs.set(k, list);
        }
        list.push({ vout, address, value, spentBy: null });
      }
      for (const [txid, network, vin, prevTxid, prevVout, address, value, coinbase] of statements.inputs.all(
        ...ids,
      ) as InputRow[]) {
        const k = key(network, txid);
        let list = inputs.get(k);
        if (!list) {
          list = [];
          inputs.set(k, list);
        }
        list.push({ vin, prevTxid, prevVout, address, value, coinbase: coinbase !== 0 });
      }
    }
    const txs: UtxoTransaction[] = rows.map(
      ([, txid, network, block, blockHash, occurredAt, position, coinbase]) => {
        const k = key(network, txid);
        return {
          network,
          txid,
          block,
          blockHash,
          occurredAt,
          position,
          coinbase: coinbase !== 0,
          inputs: (inputs.get(k) ?? []).sort((a, b) => a.vin - b.vin).map(({ vin: _vin, ...input }) => input),
          outputs: (outputs.get(k) ?? []).sort((a, b) => a.vout - b.vout),
        };
      },
    );
    return { txs, last: (rows[rows.length - 1] as TxRow)[0] };
  };
  return (after, limit) => db.connection().execute(async () => read(after, limit));
}
