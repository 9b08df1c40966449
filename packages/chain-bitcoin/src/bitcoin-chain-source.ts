/**
 * A `ChainSource` over Bitcoin Core JSON-RPC (bcoin's node answers the same methods): resolves
 * a txid to the whole UTXO transaction (`found.utxo`) and its transfers once its block has
 * enough confirmations. What it asks: `getrawtransaction <txid> true` (the block it is in and
 * its bytes; a transaction outside the wallet and the mempool needs the node's `-txindex`),
 * `getblockhash <height>` (is that block still on the best chain?), `getblock <hash> 1` (height,
 * time, the transaction's index in it) and `getrawtransaction <prev> false` for the outputs its
 * inputs spent.
 */
import { type ChainLookup, type ChainSource, KytError } from "@openkyt/core";
import { type BitcoinChainKind, type BitcoinParams, bitcoinParams } from "./bitcoin-params.js";
import { type BitcoinRpc, type BitcoinRpcOptions, createBitcoinRpc, rpcOrNull } from "./bitcoin-rpc.js";
import { arrayAt, countAt, FieldProblem, hashAt, isObject, objectAt } from "./json-fields.js";
import { resolvePrevouts, transactionOfHex, utxoTransactionOfRaw } from "./node-transactions.js";
import { utxoTransactionProblem } from "./utxo-checks.js";
import { transfersOfUtxo } from "./utxo-transfers.js";

/** Options of {@link createBitcoinChainSource}. */
export interface BitcoinChainSourceOptions extends Partial<BitcoinRpcOptions> {
  /** `BTC` (default) or `LTC`. */
  readonly network?: string;
  /** The node's chain: main (default), test or regtest; decides address prefixes. */
  readonly chain?: BitcoinChainKind;
  /** Address prefixes to use instead (bcoin's regtest writes segwit addresses with `rb`). */
  readonly params?: BitcoinParams;
  /** Confirmations a transaction needs to be final, counting its own block; default 1. */
  readonly confirmations?: number;
  /** A JSON-RPC client to use instead of one made from `url` (tests, a shared connection). */
  readonly rpc?: BitcoinRpc;
}

/** A chain source for one UTXO network. */
export interface BitcoinChainSource extends ChainSource {
  readonly network: string;
  readonly confirmations: number;
  readonly params: BitcoinParams;
}

const TXID = /^[0-9a-f]{64}$/;

/** The address parameters and JSON-RPC client of options. */
export function nodeOf(options: BitcoinChainSourceOptions): { params: BitcoinParams; rpc: BitcoinRpc } {
  const params = options.params ?? bitcoinParams(options.network ?? "BTC", options.chain ?? "main");
  if (options.rpc) return { params, rpc: options.rpc };
  if (options.url === undefined)
    throw new KytError(
      "NOT_CONFIGURED",
      "a Bitcoin chain source needs the node's RPC url (or an rpc client)",
    );
  return { params, rpc: createBitcoinRpc({ ...options, url: options.url, network: params.network }) };
}

/** Confirmations as an option: a whole number >= 1. */
export function confirmationsOption(value: number | undefined): number {
  const n = value ?? 1;
  if (!Number.isSafeInteger(n) || n < 1)
    throw new KytError("VALIDATION_ERROR", "confirmations: must be a whole number >= 1", {
      errors: { confirmations: ["must be a whole number >= 1"] },
    });
  return n;
}

/** A node answer that is not what its method returns. */
function badAnswer(network: string, method: string, error: unknown): KytError {
  return new KytError("CHAIN_ERROR", `${network} node: ${method} answered ${(error as Error).message}`, {
    cause: error,
  });
}

/**
 * Creates the chain source. `lookup(network, txid)` answers:
 * - `not_found` when the node does not know the txid (or it is not 64 hex characters);
 * - `pending` while it is in the mempool, its block has fewer than `confirmations`
 *   confirmations, or its block is no longer on the best chain (a reorg replaced it: it may be
 *   mined again);
 * - `found` with the whole transaction (`utxo`) and one transfer per output paying an address.
 * A Bitcoin transaction in a block cannot fail, so `failed` is never answered. Node failures
 * throw CHAIN_ERROR; another network than the configured one throws NOT_CONFIGURED.
 */
export function createBitcoinChainSource(options: BitcoinChainSourceOptions): BitcoinChainSource {
  const { params, rpc } = nodeOf(options);
  const confirmations = confirmationsOption(options.confirmations);
  const network = params.network;
  return Object.freeze({
    network,
    confirmations,
    params,
    async lookup(asked: string, txHash: string): Promise<ChainLookup> {
      if (asked.trim().toUpperCase() !== network)
        throw new KytError("NOT_CONFIGURED", `this chain source answers for ${network}, not ${asked}`);
      const txid = txHash.toLowerCase();
      if (!TXID.test(txid)) return { kind: "not_found" };
      const verbose = await rpcOrNull(rpc, network, "getrawtransaction", [txid, true]);
      if (verbose === null) return { kind: "not_found" };
      let blockHash: string | null;
      let hex: unknown;
      try {
        const tx = objectAt(verbose, "transaction");
        if (hashAt(tx.txid, "txid") !== txid)
          throw new FieldProblem(`transaction ${String(tx.txid)} for ${txid}`);
        blockHash = typeof tx.blockhash === "string" ? hashAt(tx.blockhash, "blockhash") : null;
        hex = tx.hex;
      } catch (error) {
        throw badAnswer(network, "getrawtransaction", error);
      }
      if (blockHash === null) return { kind: "pending" };
      const block = await rpcOrNull(rpc, network, "getblock", [blockHash, 1]);
      if (block === null) return { kind: "pending" };
      let height: number;
      let time: number;
      let position: number;
      try {
        const b = objectAt(block, "block");
        height = countAt(b.height, "height");
        time = countAt(b.time, "time");
        position = arrayAt(b.tx, "tx").findIndex((t) => (isObject(t) ? t.txid : t) === txid);
        if (position < 0) throw new FieldProblem(`a block ${blockHash} without ${txid}`);
      } catch (error) {
        throw badAnswer(network, "getblock", error);
      }
      // On the best chain? A block a reorg replaced is still known to the node, off the chain.
      const best = await rpcOrNull(rpc, network, "getblockhash", [height]);
      if (best !== blockHash) return { kind: "pending" };
      const tip = countAt(await rpc("getblockcount", []), "getblockcount");
      if (tip - height + 1 < confirmations) return { kind: "pending" };
      const raw = transactionOfHex(hex, network, `getrawtransaction ${txid}`);
      if (raw.txid !== txid)
        throw new KytError("CHAIN_ERROR", `${network} node: its hex of ${txid} is ${raw.txid}`);
      const prevouts = await resolvePrevouts([raw], { rpc, params });
      const utxo = utxoTransactionOfRaw(
        raw,
        { block: height, blockHash, occurredAt: time * 1000, position },
        params,
        prevouts,
      );
      const problem = utxoTransactionProblem(utxo);
      if (problem !== null) throw new KytError("CHAIN_ERROR", `${network} node: ${problem}`);
      return { kind: "found", transfers: transfersOfUtxo(utxo), utxo };
    },
  });
}
