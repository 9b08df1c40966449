/**
 * @openkyt/chain-bitcoin: Bitcoin and Litecoin for OpenKYT. Output scripts to addresses,
 * raw blocks with their undo data, Bitcoin Core's `getblock <hash> 3` answers and Esplora
 * transactions to UTXO transactions; a chain source over Bitcoin Core JSON-RPC and a block
 * ingestor that follows a node into the UTXO ledger. See the package README.
 */

export { type BitcoinBlockIngestorOptions, createBitcoinBlockIngestor } from "./bitcoin-block-ingestor.js";
export {
  type BitcoinBlockSource,
  type BitcoinBlockSourceOptions,
  createBitcoinBlockSource,
} from "./bitcoin-block-source.js";
export {
  type BitcoinChainSource,
  type BitcoinChainSourceOptions,
  createBitcoinChainSource,
} from "./bitcoin-chain-source.js";
export { checkBitcoinNode, GENESIS_HASHES, kindOfGenesis } from "./bitcoin-node-check.js";
export {
  BITCOIN_CHAIN_KINDS,
  BITCOIN_PARAMS,
  type BitcoinChainKind,
  type BitcoinParams,
  bitcoinParams,
  paramsOfMagic,
} from "./bitcoin-params.js";
export {
  type BitcoinRpc,
  type BitcoinRpcOptions,
  createBitcoinRpc,
  DEFAULT_RPC_TIMEOUT_MS,
  RPC_MISC_ERROR,
  RPC_NOT_FOUND,
  RpcError,
  rpcOrNull,
} from "./bitcoin-rpc.js";
export { type BlockFileOptions, blocksOfFiles, type FileBlock } from "./block-file-ledger.js";
export { type FileRecord, fileRecords, startsWithRecord } from "./block-files.js";
export { type BlockLedgerOptions, heightOfBlock, utxoTransactionsOfBlock } from "./block-ledger.js";
export {
  type BlockSpends,
  decompressAmount,
  parseCoreUndo,
  parsePlainUndo,
  type SpentOutput,
  UndoMismatchError,
  undoChecksum,
} from "./block-undo.js";
export { ByteReader, bytesOfHex, hexOf, TruncatedError } from "./byte-reader.js";
export {
  addressOfScriptPubKey,
  coreTransaction,
  type DecodedBlock,
  type DecodedTx,
  decodeCoreBlock,
  satsOfCoinField,
  type TxPlace,
} from "./core-json.js";
export { esploraBlockOf, esploraTransaction } from "./esplora-json.js";
export { FieldProblem } from "./json-fields.js";
export { parseJsonKeepingNumbers } from "./lossless-json.js";
export {
  type ChainPlace,
  type KnownOutput,
  resolvePrevouts,
  utxoTransactionOfRaw,
} from "./node-transactions.js";
export {
  addressOfScript,
  type DecodedOutput,
  decodeOutputScript,
  type OutputKind,
} from "./output-address.js";
export {
  coinbaseHeight,
  hash256,
  parseBlock,
  type RawBlock,
  type RawBlockHeader,
  type RawInput,
  type RawOutput,
  type RawTransaction,
  readBlockHeader,
  readTransaction,
} from "./raw-block.js";
export { MAX_MONEY, outputsWithoutAddress, utxoTransactionProblem } from "./utxo-checks.js";
export { inputAddressOf, transfersOfUtxo } from "./utxo-transfers.js";
