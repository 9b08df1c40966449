/**
 * A `BlockSource` over Bitcoin Core JSON-RPC (bcoin answers the same methods), for core's chain
 * follower: blocks read raw (`getblockhash`, `getblock <hash> 0`), each transaction as a UTXO
 * transaction whose inputs are resolved from the same batch, the UTXO ledger, then the node
 * (`getrawtransaction <txid> false`: the node's `-txindex`). The follower writes them with the
 * followed blocks in one store transaction and undoes them after a reorganisation.
 */
import {
  type BlockBatch,
  type BlockSource,
  KytError,
  type SourceBlock,
  type UtxoLedgerReader,
  type UtxoTransaction,
} from "@openkyt/core";
import { type BitcoinChainSourceOptions, nodeOf } from "./bitcoin-chain-source.js";
import type { BitcoinParams } from "./bitcoin-params.js";
import { type BitcoinRpc, rpcOrNull } from "./bitcoin-rpc.js";
import { bytesOfHex } from "./byte-reader.js";
import { countAt, hashAt } from "./json-fields.js";
import { resolvePrevouts, utxoTransactionOfRaw } from "./node-transactions.js";
import { parseBlock, type RawBlock } from "./raw-block.js";
import { utxoTransactionProblem } from "./utxo-checks.js";

/** Options of {@link createBitcoinBlockSource}. */
export interface BitcoinBlockSourceOptions extends Omit<BitcoinChainSourceOptions, "confirmations"> {
  /** The UTXO ledger the blocks go into: looked in for spent outputs before the node is asked. */
  readonly ledger?: Pick<UtxoLedgerReader, "utxoTransactions">;
}

/** A block source for one UTXO network. */
export interface BitcoinBlockSource extends BlockSource {
  readonly params: BitcoinParams;
  readonly rpc: BitcoinRpc;
}

/** Creates the block source. Nothing is asked of the node until a member is called. */
export function createBitcoinBlockSource(options: BitcoinBlockSourceOptions): BitcoinBlockSource {
  const { params, rpc } = nodeOf(options);
  const network = params.network;
  const { ledger } = options;

  async function blockHash(height: number): Promise<string | null> {
    const hash = await rpcOrNull(rpc, network, "getblockhash", [height]);
    return hash === null ? null : hashAt(hash, "getblockhash");
  }

  async function rawBlock(hash: string): Promise<RawBlock> {
    const hex = await rpc("getblock", [hash, 0]);
    const bytes = typeof hex === "string" ? bytesOfHex(hex) : null;
    if (bytes === null) throw new KytError("CHAIN_ERROR", `${network} node: getblock ${hash} 0 is not hex`);
    const block = parseBlock(bytes);
    if (block.header.hash !== hash)
      throw new KytError("CHAIN_ERROR", `${network} node: getblock ${hash} gave block ${block.header.hash}`);
    return block;
  }

  /** The ledger's transactions with these txids, and those of this batch not written yet. */
  async function ledgerOrBatch(ids: ReadonlyArray<string>, batch: ReadonlyArray<UtxoTransaction>) {
    const wanted = new Set(ids);
    const fromBatch = batch.filter((t) => wanted.has(t.txid));
    for (const t of fromBatch) wanted.delete(t.txid);
    const held = wanted.size === 0 || !ledger ? [] : await ledger.utxoTransactions(network, [...wanted]);
    return [...fromBatch, ...held];
  }

  return Object.freeze({
    network,
    params,
    rpc,
    async head() {
      return countAt(await rpc("getblockcount", []), "getblockcount");
    },
    blockHash,
    async readBlocks(from: number, to: number): Promise<BlockBatch> {
      const blocks: SourceBlock[] = [];
      const txs: UtxoTransaction[] = [];
      for (let height = from; height <= to; height++) {
        const hash = await blockHash(height);
        if (hash === null)
          throw new KytError(
            "CHAIN_ERROR",
            `${network} node: no block ${height} (the chain moved); read again`,
          );
        const block = await rawBlock(hash);
        const parent = blocks[blocks.length - 1];
        if (parent !== undefined && block.header.prevHash !== parent.hash)
          throw new KytError(
            "CHAIN_ERROR",
            `${network} node: block ${height} does not follow ${parent.hash} (the chain moved); read again`,
          );
        const prevouts = await resolvePrevouts(
          block.transactions.filter((t) => !t.coinbase),
          { rpc, params, ledger: { utxoTransactions: (_n, ids) => ledgerOrBatch(ids, txs) } },
        );
        block.transactions.forEach((raw, position) => {
          const tx = utxoTransactionOfRaw(
            raw,
            { block: height, blockHash: hash, occurredAt: block.header.time * 1000, position },
            params,
            prevouts,
          );
          const problem = utxoTransactionProblem(tx);
          if (problem !== null) throw new KytError("CHAIN_ERROR", `${network} block ${height}: ${problem}`);
          txs.push(tx);
        });
        blocks.push({ height, hash, parentHash: block.header.prevHash, time: block.header.time * 1000 });
      }
      return { blocks, transfers: [], utxoTransactions: txs };
    },
  });
}
