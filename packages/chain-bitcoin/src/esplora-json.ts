/**
 * An Esplora transaction object (the answer of `GET /tx/:txid`, and each element of
 * `GET /block/:hash/txs`) as a UTXO transaction. Values are satoshis already; every input of a
 * transaction that is not a coinbase must carry its `prevout` (Esplora always gives it; a
 * missing one is an unknown prevout and rejects the transaction). Esplora does not give a
 * transaction's index in its block: the caller passes it (for a file, the order of the block's
 * transactions in it, as `/block/:hash/txs` lists them).
 */
import type { UtxoInput, UtxoOutput, UtxoTransaction } from "@openkyt/core";
import type { BitcoinParams } from "./bitcoin-params.js";
import {
  arrayAt,
  countAt,
  FieldProblem,
  hashAt,
  hexAt,
  isObject,
  normalAddress,
  objectAt,
} from "./json-fields.js";
import { addressOfScript } from "./output-address.js";

/** The address of an Esplora output object: `scriptpubkey_address`, else its script decoded. */
function addressOf(
  out: Readonly<Record<string, unknown>>,
  path: string,
  params: BitcoinParams,
): string | null {
  if (typeof out.scriptpubkey_address === "string") return normalAddress(out.scriptpubkey_address);
  if (out.scriptpubkey === undefined) return null;
  return addressOfScript(hexAt(out.scriptpubkey, `${path}.scriptpubkey`), params);
}

function esploraInput(value: unknown, path: string, params: BitcoinParams): UtxoInput {
  const vin = objectAt(value, path);
  if (vin.is_coinbase === true)
    return { prevTxid: null, prevVout: null, address: null, value: 0, coinbase: true };
  const prevTxid = hashAt(vin.txid, `${path}.txid`);
  const prevVout = countAt(vin.vout, `${path}.vout`);
  if (!isObject(vin.prevout))
    throw new FieldProblem(`${path} spends ${prevTxid}:${prevVout}, an unknown prevout (no "prevout")`);
  return {
    prevTxid,
    prevVout,
    address: addressOf(vin.prevout, `${path}.prevout`, params),
    value: countAt(vin.prevout.value, `${path}.prevout.value`),
    coinbase: false,
  };
}

function esploraOutput(value: unknown, vout: number, path: string, params: BitcoinParams): UtxoOutput {
  const out = objectAt(value, path);
  return {
    vout,
    address: addressOf(out, path, params),
    value: countAt(out.value, `${path}.value`),
    spentBy: null,
  };
}

/** The block an Esplora transaction's `status` names; an unconfirmed transaction throws. */
export function esploraBlockOf(value: unknown): {
  readonly height: number;
  readonly hash: string;
  readonly time: number;
} {
  const tx = objectAt(value, "transaction");
  const status = objectAt(tx.status, "status");
  if (status.confirmed !== true)
    throw new FieldProblem("status.confirmed is not true: only mined transactions are imported");
  return {
    height: countAt(status.block_height, "status.block_height"),
    hash: hashAt(status.block_hash, "status.block_hash"),
    time: countAt(status.block_time, "status.block_time"),
  };
}

/**
 * Decodes one Esplora transaction at `position` in its block. Numbers may be JSON numbers or
 * their text (as `parseJsonKeepingNumbers` gives them); a field that is missing or malformed
 * throws a `FieldProblem` naming it.
 */
export function esploraTransaction(value: unknown, position: number, params: BitcoinParams): UtxoTransaction {
  const tx = objectAt(value, "transaction");
  const txid = hashAt(tx.txid, "txid");
  const block = esploraBlockOf(tx);
  const inputs = arrayAt(tx.vin, "vin").map((v, i) => esploraInput(v, `vin[${i}]`, params));
  const outputs = arrayAt(tx.vout, "vout").map((v, i) => esploraOutput(v, i, `vout[${i}]`, params));
  return {
    network: params.network,
    txid,
    block: block.height,
    blockHash: block.hash,
    occurredAt: block.time * 1000,
    position,
    coinbase: inputs.some((i) => i.coinbase),
    inputs,
    outputs,
  };
}
