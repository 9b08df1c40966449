/**
 * The account-model view of a UTXO transaction that a chain source's `found` answer carries
 * beside the whole transaction: one transfer per output that pays an address, `logIndex` its
 * vout, `from` the transaction's input address. The input address is the address of the input
 * of largest value (the first of them on a tie; inputs without an address are passed over);
 * a coinbase, and a transaction none of whose inputs has an address, have the empty string.
 */
import { coinsFromSats, type LedgerTransfer, type UtxoTransaction } from "@openkyt/core";

/** The input address of `tx` (see the module comment). */
export function inputAddressOf(tx: UtxoTransaction): string {
  let best: { address: string; value: number } | null = null;
  for (const input of tx.inputs) {
    if (input.coinbase || input.address === null) continue;
    if (best === null || input.value > best.value) best = { address: input.address, value: input.value };
  }
  return best?.address ?? "";
}

/** One transfer per output of `tx` that pays an address, in vout order. */
export function transfersOfUtxo(tx: UtxoTransaction): LedgerTransfer[] {
  const from = inputAddressOf(tx);
  return tx.outputs
    .filter((o) => o.address !== null)
    .map((o) =>
      Object.freeze({
        network: tx.network,
        txHash: tx.txid,
        logIndex: o.vout,
        tokenId: "native",
        from,
        to: o.address as string,
        amount: coinsFromSats(o.value),
        occurredAt: tx.occurredAt,
        block: tx.block,
        valueUsd: null,
      }),
    );
}
