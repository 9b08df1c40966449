/**
 * One Tron node as the sources read it: the head, a block by number, a transaction and its
 * info, each answer checked (see tron-answers.ts); and the start-up check that the node serves
 * Tron mainnet (its genesis block's id), so a URL pointing at a test network refuses to start.
 */
import { KytError, type Logger, silentLogger, type TokenCatalog } from "@openkyt/core";
import {
  isEmptyAnswer,
  parseAnswer,
  type TronBlock,
  type TronTransaction,
  type TronTransactionInfo,
  tronBlockSchema,
  tronTransactionInfoSchema,
  tronTransactionSchema,
} from "./tron-answers.js";
import { type TronConnectionOptions, type TronRequest, tronRequester } from "./tron-http.js";

/** The id (hash) of Tron mainnet's genesis block. */
export const TRON_MAINNET_GENESIS = "00000000000000001ebf88508a03865c71d452e25f4d51194196a1d22b6653dc";

/** Options shared by the Tron sources. */
export interface TronNodeOptions extends TronConnectionOptions {
  /** Decimals of TRC-20 tokens beyond the built-in ones (USDT, USDC); others are left out. */
  readonly tokens?: TokenCatalog;
  readonly logger?: Logger;
  /** The genesis block id the node must have; default Tron mainnet's. */
  readonly genesisBlockId?: string;
}

/** The node's reads. */
export interface TronNode {
  nowBlock(): Promise<TronBlock>;
  /** The block at `num`, or null when the node has none. */
  blockByNumber(num: number): Promise<TronBlock | null>;
  /** The transaction, or null when the node does not know it. */
  transaction(txId: string): Promise<TronTransaction | null>;
  /** The transaction's info, or null while it is in no block. */
  transactionInfo(txId: string): Promise<TronTransactionInfo | null>;
  /** Resolves when the node's genesis block is the expected one; NOT_CONFIGURED otherwise. */
  check(): Promise<{ genesis: string }>;
  readonly tokens: TokenCatalog | undefined;
  readonly logger: Logger;
}

/** A node over `options` (or over a given request function, for tests of the decoding). */
export function tronNode(options: TronNodeOptions, request: TronRequest = tronRequester(options)): TronNode {
  const genesis = (options.genesisBlockId ?? TRON_MAINNET_GENESIS).toLowerCase();
  const node: TronNode = {
    tokens: options.tokens,
    logger: options.logger ?? silentLogger,
    async nowBlock() {
      return parseAnswer(tronBlockSchema, await request("/wallet/getnowblock", {}), "/wallet/getnowblock");
    },
    async blockByNumber(num) {
      const answer = await request("/wallet/getblockbynum", { num });
      return isEmptyAnswer(answer)
        ? null
        : parseAnswer(tronBlockSchema, answer, `/wallet/getblockbynum ${num}`);
    },
    async transaction(txId) {
      const answer = await request("/wallet/gettransactionbyid", { value: txId });
      return isEmptyAnswer(answer)
        ? null
        : parseAnswer(tronTransactionSchema, answer, `/wallet/gettransactionbyid ${txId}`);
    },
    async transactionInfo(txId) {
      const answer = await request("/wallet/gettransactioninfobyid", { value: txId });
      return isEmptyAnswer(answer)
        ? null
        : parseAnswer(tronTransactionInfoSchema, answer, `/wallet/gettransactioninfobyid ${txId}`);
    },
    async check() {
      const first = await node.blockByNumber(0);
      const id = first?.blockID.toLowerCase() ?? "(none)";
      if (id !== genesis) {
        throw new KytError(
          "NOT_CONFIGURED",
          `the node's genesis block is ${id}, not TRX's (${genesis}): it serves another network`,
          { details: { network: "TRX", expected: genesis, actual: id } },
        );
      }
      return { genesis: id };
    },
  };
  return Object.freeze(node);
}
