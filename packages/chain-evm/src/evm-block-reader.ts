/**
 * Reads a range of blocks into ledger rows: every successful transaction's native value and
 * every ERC-20 Transfer log (`eth_getLogs` over the whole range), timed by their blocks.
 */
import { type BlockBatch, KytError, type LedgerTransfer, type NetworkInfo } from "@openkyt/core";
import {
  type Block,
  type Hash,
  MethodNotFoundRpcError,
  MethodNotSupportedRpcError,
  type PublicClient,
  type Transaction,
} from "viem";
import { toLedgerRows } from "./evm-ledger-rows.js";
import { causedBy, chainError, rpcCall } from "./evm-rpc-errors.js";
import type { DecimalsResolver } from "./evm-token-decimals.js";
import {
  decodeErc20Transfer,
  decodeNativeTransfer,
  ERC20_TRANSFER_EVENT,
  type RawTransfer,
} from "./evm-transfer-decoding.js";

/** Collaborators of {@link readBlockRange}. */
export interface BlockReaderDeps {
  readonly client: PublicClient;
  readonly network: NetworkInfo;
  readonly resolver: DecimalsResolver;
  /** Blocks fetched at once; default 8. */
  readonly concurrency?: number;
}

type FullBlock = Block<bigint, true, "latest">;

/**
 * The ledger rows of blocks `from`..`to` (inclusive). Throws CHAIN_ERROR when the node fails,
 * or when a block changed while the range was read (a reorganisation): nothing is half-read.
 */
export async function readBlockRange(
  deps: BlockReaderDeps,
  from: bigint,
  to: bigint,
): Promise<LedgerTransfer[]> {
  return [...(await readBlockBatch(deps, from, to)).transfers];
}

/**
 * Blocks `from`..`to` (inclusive) with their hashes and ledger rows, as a chain follower reads
 * them (see `BlockSource.readBlocks`). Throws CHAIN_ERROR as {@link readBlockRange} does.
 */
export async function readBlockBatch(deps: BlockReaderDeps, from: bigint, to: bigint): Promise<BlockBatch> {
  const { client, network } = deps;
  const code = network.code;
  const logs = await rpcCall(code, `eth_getLogs ${from}-${to}`, () =>
    client.getLogs({ event: ERC20_TRANSFER_EVENT, fromBlock: from, toBlock: to }),
  );
  const numbers: bigint[] = [];
  for (let n = from; n <= to; n += 1n) numbers.push(n);
  const blocks = await inChunks(numbers, deps.concurrency ?? 8, (n) =>
    rpcCall(code, `eth_getBlockByNumber ${n}`, () =>
      client.getBlock({ blockNumber: n, includeTransactions: true }),
    ),
  );
  const byNumber = new Map<number, FullBlock>(blocks.map((b) => [Number(b.number), b]));
  const raws: RawTransfer[] = [];
  for (const block of blocks) raws.push(...(await nativeTransfers(deps, block)));
  for (const log of logs) {
    const decoded = decodeErc20Transfer(log);
    if (!decoded) continue;
    if (byNumber.get(decoded.block)?.hash !== log.blockHash) throw reorganised(code, from, to);
    raws.push(decoded);
  }
  const timeOf = (n: number) => Number(byNumber.get(n)?.timestamp ?? 0n) * 1000;
  const transfers = await toLedgerRows(network, raws, timeOf, deps.resolver);
  return {
    blocks: blocks.map((b) => ({
      height: Number(b.number),
      hash: b.hash,
      parentHash: b.parentHash,
      time: Number(b.timestamp) * 1000,
    })),
    transfers,
  };
}

/** The native transfers of a block's successful transactions that carry value. */
async function nativeTransfers(deps: BlockReaderDeps, block: FullBlock): Promise<RawTransfer[]> {
  const valued = block.transactions.filter((tx) => tx.value > 0n);
  if (valued.length === 0) return [];
  const receipts = await receiptsOf(deps, block, valued);
  const out: RawTransfer[] = [];
  for (const tx of valued) {
    const receipt = receipts.get(tx.hash.toLowerCase());
    if (!receipt) throw reorganised(deps.network.code, block.number, block.number);
    const native = decodeNativeTransfer({
      hash: tx.hash,
      from: tx.from,
      to: tx.to,
      value: tx.value,
      blockNumber: block.number,
      status: receipt.status,
      contractAddress: receipt.contractAddress ?? null,
    });
    if (native) out.push(native);
  }
  return out;
}

interface ReceiptFacts {
  readonly status: "success" | "reverted";
  readonly contractAddress: string | null | undefined;
  readonly blockHash: Hash;
}

/**
 * Receipts of a block by lower-case tx hash: `eth_getBlockReceipts` in one call, or one
 * `eth_getTransactionReceipt` per transaction on nodes without it.
 */
async function receiptsOf(
  deps: BlockReaderDeps,
  block: FullBlock,
  txs: ReadonlyArray<Transaction>,
): Promise<Map<string, ReceiptFacts>> {
  const { client, network } = deps;
  let receipts: ReadonlyArray<ReceiptFacts & { transactionHash: Hash }>;
  try {
    receipts = await client.getBlockReceipts({ blockHash: block.hash });
  } catch (error) {
    if (!causedBy(error, [MethodNotFoundRpcError, MethodNotSupportedRpcError])) {
      throw chainError(network.code, `eth_getBlockReceipts ${block.number}`, error);
    }
    receipts = await inChunks(txs, deps.concurrency ?? 8, (tx) =>
      rpcCall(network.code, `eth_getTransactionReceipt ${tx.hash}`, () =>
        client.getTransactionReceipt({ hash: tx.hash }),
      ),
    );
  }
  if (receipts.some((r) => r.blockHash !== block.hash))
    throw reorganised(network.code, block.number, block.number);
  return new Map(receipts.map((r) => [r.transactionHash.toLowerCase(), r]));
}

function reorganised(network: string, from: bigint, to: bigint): KytError {
  return new KytError(
    "CHAIN_ERROR",
    `${network} node: blocks ${from}-${to} changed while they were read (a reorganisation); read them again`,
  );
}

/** Maps `items` with at most `size` calls in flight, keeping their order. */
async function inChunks<T, R>(
  items: ReadonlyArray<T>,
  size: number,
  fn: (item: T) => Promise<R>,
): Promise<R[]> {
  const out: R[] = [];
  for (let i = 0; i < items.length; i += size) {
    out.push(...(await Promise.all(items.slice(i, i + size).map(fn))));
  }
  return out;
}
