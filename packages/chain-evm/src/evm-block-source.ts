/**
 * A `BlockSource` over Ethereum JSON-RPC for core's chain follower (`createChainFollower`): the
 * head, block hashes, and ranges of blocks with their native and ERC-20 transfers (the reader
 * the block ingestor uses).
 */
import { type BlockSource, type Logger, silentLogger, type TokenCatalog } from "@openkyt/core";
import { BlockNotFoundError, type PublicClient } from "viem";
import { readBlockBatch } from "./evm-block-reader.js";
import { createEvmClient, type EvmConnectionOptions } from "./evm-connection.js";
import { evmNetwork } from "./evm-network.js";
import { causedBy, chainError, rpcCall } from "./evm-rpc-errors.js";
import { createDecimalsResolver } from "./evm-token-decimals.js";

/** Options of {@link createEvmBlockSource}. */
export interface EvmBlockSourceOptions extends EvmConnectionOptions {
  /** The EVM network code; default "ETH". */
  readonly network?: string;
  /** Token decimals; tokens it does not know are asked for `decimals()` on chain. */
  readonly tokens?: TokenCatalog;
  readonly logger?: Logger;
  /** Blocks fetched at once; default 8. */
  readonly concurrency?: number;
}

/** A block source for one EVM network. */
export interface EvmBlockSource extends BlockSource {
  /** The viem client it reads through. */
  readonly client: PublicClient;
}

/** Creates the block source. Node failures throw CHAIN_ERROR. */
export function createEvmBlockSource(options: EvmBlockSourceOptions = {}): EvmBlockSource {
  const network = evmNetwork(options.network ?? "ETH");
  const client = createEvmClient(options);
  const resolver = createDecimalsResolver({
    client,
    network,
    ...(options.tokens ? { tokens: options.tokens } : {}),
    logger: options.logger ?? silentLogger,
  });
  const code = network.code;
  return Object.freeze({
    network: code,
    client,
    async head() {
      return Number(await rpcCall(code, "eth_blockNumber", () => client.getBlockNumber({ cacheTime: 0 })));
    },
    async blockHash(height: number) {
      try {
        const block = await client.getBlock({ blockNumber: BigInt(height) });
        return block.hash;
      } catch (error) {
        if (causedBy(error, [BlockNotFoundError])) return null;
        throw chainError(code, `eth_getBlockByNumber ${height}`, error);
      }
    },
    readBlocks(from: number, to: number) {
      return readBlockBatch(
        { client, network, resolver, ...(options.concurrency ? { concurrency: options.concurrency } : {}) },
        BigInt(from),
        BigInt(to),
      );
    },
  });
}
