/**
 * A `BlockSource` over a Tron full node's HTTP API for core's chain follower: each block by
 * number with its transactions; the TRX of successful TransferContracts from the block itself,
 * and the TRC-20 Transfer events of each successful smart-contract call from its info.
 */
import type { BlockBatch, BlockSource, LedgerTransfer, SourceBlock } from "@openkyt/core";
import { KytError } from "@openkyt/core";
import type { TronTransaction } from "./tron-answers.js";
import { type TronNode, type TronNodeOptions, tronNode } from "./tron-node.js";
import { decodeTrc20Logs, decodeTrxTransfer, failureOf, trc20Rows } from "./tron-transfer-decoding.js";

/** Options of {@link createTronBlockSource}. */
export interface TronBlockSourceOptions extends TronNodeOptions {
  /** Requests in flight at once; default 8. */
  readonly concurrency?: number;
}

/** A block source for TRX, with its node (for the start-up check). */
export interface TronBlockSource extends BlockSource {
  readonly node: TronNode;
}

/** Creates the block source. */
export function createTronBlockSource(options: TronBlockSourceOptions): TronBlockSource {
  const node = tronNode(options);
  const concurrency = options.concurrency ?? 8;
  const unknown = (contract: string) =>
    node.logger.warn({ network: "TRX", contract }, "TRC-20 token of unknown decimals left out");

  async function rowsOf(height: number, time: number, txs: ReadonlyArray<TronTransaction>) {
    const rows: LedgerTransfer[] = [];
    const calls = [];
    for (const tx of txs) {
      const trx = decodeTrxTransfer(tx, height, time);
      if (trx) rows.push(trx);
      if (tx.raw_data.contract[0]?.type === "TriggerSmartContract" && failureOf(tx, null) === null)
        calls.push(tx);
    }
    for (let i = 0; i < calls.length; i += concurrency) {
      const infos = await Promise.all(
        calls.slice(i, i + concurrency).map((tx) => node.transactionInfo(tx.txID)),
      );
      for (const [j, info] of infos.entries()) {
        const tx = calls[i + j];
        if (!tx) continue;
        if (info === null || info.blockNumber !== height) {
          throw new KytError(
            "CHAIN_ERROR",
            `TRX node: transaction ${tx.txID} of block ${height} has no info in it (a reorganisation?)`,
          );
        }
        rows.push(...(await trc20Rows(tx.txID, decodeTrc20Logs(info), height, time, node.tokens, unknown)));
      }
    }
    return rows;
  }

  return Object.freeze({
    network: "TRX",
    node,
    async head() {
      return (await node.nowBlock()).block_header.raw_data.number;
    },
    async blockHash(height: number) {
      return (await node.blockByNumber(height))?.blockID.toLowerCase() ?? null;
    },
    async readBlocks(from: number, to: number): Promise<BlockBatch> {
      const blocks: SourceBlock[] = [];
      const transfers: LedgerTransfer[] = [];
      for (let height = from; height <= to; height++) {
        const block = await node.blockByNumber(height);
        if (block === null || block.block_header.raw_data.number !== height) {
          throw new KytError("CHAIN_ERROR", `TRX node: block ${height} is missing from its answer`);
        }
        const raw = block.block_header.raw_data;
        blocks.push({
          height,
          hash: block.blockID.toLowerCase(),
          parentHash: raw.parentHash.toLowerCase(),
          time: raw.timestamp,
        });
        transfers.push(...(await rowsOf(height, raw.timestamp, block.transactions)));
      }
      return { blocks, transfers };
    },
  });
}
