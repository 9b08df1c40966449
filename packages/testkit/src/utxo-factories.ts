/**
 * UTXO transactions for tests: a transaction from its inputs (outpoints with address and value)
 * and outputs (address and value), with valid defaults for the rest.
 */
import type { UtxoInput, UtxoTransaction } from "@openkyt/core";
import { BASE_TIME, randomId } from "./store-factories.js";

/** A random txid (64 lower-case hex characters). */
export function randomTxid(): string {
  return `${randomId()}${randomId()}`.replaceAll("-", "").slice(0, 64);
}

/** A txid made from a number, for readable fixtures (`txidOf(1)` is `000...0001`). */
export function txidOf(n: number): string {
  return n.toString(16).padStart(64, "0");
}

/** An input spending `txid:vout`, which paid `address` the value `value` (satoshis). */
export function spend(txid: string, vout: number, address: string | null, value: number): UtxoInput {
  return { prevTxid: txid, prevVout: vout, address, value, coinbase: false };
}

/** The coinbase input. */
export const COINBASE_INPUT: UtxoInput = Object.freeze({
  prevTxid: null,
  prevVout: null,
  address: null,
  value: 0,
  coinbase: true,
});

/** What {@link makeUtxoTransaction} takes: outputs as [address, value] pairs, the rest optional. */
export interface UtxoTransactionSpec {
  readonly txid?: string;
  readonly network?: string;
  readonly block?: number | null;
  readonly blockHash?: string | null;
  readonly occurredAt?: number;
  readonly position?: number;
  readonly inputs?: ReadonlyArray<UtxoInput>;
  readonly outputs: ReadonlyArray<readonly [string | null, number]>;
}

/**
 * A BTC transaction (default: a random txid, block 100 at BASE_TIME, position 1, and a coinbase
 * input when `inputs` is left out). Outputs get vout 0, 1, ... in order and no `spentBy`.
 */
export function makeUtxoTransaction(spec: UtxoTransactionSpec): UtxoTransaction {
  const inputs = spec.inputs ?? [COINBASE_INPUT];
  return {
    network: spec.network ?? "BTC",
    txid: spec.txid ?? randomTxid(),
    block: spec.block === undefined ? 100 : spec.block,
    blockHash: spec.blockHash === undefined ? null : spec.blockHash,
    occurredAt: spec.occurredAt ?? BASE_TIME,
    position: spec.position ?? 1,
    coinbase: inputs.some((i) => i.coinbase),
    inputs: inputs.map((i) => ({ ...i })),
    outputs: spec.outputs.map(([address, value], vout) => ({ vout, address, value, spentBy: null })),
  };
}
