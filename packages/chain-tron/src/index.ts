/**
 * @openkyt/chain-tron: a live Tron chain source for OpenKYT over a full node's HTTP API, and a
 * block source for core's chain follower (TRX transfers and TRC-20 Transfer events, addresses in
 * Base58Check). See the package README.
 */

export {
  tronBase58ToHex,
  tronHexToBase58,
  tronLogAddressToBase58,
  tronWordToBase58,
} from "./tron-address.js";
export { unitsToNumber } from "./tron-amounts.js";
export type { TronBlock, TronTransaction, TronTransactionInfo } from "./tron-answers.js";
export {
  createTronBlockSource,
  type TronBlockSource,
  type TronBlockSourceOptions,
} from "./tron-block-source.js";
export {
  createTronChainSource,
  type TronChainSource,
  type TronChainSourceOptions,
} from "./tron-chain-source.js";
export { type TronConnectionOptions, type TronRequest, tronRequester } from "./tron-http.js";
export { TRON_MAINNET_GENESIS, type TronNode, type TronNodeOptions, tronNode } from "./tron-node.js";
export {
  decodeTrc20Logs,
  decodeTrxTransfer,
  failureOf,
  KNOWN_TRC20_DECIMALS,
  type RawTrc20Transfer,
  TRANSFER_TOPIC,
  TRX_LOG_INDEX,
  trc20Rows,
} from "./tron-transfer-decoding.js";
