/**
 * Ledger rows as ClickHouse returns them (JSONEachRow), and the row helpers the writes and the
 * hops share: keys, duplicates removed by key, hop order.
 */
import type { LedgerTransfer } from "@openkyt/core";
import { LEDGER_COLUMNS } from "./ch-schema.js";

/** A ledger row as ClickHouse returns it (JSONEachRow, 64-bit integers unquoted); rows go in as RowBinary. */
export type LedgerRow = {
  network: string;
  tx_hash: string;
  log_index: number;
  token_id: string;
  from_address: string;
  to_address: string;
  amount: string;
  occurred_at: number;
  block_number: number | null;
  value_usd: string | null;
};

/** The ledger's columns as a SELECT list. */
export const SELECT_COLUMNS = LEDGER_COLUMNS.join(", ");

/** The key of a ledger row. */
export function keyOf(r: Pick<LedgerTransfer, "network" | "txHash" | "logIndex">): string {
  return `${r.network}\u0000${r.txHash}\u0000${r.logIndex}`;
}

/** The first row of each key, in order. */
export function firstByKey(rows: ReadonlyArray<LedgerTransfer>): LedgerTransfer[] {
  const seen = new Set<string>();
  const out: LedgerTransfer[] = [];
  for (const row of rows) {
    const key = keyOf(row);
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(row);
  }
  return out;
}
/** A returned row as a ledger transfer. */
export function fromRow(r: LedgerRow): LedgerTransfer {
  return {
    network: r.network,
    txHash: r.tx_hash,
    logIndex: Number(r.log_index),
    tokenId: r.token_id,
    from: r.from_address,
    to: r.to_address,
    amount: Number(r.amount),
    occurredAt: Number(r.occurred_at),
    block: r.block_number === null ? null : Number(r.block_number),
    valueUsd: r.value_usd === null ? null : Number(r.value_usd),
  };
}
