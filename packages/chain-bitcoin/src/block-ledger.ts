/**
 * A raw block with its undo data, as UTXO transactions: every input gets the address and value
 * of the output it spent (from the undo), every output the address its script pays. The block's
 * height is the one its coinbase states (BIP34) unless the caller knows it.
 */
import type { UtxoInput, UtxoOutput, UtxoTransaction } from "@openkyt/core";
import type { BitcoinParams } from "./bitcoin-params.js";
import type { BlockSpends } from "./block-undo.js";
import { UndoMismatchError } from "./block-undo.js";
import { addressOfScript } from "./output-address.js";
import { coinbaseHeight, type RawBlock } from "./raw-block.js";
import { MAX_MONEY } from "./utxo-checks.js";

/** Options of {@link utxoTransactionsOfBlock}. */
export interface BlockLedgerOptions {
  readonly params: BitcoinParams;
  /** The block's height when the caller knows it; default: the height its coinbase states (BIP34). */
  readonly height?: number;
}

/** A value read from a block or undo as a satoshi count; out of range throws, naming `what`. */
function satsOf(value: bigint, what: string): number {
  if (value < 0n || value > BigInt(MAX_MONEY))
    throw new RangeError(`${what} has value ${value}, out of range`);
  return Number(value);
}

/** The height of `block`: given, or from its coinbase; a block that states none throws. */
export function heightOfBlock(block: RawBlock, given?: number): number {
  if (given !== undefined) return given;
  const first = block.transactions[0];
  const height = first === undefined ? null : coinbaseHeight(first);
  if (height === null) {
    throw new Error(
      `block ${block.header.hash} states no height in its coinbase (blocks before BIP34 do not): give its height`,
    );
  }
  return height;
}

/**
 * The block's transactions, in block order, with `spends` (the block's undo) supplying every
 * input's address and value. `spends` must be the block's: a count that differs throws
 * {@link UndoMismatchError}.
 */
export function utxoTransactionsOfBlock(
  block: RawBlock,
  spends: BlockSpends,
  options: BlockLedgerOptions,
): UtxoTransaction[] {
  const { params } = options;
  const height = heightOfBlock(block, options.height);
  const occurredAt = block.header.time * 1000;
  const out: UtxoTransaction[] = [];
  let spending = 0;
  block.transactions.forEach((raw, position) => {
    let inputs: UtxoInput[];
    if (raw.coinbase) {
      inputs = [{ prevTxid: null, prevVout: null, address: null, value: 0, coinbase: true }];
    } else {
      const spent = spends[spending++];
      if (spent === undefined || spent.length !== raw.inputs.length) {
        throw new UndoMismatchError(
          `undo does not fit block ${block.header.hash}: transaction ${raw.txid} has ${raw.inputs.length} inputs, the undo ${spent?.length ?? "no entry"}`,
        );
      }
      inputs = raw.inputs.map((input, i) => {
        const coin = spent[i] as (typeof spent)[number];
        return {
          prevTxid: input.prevTxid,
          prevVout: input.prevVout,
          address: addressOfScript(coin.script, params),
          value: satsOf(coin.value, `the output input ${i} of ${raw.txid} spends`),
          coinbase: false,
        };
      });
    }
    const outputs: UtxoOutput[] = raw.outputs.map((o, vout) => ({
      vout,
      address: addressOfScript(o.script, params),
      value: satsOf(o.value, `output ${vout} of ${raw.txid}`),
      spentBy: null,
    }));
    out.push({
      network: params.network,
      txid: raw.txid,
      block: height,
      blockHash: block.header.hash,
      occurredAt,
      position,
      coinbase: raw.coinbase,
      inputs,
      outputs,
    });
  });
  if (spending !== spends.length) {
    throw new UndoMismatchError(
      `undo does not fit block ${block.header.hash}: it has ${spends.length} transactions' spends, the block ${spending}`,
    );
  }
  return out;
}
