/**
 * A `ChainSource` over a Tron full node's HTTP API: a transaction id resolves to its TRX transfer
 * and its TRC-20 Transfer events once its block has enough confirmations.
 */
import { type ChainLookup, type ChainSource, fieldError, KytError } from "@openkyt/core";
import { type TronNode, type TronNodeOptions, tronNode } from "./tron-node.js";
import { decodeTrc20Logs, decodeTrxTransfer, failureOf, trc20Rows } from "./tron-transfer-decoding.js";

/** Options of {@link createTronChainSource}. */
export interface TronChainSourceOptions extends TronNodeOptions {
  /** Confirmations a transaction needs, counting its own block; default 1 (in a block). */
  readonly confirmations?: number;
}

/** A chain source for TRX, with its node (for the start-up check). */
export interface TronChainSource extends ChainSource {
  readonly node: TronNode;
}

const TX_ID = /^[0-9a-f]{64}$/;

/**
 * Creates the source. `lookup("TRX", txId)` answers `not_found` for an unknown id, `pending`
 * while it is in no block or has fewer than `confirmations`, `failed` when it failed (a
 * reverted TRC-20 transfer: REVERT, OUT_OF_ENERGY, ...), else `found` with its transfers. Node
 * failures and nonsense throw CHAIN_ERROR; another network throws NOT_CONFIGURED.
 */
export function createTronChainSource(options: TronChainSourceOptions): TronChainSource {
  const confirmations = options.confirmations ?? 1;
  if (!Number.isSafeInteger(confirmations) || confirmations < 1)
    throw fieldError("confirmations", "must be a whole number >= 1");
  const node = tronNode(options);
  const unknown = (contract: string) =>
    node.logger.warn({ network: "TRX", contract }, "TRC-20 token of unknown decimals left out");
  return Object.freeze({
    node,
    async lookup(network: string, txHash: string): Promise<ChainLookup> {
      if (network !== "TRX") {
        throw new KytError("NOT_CONFIGURED", `this Tron chain source answers for TRX only, not ${network}`);
      }
      const id = txHash.toLowerCase();
      if (!TX_ID.test(id)) return { kind: "not_found" };
      const tx = await node.transaction(id);
      if (tx === null) return { kind: "not_found" };
      const info = await node.transactionInfo(id);
      if (info === null) return { kind: "pending" };
      const head = (await node.nowBlock()).block_header.raw_data.number;
      if (head - info.blockNumber + 1 < confirmations) return { kind: "pending" };
      const failure = failureOf(tx, info);
      if (failure !== null) return { kind: "failed", reason: `the transaction failed on chain (${failure})` };
      const time = info.blockTimeStamp;
      const trx = decodeTrxTransfer(tx, info.blockNumber, time);
      const tokens = await trc20Rows(id, decodeTrc20Logs(info), info.blockNumber, time, node.tokens, unknown);
      return { kind: "found", transfers: [...(trx ? [trx] : []), ...tokens] };
    },
  });
}
