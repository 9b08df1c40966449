/**
 * The UTXO ledger of the kysely store (tables of migrations 0030 and 0101: outputs and inputs
 * keyed by their transaction's integer id). A hop of a trace is three statements per 500 txids
 * (transactions, outputs with their spending inputs, inputs); an address read is one UNION ALL
 * per 200 addresses, each address its own ordered, limited subquery, as the account ledger's
 * hops (`kysely-ledger.ts`). An output's or input's network, block and position are its
 * transaction row's; a spender is matched on its transaction's network, so a txid on both BTC
 * and LTC keeps each network's coins apart.
 */
import {
  KytError,
  type SpendingInput,
  type UtxoInput,
  type UtxoLedgerStore,
  type UtxoOutput,
  type UtxoReceipt,
  type UtxoTransaction,
  utxoTransactionProblem,
} from "@openkyt/core";
import { type Insertable, type SqlBool, sql } from "kysely";
import { changedRows, type KyselyContext, orderText } from "./kysely-context.js";
import { FRONTIER_CHUNK } from "./kysely-ledger.js";
import { removeAndRecordRewind } from "./kysely-rewinds.js";
import type { UtxoInputsTable, UtxoOutputsTable, UtxoTransactionsTable } from "./kysely-schema.js";
import { bool, boolColumn, chunksOf, IN_LIST_CHUNK, INSERT_CHUNK, num, numOrNull } from "./kysely-values.js";

/** An output row with its transaction's columns and the input that spent it (null while unspent). */
interface OutputWithSpend {
  tx: number | string;
  txid: string;
  network: string;
  vout: number | string;
  address: string | null;
  value: number | string;
  occurred_at: number | string;
  block: number | string | null;
  position: number | string;
  spent_txid: string | null;
  spent_vin: number | string | null;
  spent_at: number | string | null;
}

/** Binary text order (txids are lower-case hex, so every collation agrees). */
function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** The spending input of a joined row, or null. */
function spendOf(row: OutputWithSpend): SpendingInput | null {
  return row.spent_txid === null || row.spent_vin === null
    ? null
    : { txid: row.spent_txid, vin: num(row.spent_vin) };
}

/** A joined output row as a receipt. */
function receiptOf(row: OutputWithSpend): UtxoReceipt {
  return {
    network: row.network,
    txid: row.txid,
    vout: num(row.vout),
    address: row.address ?? "",
    value: num(row.value),
    occurredAt: num(row.occurred_at),
    block: numOrNull(row.block),
    position: num(row.position),
    spentBy: spendOf(row),
  };
}

/** The transaction row of `tx`. */
function txRowOf(tx: UtxoTransaction): Insertable<UtxoTransactionsTable> {
  return {
    txid: tx.txid,
    network: tx.network,
    block: tx.block,
    block_hash: tx.blockHash,
    occurred_at: tx.occurredAt,
    position: tx.position,
    coinbase: boolColumn(tx.coinbase),
  };
}

/** The output and input rows of `tx`, stored under the transaction row `id`. */
function childRowsOf(
  tx: UtxoTransaction,
  id: number,
): { outputs: Array<Insertable<UtxoOutputsTable>>; inputs: Array<Insertable<UtxoInputsTable>> } {
  return {
    outputs: tx.outputs.map((o) => ({
      tx: id,
      vout: o.vout,
      address: o.address,
      value: o.value,
      occurred_at: tx.occurredAt,
    })),
    inputs: tx.inputs.map((i, vin) => ({
      tx: id,
      vin,
      prev_txid: i.prevTxid,
      prev_vout: i.prevVout,
      address: i.address,
      value: i.value,
      coinbase: boolColumn(i.coinbase),
    })),
  };
}

