/**
 * The UTXO ledger of the kysely store (tables of migration 0030). A hop of a trace is three
 * statements per 500 txids (transactions, outputs with their spending inputs, inputs); an
 * address read is one UNION ALL per 200 addresses, each address its own ordered, limited
 * subquery, as the account ledger's hops (`kysely-ledger.ts`).
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
import { type Insertable, type Selectable, sql } from "kysely";
import { changedRows, type KyselyContext, orderText } from "./kysely-context.js";
import { FRONTIER_CHUNK } from "./kysely-ledger.js";
import { removeAndRecordRewind } from "./kysely-rewinds.js";
import type { UtxoInputsTable, UtxoOutputsTable, UtxoTransactionsTable } from "./kysely-schema.js";
import { bool, boolColumn, chunksOf, IN_LIST_CHUNK, INSERT_CHUNK, num, numOrNull } from "./kysely-values.js";

/** An output row with the input that spent it (left join: null columns while unspent). */
type OutputWithSpend = Selectable<UtxoOutputsTable> & {
  spent_txid: string | null;
  spent_vin: number | string | null;
  spent_at: number | string | null;
};

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

/** The rows of one transaction. */
function rowsOf(tx: UtxoTransaction): {
  tx: Insertable<UtxoTransactionsTable>;
  outputs: Array<Insertable<UtxoOutputsTable>>;
  inputs: Array<Insertable<UtxoInputsTable>>;
} {
  const { network, txid, block, occurredAt, position } = tx;
  return {
    tx: {
      txid,
      network,
      block,
      block_hash: tx.blockHash,
      occurred_at: occurredAt,
      position,
      coinbase: boolColumn(tx.coinbase),
    },
    outputs: tx.outputs.map((o) => ({
      txid,
      network,
      vout: o.vout,
      address: o.address,
      value: o.value,
      occurred_at: occurredAt,
      block,
      position,
    })),
    inputs: tx.inputs.map((i, vin) => ({
      txid,
      network,
      vin,
      prev_txid: i.prevTxid,
      prev_vout: i.prevVout,
      address: i.address,
      value: i.value,
      coinbase: boolColumn(i.coinbase),
      occurred_at: occurredAt,
    })),
  };
}

/** Creates the UTXO ledger members over `ctx`. */
export function kyselyUtxoOps(ctx: KyselyContext): UtxoLedgerStore {
  const { db } = ctx;

  /** Outputs joined with the input that spent each (the base of every output read). */
  const outputsWithSpends = () =>
    db
      .selectFrom("utxo_outputs as o")
      .leftJoin("utxo_inputs as s", (join) =>
        join
          .onRef("s.prev_txid", "=", "o.txid")
          .onRef("s.network", "=", "o.network")
          .onRef("s.prev_vout", "=", "o.vout"),
      )
      .selectAll("o")
      .select(["s.txid as spent_txid", "s.vin as spent_vin", "s.occurred_at as spent_at"]);

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
      const found = txRows.map((r) => r.txid);
      const outputRows = await outputsWithSpends()
        .where("o.network", "=", network)
        .where("o.txid", "in", found)
        .execute();
      const inputRows = await db
        .selectFrom("utxo_inputs")
        .selectAll()
        .where("network", "=", network)
        .where("txid", "in", found)
        .execute();
      const outputs = new Map<string, Map<number, UtxoOutput>>();
      for (const row of outputRows) {
        let list = outputs.get(row.txid);
        if (!list) {
          list = new Map();
          outputs.set(row.txid, list);
        }
        const vout = num(row.vout);
        // A ledger of one chain spends an outpoint once; of conflicting spenders one is kept.
        if (list.has(vout)) continue;
        list.set(vout, { vout, address: row.address, value: num(row.value), spentBy: spendOf(row) });
      }
      const inputs = new Map<string, Array<UtxoInput & { vin: number }>>();
      for (const row of inputRows) {
        let list = inputs.get(row.txid);
        if (!list) {
          list = [];
          inputs.set(row.txid, list);
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
        out.push({
          network: row.network,
          txid: row.txid,
          block: numOrNull(row.block),
          blockHash: row.block_hash,
          occurredAt: num(row.occurred_at),
          position: num(row.position),
          coinbase: bool(row.coinbase),
          inputs: (inputs.get(row.txid) ?? [])
            .sort((a, b) => a.vin - b.vin)
            .map(({ vin: _vin, ...input }) => input),
          outputs: [...(outputs.get(row.txid)?.values() ?? [])].sort((a, b) => a.vout - b.vout),
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
            .where("o.network", "=", network)
            .where("o.occurred_at", "<", q.before)
            .orderBy("o.occurred_at", "desc")
            .orderBy(sql`coalesce(o.block, -1)`, "desc")
            .orderBy("o.position", "desc")
            .orderBy(orderText(ctx, "o.txid"), "desc")
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
            .where("o.network", "=", network)
            .where("s.occurred_at", ">", q.after)
            .orderBy("s.occurred_at", "asc")
            .orderBy(orderText(ctx, "s.txid"), "asc")
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
        // Each table ignores rows already stored, so a transaction stored before (or earlier in
        // this call) is left whole as it is; only the transactions' rows count as new.
        const seen = new Set<string>();
        const rows = txs
          .filter((tx) => {
            const key = `${tx.network}\u0000${tx.txid}`;
            if (seen.has(key)) return false;
            seen.add(key);
            return true;
          })
          .map(rowsOf);
        let added = 0;
        for (const chunk of chunksOf(
          rows.map((r) => r.tx),
          INSERT_CHUNK,
        )) {
          const result = await trx
            .insertInto("utxo_transactions")
            .values(chunk)
            .onConflict((oc) => oc.columns(["txid", "network"]).doNothing())
            .executeTakeFirstOrThrow();
          added += changedRows(result);
        }
        for (const chunk of chunksOf(
          rows.flatMap((r) => r.outputs),
          INSERT_CHUNK,
        )) {
          await trx
            .insertInto("utxo_outputs")
            .values(chunk)
            .onConflict((oc) => oc.columns(["txid", "network", "vout"]).doNothing())
            .execute();
        }
        for (const chunk of chunksOf(
          rows.flatMap((r) => r.inputs),
          INSERT_CHUNK,
        )) {
          await trx
            .insertInto("utxo_inputs")
            .values(chunk)
            .onConflict((oc) => oc.columns(["txid", "network", "vin"]).doNothing())
            .execute();
        }
        return added;
      });
    },
    async deleteUtxoBlocksFrom(network, height) {
      return ctx.atomic((trx) =>
        removeAndRecordRewind(trx, ctx.dialect, { ledger: "utxo", network, fromHeight: height }, async () => {
          const doomed = trx
            .selectFrom("utxo_transactions")
            .select("txid")
            .where("network", "=", network)
            .where("block", ">=", height);
          await trx
            .deleteFrom("utxo_inputs")
            .where("network", "=", network)
            .where("txid", "in", doomed)
            .execute();
          await trx
            .deleteFrom("utxo_outputs")
            .where("network", "=", network)
            .where("txid", "in", doomed)
            .execute();
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
