/**
 * @openkyt/chain-evm: a live EVM chain source for OpenKYT over JSON-RPC (viem), and a block
 * ingestor that feeds the ledger. See the package README for confirmations, the logIndex of
 * native transfers, amount precision and the ingestor's cursor.
 */

export { unitsToNumber } from "./evm-amounts.js";
export {
  type BlockIngestor,
  type BlockIngestorOptions,
  createBlockIngestor,
  type IngestRun,
  ingestorCursorKey,
} from "./evm-block-ingestor.js";
export { type BlockReaderDeps, readBlockBatch, readBlockRange } from "./evm-block-reader.js";
export { createEvmBlockSource, type EvmBlockSource, type EvmBlockSourceOptions } from "./evm-block-source.js";
export { createEvmChainSource, type EvmChainSource, type EvmChainSourceOptions } from "./evm-chain-source.js";
export {
  createEvmClient,
  DEFAULT_RPC_RETRY,
  DEFAULT_RPC_TIMEOUT_MS,
  type EvmConnectionOptions,
  type RpcRetry,
} from "./evm-connection.js";
export { toLedgerRows } from "./evm-ledger-rows.js";
export { evmNetwork } from "./evm-network.js";
export { checkEvmNode } from "./evm-node-check.js";
export { chainError } from "./evm-rpc-errors.js";
export {
  createDecimalsResolver,
  type DecimalsResolver,
  type DecimalsResolverDeps,
} from "./evm-token-decimals.js";
export {
  decodeErc20Transfer,
  decodeNativeTransfer,
  ERC20_TRANSFER_EVENT,
  NATIVE_LOG_INDEX,
  type NativeMoveLike,
  type RawTransfer,
  TRANSFER_TOPIC,
  type TransferLogLike,
} from "./evm-transfer-decoding.js";