/** Creates the UTXO ledger members over `ctx`. */
export function kyselyUtxoOps(ctx: KyselyContext): UtxoLedgerStore {
  const { db } = ctx;

  /**
   * Outputs with their transaction's columns and the input that spent each: a spender on the
   * output's network only (its transaction row's network, one key lookup per candidate).
   */
  const outputsWithSpends = () =>
    db
      .selectFrom("utxo_outputs as o")
      .innerJoin("utxo_transactions as t", "t.id", "o.tx")
      .leftJoin("utxo_inputs as s", (join) =>
        join
          .onRef("s.prev_txid", "=", "t.txid")
          .onRef("s.prev_vout", "=", "o.vout")
          .on(sql<SqlBool>`(select x.network from utxo_transactions x where x.id = s.tx) = t.network`),
      )
      .leftJoin("utxo_transactions as st", "st.id", "s.tx")
      .select([
        "o.tx",
        "t.txid",
        "t.network",
        "o.vout",
        "o.address",
        "o.value",
        "o.occurred_at",
        "t.block",
        "t.position",
        "st.txid as spent_txid",
        "s.vin as spent_vin",
        "st.occurred_at as spent_at",
      ]);

  async function transactionsOf(network: string, txids: ReadonlyArray<string>): Promise<UtxoTransaction[]> {
    const out: UtxoTransaction[] = [];
    for (const chunk of chunksOf([...new Set(txids)], IN_LIST_CHUNK)) {
      const txRows = await db
        .selectFrom("utxo_transactions")
        .selectAll()
        .where("network", "=", network)
        .where("txid", "in", chunk)
        .execute();
      if (txRows.length === 0) continue;
      const found = txRows.map((r) => num(r.id));
      const outputRows = await outputsWithSpends().where("o.tx", "in", found).execute();
      const inputRows = await db.selectFrom("utxo_inputs").selectAll().where("tx", "in", found).execute();
      const outputs = new Map<number, Map<number, UtxoOutput>>();
      for (const row of outputRows) {
        const id = num(row.tx);
        let list = outputs.get(id);
        if (!list) {
          list = new Map();
          outputs.set(id, list);
        }
        const vout = num(row.vout);
        // A ledger of one chain spends an outpoint once; of conflicting spenders one is kept.
        if (list.has(vout)) continue;
        list.set(vout, { vout, address: row.address, value: num(row.value), spentBy: spendOf(row) });
      }
      const inputs = new Map<number, Array<UtxoInput & { vin: number }>>();
      for (const row of inputRows) {
        const id = num(row.tx);
        let list = inputs.get(id);
        if (!list) {
          list = [];
          inputs.set(id, list);
        }
        list.push({
          vin: num(row.vin),
          prevTxid: row.prev_txid,
          prevVout: numOrNull(row.prev_vout),
          address: row.address,
          value: num(row.value),
          coinbase: bool(row.coinbase),
        });
      }
      for (const row of txRows) {
        const id = num(row.id);
        out.push({
          network: row.network,
          txid: row.txid,
          block: numOrNull(row.block),
          blockHash: row.block_hash,
          occurredAt: num(row.occurred_at),
          position: num(row.position),
          coinbase: bool(row.coinbase),
          inputs: (inputs.get(id) ?? [])
            .sort((a, b) => a.vin - b.vin)
            .map(({ vin: _vin, ...input }) => input),
          outputs: [...(outputs.get(id)?.values() ?? [])].sort((a, b) => a.vout - b.vout),
        });
      }
    }
    return out;
  }

  /**
   * Per query, its rows of `part` (one ordered, limited subquery each) sorted by `order`, the
   * queries' rows in query order.
   */
  async function perAddress<Q>(
    queries: ReadonlyArray<Q>,
    limit: number,
    part: (q: Q) => ReturnType<typeof outputsWithSpends>,
    order: (a: OutputWithSpend, b: OutputWithSpend) => number,
  ): Promise<UtxoReceipt[]> {
    if (limit <= 0 || queries.length === 0) return [];
    const out: UtxoReceipt[] = [];
    for (const chunk of chunksOf(queries, FRONTIER_CHUNK)) {
      const parts = chunk.map((q, i) =>
        db
          .selectFrom(part(q).limit(limit).as(`q${i}`))
          .selectAll()
          .select(sql<number>`${sql.lit(i)}`.as("query_index")),
      );
      const [first, ...rest] = parts;
      if (!first) continue;
      const rows = await rest.reduce((all, p) => all.unionAll(p), first).execute();
      // UNION ALL promises no order: regroup by query, then order within each query.
      const groups: OutputWithSpend[][] = chunk.map(() => []);
      for (const row of rows) groups[num(row.query_index)]?.push(row);
      for (const group of groups) out.push(...group.sort(order).map(receiptOf));
    }
    return out;
  }

  return {
    utxoTransactions: (network, txids) => transactionsOf(network, txids),
    utxoReceived: (network, queries, limit) =>
      perAddress(
        queries,
        limit,
        (q) =>
          outputsWithSpends()
            .where("o.address", "=", q.address)
            .where("t.network", "=", network)
            .where("o.occurred_at", "<", q.before)
            .orderBy("o.occurred_at", "desc")
            .orderBy(sql`coalesce(t.block, -1)`, "desc")
            .orderBy("t.position", "desc")
            .orderBy(orderText(ctx, "t.txid"), "desc")
            .orderBy("o.vout", "desc"),
        (a, b) =>
          num(b.occurred_at) - num(a.occurred_at) ||
          (numOrNull(b.block) ?? -1) - (numOrNull(a.block) ?? -1) ||
          num(b.position) - num(a.position) ||
          compareText(b.txid, a.txid) ||
          num(b.vout) - num(a.vout),
      ),
    utxoSpentFrom: (network, queries, limit) =>
      perAddress(
        queries,
        limit,
        (q) =>
          outputsWithSpends()
            .where("o.address", "=", q.address)
            .where("t.network", "=", network)
            .where("st.occurred_at", ">", q.after)
            .orderBy("st.occurred_at", "asc")
            .orderBy(orderText(ctx, "st.txid"), "asc")
            .orderBy("s.vin", "asc"),
        (a, b) =>
          num(a.spent_at ?? 0) - num(b.spent_at ?? 0) ||
          compareText(a.spent_txid ?? "", b.spent_txid ?? "") ||
          num(a.spent_vin ?? 0) - num(b.spent_vin ?? 0),
      ),
    async putUtxoTransactions(txs) {
      if (txs.length === 0) return 0;
      for (const tx of txs) {
        const problem = utxoTransactionProblem(tx);
        if (problem !== null) throw new KytError("VALIDATION_ERROR", problem);
      }
      return ctx.atomic(async (trx) => {
        // A transaction stored before (or earlier in this call) is left whole as it is: only
        // the transaction rows inserted now (answered by RETURNING) get their outputs and inputs.
        const key = (network: string, txid: string) => `${network}\u0000${txid}`;
        const byKey = new Map<string, UtxoTransaction>();
        for (const tx of txs)
          if (!byKey.has(key(tx.network, tx.txid))) byKey.set(key(tx.network, tx.txid), tx);
        const outputs: Array<Insertable<UtxoOutputsTable>> = [];
        const inputs: Array<Insertable<UtxoInputsTable>> = [];
        let added = 0;
        for (const chunk of chunksOf([...byKey.values()], INSERT_CHUNK)) {
          const inserted = await trx
            .insertInto("utxo_transactions")
            .values(chunk.map(txRowOf))
            .onConflict((oc) => oc.columns(["txid", "network"]).doNothing())
            .returning(["id", "txid", "network"])
            .execute();
          added += inserted.length;
          for (const row of inserted) {
            const tx = byKey.get(key(row.network, row.txid));
            if (!tx) continue;
            const rows = childRowsOf(tx, num(row.id));
            outputs.push(...rows.outputs);
            inputs.push(...rows.inputs);
          }
        }
        for (const chunk of chunksOf(outputs, INSERT_CHUNK))
          await trx.insertInto("utxo_outputs").values(chunk).execute();
        for (const chunk of chunksOf(inputs, INSERT_CHUNK))
          await trx.insertInto("utxo_inputs").values(chunk).execute();
        return added;
      });
    },
    async deleteUtxoBlocksFrom(network, height) {
      return ctx.atomic((trx) =>
        removeAndRecordRewind(trx, ctx.dialect, { ledger: "utxo", network, fromHeight: height }, async () => {
          const doomed = trx
            .selectFrom("utxo_transactions")
            .select("id")
            .where("network", "=", network)
            .where("block", ">=", height);
          await trx.deleteFrom("utxo_inputs").where("tx", "in", doomed).execute();
          await trx.deleteFrom("utxo_outputs").where("tx", "in", doomed).execute();
          const result = await trx
            .deleteFrom("utxo_transactions")
            .where("network", "=", network)
            .where("block", ">=", height)
            .executeTakeFirst();
          return changedRows(result);
        }),
      );
    },
  };
}
