/** Small builders for UTXO tracing tests: transactions by name, a ledger over them, BTC labels. */
import type { Attribution } from "../../src/domain/records.js";
import type { UtxoInput, UtxoTransaction } from "../../src/domain/utxo.js";
import { UtxoIndex } from "../../src/exposure/utxo-index.js";
import type { UtxoLedgerReader } from "../../src/ports/utxo-ledger.js";

/** A txid from a short name (hex of its characters, padded): readable in failures. */
export function txid(name: string): string {
  return [...name]
    .map((c) => c.charCodeAt(0).toString(16).padStart(2, "0"))
    .join("")
    .padStart(64, "0");
}

/** An input spending output `vout` of the transaction named `tx`, which paid `address` `value` sats. */
export function coin(tx: string, vout: number, address: string | null, value: number): UtxoInput {
  return { prevTxid: txid(tx), prevVout: vout, address, value, coinbase: false };
}

/** A BTC transaction named `name` at time `at` (its block too): outputs as [address, sats] pairs. */
export function btx(
  name: string,
  at: number,
  inputs: ReadonlyArray<UtxoInput> | "coinbase",
  outputs: ReadonlyArray<readonly [string | null, number]>,
): UtxoTransaction {
  const coinbase = inputs === "coinbase";
  return {
    network: "BTC",
    txid: txid(name),
    block: at,
    blockHash: null,
    occurredAt: at,
    position: coinbase ? 0 : 1,
    coinbase,
    inputs: coinbase
      ? [{ prevTxid: null, prevVout: null, address: null, value: 0, coinbase: true }]
      : [...inputs],
    outputs: outputs.map(([address, value], vout) => ({ vout, address, value, spentBy: null })),
  };
}

/** A reader over `txs`, counting its calls. */
export function utxoLedgerOf(
  txs: ReadonlyArray<UtxoTransaction>,
): UtxoLedgerReader & { calls: number; index: UtxoIndex } {
  const index = new UtxoIndex();
  index.add(txs);
  const reader = {
    calls: 0,
    index,
    async utxoTransactions(network: string, ids: ReadonlyArray<string>) {
      reader.calls++;
      return index.transactions(network, ids);
    },
    async utxoReceived(network: string, queries: Parameters<UtxoIndex["received"]>[1], limit: number) {
      reader.calls++;
      return index.received(network, queries, limit);
    },
    async utxoSpentFrom(network: string, queries: Parameters<UtxoIndex["spentFrom"]>[1], limit: number) {
      reader.calls++;
      return index.spentFrom(network, queries, limit);
    },
  };
  return reader;
}

/** The stored form of `tx` (outputs' spentBy filled) from a ledger. */
export function held(index: UtxoIndex, tx: UtxoTransaction): UtxoTransaction {
  const [found] = index.transactions(tx.network, [tx.txid]);
  if (!found) throw new Error(`transaction ${tx.txid} not held`);
  return found;
}

/** An attribution of a BTC address. */
export function battr(
  address: string,
  entityCategory: string,
  entityName = `${entityCategory}-${address}`,
): Attribution {
  return { network: "BTC", address, entityName, entityCategory, source: "test" };
}
