/**
 * Raw transactions read from a node, as UTXO transactions: the outputs their inputs spent are
 * looked up where they are cheapest to find: earlier in the same block, then in the UTXO ledger
 * (when the caller has one), then on the node (`getrawtransaction <txid> false`, which needs
 * the node's transaction index for coins the wallet does not know).
 */
import {
  KytError,
  outpointKey,
  type UtxoInput,
  type UtxoLedgerReader,
  type UtxoOutput,
  type UtxoTransaction,
} from "@openkyt/core";
import type { BitcoinParams } from "./bitcoin-params.js";
import { type BitcoinRpc, rpcOrNull } from "./bitcoin-rpc.js";
import { ByteReader, bytesOfHex } from "./byte-reader.js";
import { addressOfScript } from "./output-address.js";
import { type RawTransaction, readTransaction } from "./raw-block.js";
import { MAX_MONEY } from "./utxo-checks.js";

/** An output as an input sees it: who it paid and how much. */
export interface KnownOutput {
  readonly address: string | null;
  readonly value: number;
}

/** Where a transaction sits in the chain. */
export interface ChainPlace {
  readonly block: number;
  readonly blockHash: string;
  readonly occurredAt: number;
  readonly position: number;
}

function sats(value: bigint, what: string): number {
  if (value < 0n || value > BigInt(MAX_MONEY))
    throw new RangeError(`${what} has value ${value}, out of range`);
  return Number(value);
}

/** The outputs of a raw transaction as {@link KnownOutput}s. */
export function knownOutputs(tx: RawTransaction, params: BitcoinParams): KnownOutput[] {
  return tx.outputs.map((o, n) => ({
    address: addressOfScript(o.script, params),
    value: sats(o.value, `output ${n} of ${tx.txid}`),
  }));
}

/** A raw transaction from a node's hex; a hex that is not one transaction is a CHAIN_ERROR. */
export function transactionOfHex(hex: unknown, network: string, what: string): RawTransaction {
  const bytes = typeof hex === "string" ? bytesOfHex(hex) : null;
  if (bytes === null) throw new KytError("CHAIN_ERROR", `${network} node: ${what} is not hex`);
  try {
    const reader = new ByteReader(bytes);
    const tx = readTransaction(reader);
    if (reader.left !== 0) throw new Error(`${reader.left} bytes after the transaction`);
    return tx;
  } catch (error) {
    throw new KytError(
      "CHAIN_ERROR",
      `${network} node: ${what} is not a transaction: ${(error as Error).message}`,
      {
        cause: error,
      },
    );
  }
}

/** What resolving prevouts needs. */
export interface PrevoutSources {
  readonly rpc: BitcoinRpc;
  readonly params: BitcoinParams;
  /** The UTXO ledger to look in before asking the node; none: the node only. */
  readonly ledger?: Pick<UtxoLedgerReader, "utxoTransactions">;
}

/**
 * The outputs the inputs of `txs` spend, by `txid:vout`: from `txs` themselves (a block spends
 * its own outputs), the ledger, then the node. An outpoint found nowhere is a CHAIN_ERROR.
 */
export async function resolvePrevouts(
  txs: ReadonlyArray<RawTransaction>,
  sources: PrevoutSources,
): Promise<Map<string, KnownOutput>> {
  const { params } = sources;
  const network = params.network;
  const known = new Map<string, KnownOutput>();
  const inBlock = new Map<string, RawTransaction>(txs.map((t) => [t.txid, t]));
  const wanted = new Set<string>();
  for (const tx of txs) {
    if (tx.coinbase) continue;
    for (const input of tx.inputs) {
      const parent = inBlock.get(input.prevTxid);
      const out = parent?.outputs[input.prevVout];
      if (parent && out) {
        known.set(outpointKey(input.prevTxid, input.prevVout), {
          address: addressOfScript(out.script, params),
          value: sats(out.value, `output ${input.prevVout} of ${parent.txid}`),
        });
      } else {
        wanted.add(input.prevTxid);
      }
    }
  }
  if (wanted.size > 0 && sources.ledger) {
    for (const parent of await sources.ledger.utxoTransactions(network, [...wanted])) {
      for (const o of parent.outputs)
        known.set(outpointKey(parent.txid, o.vout), { address: o.address, value: o.value });
      wanted.delete(parent.txid);
    }
  }
  for (const txid of wanted) {
    const hex = await rpcOrNull(sources.rpc, network, "getrawtransaction", [txid, false]);
    if (hex === null) {
      throw new KytError(
        "CHAIN_ERROR",
        `${network} node: does not know transaction ${txid}, whose output an input spends (start the node with -txindex)`,
      );
    }
    const parent = transactionOfHex(hex, network, `getrawtransaction ${txid}`);
    if (parent.txid !== txid)
      throw new KytError("CHAIN_ERROR", `${network} node: answered ${parent.txid} for ${txid}`);
    knownOutputs(parent, params).forEach((o, n) => {
      known.set(outpointKey(txid, n), o);
    });
  }
  return known;
}

/** A raw transaction as a UTXO transaction; every input's outpoint must be in `prevouts`. */
export function utxoTransactionOfRaw(
  tx: RawTransaction,
  place: ChainPlace,
  params: BitcoinParams,
  prevouts: ReadonlyMap<string, KnownOutput>,
): UtxoTransaction {
  const inputs: UtxoInput[] = tx.coinbase
    ? [{ prevTxid: null, prevVout: null, address: null, value: 0, coinbase: true }]
    : tx.inputs.map((input) => {
        const spent = prevouts.get(outpointKey(input.prevTxid, input.prevVout));
        if (spent === undefined) {
          throw new KytError(
            "CHAIN_ERROR",
            `${params.network}: ${tx.txid} spends ${input.prevTxid}:${input.prevVout}, an output the node's transaction does not have`,
          );
        }
        return {
          prevTxid: input.prevTxid,
          prevVout: input.prevVout,
          address: spent.address,
          value: spent.value,
          coinbase: false,
        };
      });
  const outputs: UtxoOutput[] = knownOutputs(tx, params).map((o, vout) => ({ vout, ...o, spentBy: null }));
  return { network: params.network, txid: tx.txid, ...place, coinbase: tx.coinbase, inputs, outputs };
}
