/**
 * How a registered transfer binds to a UTXO transaction (Bitcoin, Litecoin). The published
 * interface names a transfer by `tx_hash` and `output_address`; a UTXO transaction may pay
 * that address several times and has many inputs, so:
 * - the bound outputs are every output of the transaction paying `output_address` (incoming:
 *   the user's deposit address; outgoing: the counterparty), and the amount is their sum;
 * - `input_address` is the address of the largest input (the first of equal ones), unless the
 *   registration named one, which must then be among the inputs' addresses;
 * - every input address is kept in the exposure answer (`inputAddresses`).
 * See docs/risk-model.md, "Bitcoin".
 */
import { NATIVE_TOKEN, networkInfo } from "./networks.js";
import type { LedgerTransfer } from "./records.js";
import { coinsFromSats, type UtxoTransaction } from "./utxo.js";

/** True for a network of the UTXO model (its address family is bitcoin or litecoin). */
export function isUtxoNetwork(network: string): boolean {
  const family = networkInfo(network)?.family;
  return family === "bitcoin" || family === "litecoin";
}

/** The address of the largest input of `tx` (the first of equal ones), or null when none names one. */
export function largestInputAddress(tx: UtxoTransaction): string | null {
  let best: { address: string; value: number } | null = null;
  for (const i of tx.inputs) {
    if (i.address === null) continue;
    if (best === null || i.value > best.value) best = { address: i.address, value: i.value };
  }
  return best?.address ?? null;
}

/** The distinct addresses of the inputs of `tx`, in input order. */
export function inputAddressesOf(tx: UtxoTransaction): string[] {
  return [...new Set(tx.inputs.flatMap((i) => (i.address === null ? [] : [i.address])))];
}

/**
 * The transfers a chain source lists for a UTXO transaction: one per output paying an address
 * (`logIndex` its vout, `from` the largest input's address or "" for a coinbase, `amount` in
 * coins with at most 8 decimals). Binding prefers the whole transaction when the source gives it.
 */
export function utxoLookupTransfers(tx: UtxoTransaction): LedgerTransfer[] {
  const from = largestInputAddress(tx) ?? "";
  return tx.outputs.flatMap((o) =>
    o.address === null
      ? []
      : [
          {
            network: tx.network,
            txHash: tx.txid,
            logIndex: o.vout,
            tokenId: NATIVE_TOKEN,
            from,
            to: o.address,
            amount: coinsFromSats(o.value),
            occurredAt: tx.occurredAt,
            block: tx.block,
            valueUsd: null,
          },
        ],
  );
}

/** What a transfer binds to: the summed outputs as one ledger row, or why it cannot bind. */
export type UtxoBindingOutcome =
  | { readonly kind: "bound"; readonly row: LedgerTransfer; readonly sats: number }
  | { readonly kind: "mismatch"; readonly reason: string };

/**
 * Binds a transfer of `tokenId` paying `outputAddress` (and, when given, sent from
 * `inputAddress`) to `tx`: a ledger row with the summed amount of the outputs paying
 * `outputAddress`, `from` the input address by the rule above, `logIndex` the first such vout.
 */
export function bindUtxoTransfer(
  tx: UtxoTransaction,
  transfer: {
    readonly tokenId: string;
    readonly outputAddress: string | null;
    readonly inputAddress: string | null;
  },
): UtxoBindingOutcome {
  if (transfer.tokenId !== NATIVE_TOKEN) {
    return { kind: "mismatch", reason: `a ${tx.network} transaction moves only the native coin` };
  }
  if (transfer.outputAddress === null) {
    return { kind: "mismatch", reason: "binding a UTXO transaction needs the output address" };
  }
  const paid = tx.outputs.filter((o) => o.address === transfer.outputAddress);
  if (paid.length === 0) {
    return { kind: "mismatch", reason: `the transaction pays nothing to ${transfer.outputAddress}` };
  }
  const inputs = inputAddressesOf(tx);
  if (transfer.inputAddress !== null && !inputs.includes(transfer.inputAddress)) {
    return {
      kind: "mismatch",
      reason: `${transfer.inputAddress} is not an input address of the transaction`,
    };
  }
  const sats = paid.reduce((s, o) => s + o.value, 0);
  return {
    kind: "bound",
    sats,
    row: {
      network: tx.network,
      txHash: tx.txid,
      logIndex: paid[0]!.vout,
      tokenId: NATIVE_TOKEN,
      from: transfer.inputAddress ?? largestInputAddress(tx) ?? "",
      to: transfer.outputAddress,
      amount: coinsFromSats(sats),
      occurredAt: tx.occurredAt,
      block: tx.block,
      valueUsd: null,
    },
  };
}

/**
 * The counterparty of an outgoing transfer known only by its sender (a manual check names the
 * client's own address): the address of the largest output paying none of the inputs'
 * addresses (change excluded), or null when every output returns to them.
 */
export function outgoingCounterparty(tx: UtxoTransaction): string | null {
  const own = new Set(inputAddressesOf(tx));
  let best: { address: string; value: number } | null = null;
  for (const o of tx.outputs) {
    if (o.address === null || own.has(o.address)) continue;
    if (best === null || o.value > best.value) best = { address: o.address, value: o.value };
  }
  return best?.address ?? null;
}
