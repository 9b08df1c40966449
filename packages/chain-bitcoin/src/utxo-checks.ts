/**
 * The checks every UTXO transaction passes before it is written, whatever format it came
 * from: a well-formed txid, at least one input and one output, outputs numbered 0..n-1, values
 * that are satoshi counts within the coin's supply, exactly one coinbase input in a coinbase
 * transaction and none elsewhere, and totals that reconcile: a transaction that is not a
 * coinbase pays out at most what its inputs bring in (the rest is its fee).
 */
import { isSats, type UtxoTransaction } from "@openkyt/core";

/** Bitcoin's MAX_MONEY: 21 million coins in satoshis; no value or total may exceed it. */
export const MAX_MONEY = 2_100_000_000_000_000;

const TXID = /^[0-9a-f]{64}$/;

/** Why `tx` cannot be written, or null when it passes every check. */
export function utxoTransactionProblem(tx: UtxoTransaction): string | null {
  if (!TXID.test(tx.txid)) return `txid "${tx.txid}" is not 64 lower-case hex characters`;
  if (tx.inputs.length === 0) return `transaction ${tx.txid} has no inputs`;
  if (tx.outputs.length === 0) return `transaction ${tx.txid} has no outputs`;
  let inSum = 0;
  let coinbaseInputs = 0;
  for (const [i, input] of tx.inputs.entries()) {
    if (input.coinbase) {
      coinbaseInputs++;
      continue;
    }
    if (input.prevTxid === null || !TXID.test(input.prevTxid) || input.prevVout === null)
      return `input ${i} of ${tx.txid} names no spent outpoint`;
    if (!Number.isInteger(input.prevVout) || input.prevVout < 0 || input.prevVout > 0xffffffff)
      return `input ${i} of ${tx.txid} spends output index ${input.prevVout}`;
    if (!isSats(input.value) || input.value > MAX_MONEY)
      return `input ${i} of ${tx.txid} has value ${input.value}, not a satoshi count up to 21 million coins`;
    inSum += input.value;
  }
  if (tx.coinbase !== coinbaseInputs > 0)
    return tx.coinbase
      ? `coinbase transaction ${tx.txid} has no coinbase input`
      : `transaction ${tx.txid} has a coinbase input but is not a coinbase`;
  if (tx.coinbase && tx.inputs.length !== 1)
    return `coinbase transaction ${tx.txid} has ${tx.inputs.length} inputs`;
  let outSum = 0;
  for (const [i, output] of tx.outputs.entries()) {
    if (output.vout !== i) return `output ${i} of ${tx.txid} is numbered ${output.vout}`;
    if (!isSats(output.value) || output.value > MAX_MONEY)
      return `output ${i} of ${tx.txid} has value ${output.value}, not a satoshi count up to 21 million coins`;
    outSum += output.value;
  }
  if (inSum > MAX_MONEY || outSum > MAX_MONEY)
    return `transaction ${tx.txid} moves more than 21 million coins`;
  if (!tx.coinbase && inSum < outSum)
    return `transaction ${tx.txid} pays out ${outSum} sat but its inputs bring in ${inSum} sat`;
  return null;
}

/** Outputs of `tx` that pay no address (OP_RETURN, bare multisig, non-standard scripts). */
export function outputsWithoutAddress(tx: UtxoTransaction): number {
  let n = 0;
  for (const output of tx.outputs) if (output.address === null) n++;
  return n;
}
