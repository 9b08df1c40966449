/**
 * UTXO transactions as rows of the ClickHouse tables (ch-utxo-schema.ts) and back. A null
 * address is `''` and a coinbase input's outpoint is `('', -1)` in the tables (sorting keys
 * hold no Nullable); reads turn them back into nulls.
 */
import type { UtxoInput, UtxoOutput, UtxoTransaction } from "@openkyt/core";

/**
 * A `utxo_tx` row as inserted and returned (JSONEachRow, 64-bit integers unquoted). Row shapes
 * are type aliases, not interfaces, so they pass as the client's `Record<string, unknown>` rows.
 */
export type TxRow = {
  network: string;
  txid: string;
  block: number | null;
  block_hash: string | null;
  occurred_at: number;
  position: number;
  coinbase: number;
  seq: number;
};

/** A `utxo_out` / `utxo_addr_out` row. */
export type OutRow = {
  network: string;
  txid: string;
  vout: number;
  address: string;
  value: number;
  occurred_at: number;
  block: number | null;
  position: number;
  seq: number;
};

/** A `utxo_in` / `utxo_spend` / `utxo_addr_in` row. */
export type InRow = {
  network: string;
  txid: string;
  vin: number;
  prev_txid: string;
  prev_vout: number;
  address: string;
  value: number;
  coinbase: number;
  occurred_at: number;
  block: number | null;
  seq: number;
};

/** The rows of one transaction, every one stamped with the write's `seq`. */
export function rowsOfTransaction(
  tx: UtxoTransaction,
  seq: number,
): { tx: TxRow; outputs: OutRow[]; inputs: InRow[] } {
  const { network, txid, block, occurredAt, position } = tx;
  return {
    tx: {
      network,
      txid,
      block,
      block_hash: tx.blockHash,
      occurred_at: occurredAt,
      position,
      coinbase: tx.coinbase ? 1 : 0,
      seq,
    },
    outputs: tx.outputs.map((o) => ({
      network,
      txid,
      vout: o.vout,
      address: o.address ?? "",
      value: o.value,
      occurred_at: occurredAt,
      block,
      position,
      seq,
    })),
    inputs: tx.inputs.map((i, vin) => ({
      network,
      txid,
      vin,
      prev_txid: i.prevTxid ?? "",
      prev_vout: i.prevVout ?? -1,
      address: i.address ?? "",
      value: i.value,
      coinbase: i.coinbase ? 1 : 0,
      occurred_at: occurredAt,
      block,
      seq,
    })),
  };
}

/** An input row as an input of the domain. */
export function inputOf(row: InRow): UtxoInput {
  const coinbase = Number(row.coinbase) === 1;
  return {
    prevTxid: row.prev_txid === "" ? null : row.prev_txid,
    prevVout: Number(row.prev_vout) < 0 ? null : Number(row.prev_vout),
    address: row.address === "" ? null : row.address,
    value: Number(row.value),
    coinbase,
  };
}

/** An output row as an output of the domain (`spentBy` filled by the caller). */
export function outputOf(row: OutRow): UtxoOutput {
  return {
    vout: Number(row.vout),
    address: row.address === "" ? null : row.address,
    value: Number(row.value),
    spentBy: null,
  };
}

/** A header row and its inputs and outputs as a transaction (`spentBy` filled by the caller). */
export function transactionOf(
  row: TxRow,
  inputs: ReadonlyArray<UtxoInput>,
  outputs: ReadonlyArray<UtxoOutput>,
): UtxoTransaction {
  return {
    network: row.network,
    txid: row.txid,
    block: row.block === null ? null : Number(row.block),
    blockHash: row.block_hash,
    occurredAt: Number(row.occurred_at),
    position: Number(row.position),
    coinbase: Number(row.coinbase) === 1,
    inputs,
    outputs,
  };
}

/** The key of an outpoint. */
export function outpoint(txid: string, vout: number): string {
  return `${txid}:${vout}`;
}
