/**
 * A `ChainSource` over Ethereum JSON-RPC: resolves a transaction hash on one EVM network to its
 * native value transfer and its ERC-20 Transfer logs, once it has enough confirmations.
 */
import {
  type ChainLookup,
  type ChainSource,
  type Logger,
  type NetworkInfo,
  silentLogger,
  type TokenCatalog,
} from "@openkyt/core";
import {
  BlockNotFoundError,
  type Hash,
  type PublicClient,
  TransactionNotFoundError,
  TransactionReceiptNotFoundError,
} from "viem";
import { createEvmClient, type EvmConnectionOptions } from "./evm-connection.js";
import { toLedgerRows } from "./evm-ledger-rows.js";
import { assertSameNetwork, confirmationsOption, evmNetwork } from "./evm-network.js";
import { badAnswer, causedBy, rpcCall } from "./evm-rpc-errors.js";
import { createDecimalsResolver, type DecimalsResolver } from "./evm-token-decimals.js";
import { decodeErc20Transfer, decodeNativeTransfer, type RawTransfer } from "./evm-transfer-decoding.js";

/** Options of {@link createEvmChainSource}. */
export interface EvmChainSourceOptions extends EvmConnectionOptions {
  /** The EVM network code (core's NETWORKS) this source answers for; default "ETH". */
  readonly network?: string;
  /** Confirmations a transaction needs to be final, counting its own block; default 1 (mined). */
  readonly confirmations?: number;
  /** Token decimals; tokens it does not know are asked for `decimals()` on chain. */
  readonly tokens?: TokenCatalog;
  readonly logger?: Logger;
}

/** A chain source for one EVM network. */
export interface EvmChainSource extends ChainSource {
  /** The network code it answers for. */
  readonly network: string;
  readonly confirmations: number;
  /** The viem client it reads through. */
  readonly client: PublicClient;
}

const TX_HASH = /^0x[0-9a-f]{64}$/;

/**
 * Creates the chain source. `lookup(network, hash)` answers:
 * - `not_found` when the node does not know the hash (or it is not a 32-byte hex hash);
 * - `pending` while it is not mined, or its block has fewer than `confirmations` confirmations;
 * - `failed` when it is final and reverted (it moved nothing);
 * - `found` when it is final, with its transfers by logIndex: the native value (logIndex -1)
 *   and every ERC-20 Transfer log; zero-value transfers are left out.
 * Node failures throw CHAIN_ERROR; another network than the configured one throws NOT_CONFIGURED.
 */
export function createEvmChainSource(options: EvmChainSourceOptions = {}): EvmChainSource {
  const network = evmNetwork(options.network ?? "ETH");
  const confirmations = confirmationsOption(options.confirmations);
  const client = createEvmClient(options);
  const resolver = createDecimalsResolver({
    client,
    network,
    ...(options.tokens ? { tokens: options.tokens } : {}),
    logger: options.logger ?? silentLogger,
  });
  return Object.freeze({
    network: network.code,
    confirmations,
    client,
    async lookup(asked: string, txHash: string) {
      assertSameNetwork(network, asked);
      return lookupHash({ client, network, confirmations, resolver }, txHash.toLowerCase());
    },
  });
}

interface LookupDeps {
  readonly client: PublicClient;
  readonly network: NetworkInfo;
  readonly confirmations: number;
  readonly resolver: DecimalsResolver;
}

async function lookupHash(deps: LookupDeps, hash: string): Promise<ChainLookup> {
  const { client, network, confirmations } = deps;
  const code = network.code;
  if (!TX_HASH.test(hash)) return { kind: "not_found" };
  const tx = await orNull(code, "eth_getTransactionByHash", TransactionNotFoundError, () =>
    client.getTransaction({ hash: hash as Hash }),
  );
  if (!tx) return { kind: "not_found" };
  if (tx.hash?.toLowerCase() !== hash) throw badAnswer(code, `answered ${String(tx.hash)} for ${hash}`);
  if (tx.blockNumber === null) return { kind: "pending" };
  const receipt = await orNull(code, "eth_getTransactionReceipt", TransactionReceiptNotFoundError, () =>
    client.getTransactionReceipt({ hash: hash as Hash }),
  );
  if (!receipt) return { kind: "pending" };
  if (receipt.transactionHash?.toLowerCase() !== hash || typeof receipt.blockNumber !== "bigint") {
    throw badAnswer(code, `gave a receipt that is not the one of ${hash}`);
  }
  const head = await rpcCall(code, "eth_blockNumber", () => client.getBlockNumber({ cacheTime: 0 }));
  if (head - receipt.blockNumber + 1n < BigInt(confirmations)) return { kind: "pending" };
  if (receipt.status === "reverted") {
    return {
      kind: "failed",
      reason: `reverted in block ${receipt.blockNumber} (gas used ${receipt.gasUsed} of ${tx.gas})`,
    };
  }
  // By hash: the block the receipt names, so a reorganised-away block reads as not final yet.
  const block = await orNull(code, "eth_getBlockByHash", BlockNotFoundError, () =>
    client.getBlock({ blockHash: receipt.blockHash }),
  );
  if (!block) return { kind: "pending" };
  const occurredAt = Number(block.timestamp) * 1000;
  if (typeof tx.value !== "bigint" || typeof tx.from !== "string") {
    throw badAnswer(code, `gave a transaction ${hash} without sender or value`);
  }
  const native = decodeNativeTransfer({
    hash,
    from: tx.from,
    to: tx.to,
    value: tx.value,
    blockNumber: receipt.blockNumber,
    status: receipt.status,
    contractAddress: receipt.contractAddress ?? null,
  });
  const raws: RawTransfer[] = native ? [native] : [];
  for (const log of receipt.logs) {
    const decoded = decodeErc20Transfer(log);
    if (decoded) raws.push(decoded);
  }
  const transfers = await toLedgerRows(network, raws, () => occurredAt, deps.resolver);
  return { kind: "found", transfers };
}

/** Runs a node request; the given "not found" error class means null, any other failure CHAIN_ERROR. */
async function orNull<T>(
  network: string,
  what: string,
  notFound: abstract new (...args: never[]) => Error,
  call: () => Promise<T>,
): Promise<T | null> {
  return rpcCall(network, what, async () => {
    try {
      return await call();
    } catch (error) {
      if (causedBy(error, [notFound])) return null;
      throw error;
    }
  });
}
