/**
 * Bitcoin Core's `getblock <hash> 3` answer (verbosity 3: every input carries its `prevout`)
 * as UTXO transactions. Amounts are decimal BTC (`"value": 0.00015000`): the answer must be
 * parsed with `parseJsonKeepingNumbers` so each arrives as its text and becomes satoshis
 * exactly, never through a float. An input without a `prevout` (a verbosity 2 answer, or a
 * node without undo data for it) is unknown, and its transaction is rejected.
 */
import { satsFromCoinText, type UtxoInput, type UtxoOutput, type UtxoTransaction } from "@openkyt/core";
import type { BitcoinParams } from "./bitcoin-params.js";
import {
  arrayAt,
  countAt,
  FieldProblem,
  hashAt,
  hexAt,
  isObject,
  type JsonObject,
  normalAddress,
  objectAt,
} from "./json-fields.js";
import { addressOfScript } from "./output-address.js";

/** One transaction of a block answer: decoded, or why not (named by txid when it has one). */
export type DecodedTx =
  | { readonly tx: UtxoTransaction }
  | { readonly txid: string | null; readonly problem: string };

/** A decoded block answer. */
export interface DecodedBlock {
  readonly hash: string;
  readonly height: number;
  readonly transactions: ReadonlyArray<DecodedTx>;
}

/** Satoshis of a BTC amount written as a decimal (a JSON number's text or a string). */
export function satsOfCoinField(value: unknown, path: string): number {
  const sats = typeof value === "string" ? satsFromCoinText(value) : null;
  if (sats === null) {
    const shown =
      typeof value === "number"
        ? `${value} (a float: parse with parseJsonKeepingNumbers)`
        : JSON.stringify(value);
    throw new FieldProblem(`${path} is not an amount in coins with at most 8 decimals (got ${shown})`);
  }
  return sats;
}

/**
 * The address a `scriptPubKey` object pays: its `address` (Core 22+) or single `addresses`
 * entry (older Core), else its `hex` decoded with `params` (a P2PK key as its P2PKH address);
 * null when it pays none.
 */
export function addressOfScriptPubKey(value: unknown, path: string, params: BitcoinParams): string | null {
  const spk = objectAt(value, path);
  if (typeof spk.address === "string") return normalAddress(spk.address);
  if (Array.isArray(spk.addresses) && spk.addresses.length === 1 && typeof spk.addresses[0] === "string")
    return normalAddress(spk.addresses[0]);
  if (spk.hex === undefined) return null;
  return addressOfScript(hexAt(spk.hex, `${path}.hex`), params);
}

function coreInput(value: unknown, path: string, params: BitcoinParams): UtxoInput {
  const vin = objectAt(value, path);
  if (vin.coinbase !== undefined)
    return { prevTxid: null, prevVout: null, address: null, value: 0, coinbase: true };
  const prevTxid = hashAt(vin.txid, `${path}.txid`);
  const prevVout = countAt(vin.vout, `${path}.vout`);
  if (!isObject(vin.prevout)) {
    throw new FieldProblem(
      `${path} spends ${prevTxid}:${prevVout}, an unknown prevout (no "prevout": the answer of getblock <hash> 3 gives it)`,
    );
  }
  const prevout = vin.prevout;
  return {
    prevTxid,
    prevVout,
    address: addressOfScriptPubKey(prevout.scriptPubKey, `${path}.prevout.scriptPubKey`, params),
    value: satsOfCoinField(prevout.value, `${path}.prevout.value`),
    coinbase: false,
  };
}

function coreOutput(value: unknown, index: number, path: string, params: BitcoinParams): UtxoOutput {
  const vout = objectAt(value, path);
  const n = vout.n === undefined ? index : countAt(vout.n, `${path}.n`);
  return {
    vout: n,
    address: addressOfScriptPubKey(vout.scriptPubKey, `${path}.scriptPubKey`, params),
    value: satsOfCoinField(vout.value, `${path}.value`),
    spentBy: null,
  };
}

/** Where a transaction sits: its block, the block's time and its index in the block. */
export interface TxPlace {
  readonly block: number | null;
  readonly blockHash: string | null;
  readonly occurredAt: number;
  readonly position: number;
}

/** One transaction object of Core's verbose answers (`getblock` 2/3, `getrawtransaction` 2). */
export function coreTransaction(
  value: unknown,
  place: TxPlace,
  params: BitcoinParams,
  path = "tx",
): UtxoTransaction {
  const tx = objectAt(value, path);
  const txid = hashAt(tx.txid, `${path}.txid`);
  const inputs = arrayAt(tx.vin, `${path}.vin`).map((v, i) => coreInput(v, `${path}.vin[${i}]`, params));
  const outputs = arrayAt(tx.vout, `${path}.vout`).map((v, i) =>
    coreOutput(v, i, `${path}.vout[${i}]`, params),
  );
  return {
    network: params.network,
    txid,
    ...place,
    coinbase: inputs.some((i) => i.coinbase),
    inputs,
    outputs,
  };
}

function txidOf(value: unknown): string | null {
  return isObject(value) && typeof value.txid === "string" ? value.txid : null;
}

/** A block answer (or a JSON-RPC envelope `{ "result": ... }` around one) as transactions. */
export function decodeCoreBlock(answer: unknown, params: BitcoinParams): DecodedBlock {
  const outer = objectAt(answer, "block");
  const block: JsonObject = isObject(outer.result) ? outer.result : outer;
  const hash = hashAt(block.hash, "hash");
  const height = countAt(block.height, "height");
  const occurredAt = countAt(block.time, "time") * 1000;
  const txs = arrayAt(block.tx, "tx");
  const transactions = txs.map((value, position): DecodedTx => {
    try {
      return {
        tx: coreTransaction(
          value,
          { block: height, blockHash: hash, occurredAt, position },
          params,
          `tx[${position}]`,
        ),
      };
    } catch (error) {
      if (error instanceof FieldProblem) return { txid: txidOf(value), problem: error.message };
      throw error;
    }
  });
  return { hash, height, transactions };
}
