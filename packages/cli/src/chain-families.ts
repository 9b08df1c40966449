/**
 * What the CLI can do with a node of each network family: a live chain source (`serve`,
 * `worker`: binding asks the node) and a block source (`follow`: the ledger follows the chain),
 * each checked against the network before it is used. A family is one row of the table; its
 * package is imported only when a network of that family is configured. Networks whose family
 * has no row bind against the ledger only.
 */
import {
  type AddressFamily,
  type BlockSource,
  type ChainSource,
  describeError,
  KytError,
  type Logger,
  networkInfo,
  type TokenCatalog,
  type UtxoLedgerReader,
} from "@openkyt/core";
import { type ChainEndpoint, redactUrl } from "./chain-endpoints.js";

/** A node and how to read it. */
export interface ChainNode extends ChainEndpoint {
  /** Confirmations a transaction or block needs to be final. */
  readonly confirmations: number;
  readonly logger: Logger;
  /** Token decimals the store knows (others are asked of the chain). */
  readonly tokens?: TokenCatalog;
  /** The UTXO ledger a block source writes into, read first for the outputs inputs spend. */
  readonly ledger?: Pick<UtxoLedgerReader, "utxoTransactions">;
}

/** The sources of one family, each resolved only after the node answered as the network. */
export interface ChainFamilyDriver {
  /** A checked chain source for `serve` and `worker`. */
  chainSource(node: ChainNode): Promise<ChainSource>;
  /** A checked block source for `follow`. */
  blockSource(node: ChainNode): Promise<BlockSource>;
}

/** Per-request timeout of a node asked by the CLI: the engine and the follower back off on top. */
const NODE_TIMEOUT_MS = 10_000;

const evm: ChainFamilyDriver = {
  async chainSource(node) {
    const { createEvmChainSource, checkEvmNode } = await import("@openkyt/chain-evm");
    const source = createEvmChainSource({
      rpcUrl: node.url,
      network: node.network,
      confirmations: node.confirmations,
      timeoutMs: NODE_TIMEOUT_MS,
      logger: node.logger,
      ...(node.tokens ? { tokens: node.tokens } : {}),
    });
    await checkEvmNode(source.client, node.network);
    return source;
  },
  async blockSource(node) {
    const { createEvmBlockSource, checkEvmNode } = await import("@openkyt/chain-evm");
    const source = createEvmBlockSource({
      rpcUrl: node.url,
      network: node.network,
      timeoutMs: NODE_TIMEOUT_MS,
      logger: node.logger,
      ...(node.tokens ? { tokens: node.tokens } : {}),
    });
    await checkEvmNode(source.client, node.network);
    return source;
  },
};

/**
 * Bitcoin and Litecoin over Bitcoin Core JSON-RPC (bcoin answers the same methods). The node's
 * genesis block must be one of the network's: main, test or regtest, whichever it is, since the
 * ledger's network is BTC (LTC) on all three. Addresses are written in the network's mainnet
 * form (the same script; the only form the API accepts), so a deposit on a test or regtest node
 * registers as it would on mainnet and bcoin's `rb` and Core's `bcrt` regtest prefixes agree.
 */
const utxo: ChainFamilyDriver = {
  async chainSource(node) {
    const { bitcoin, rpc, params } = await checkedUtxoNode(node);
    return bitcoin.createBitcoinChainSource({ rpc, params, confirmations: node.confirmations });
  },
  async blockSource(node) {
    const { bitcoin, rpc, params } = await checkedUtxoNode(node);
    return bitcoin.createBitcoinBlockSource({ rpc, params, ...(node.ledger ? { ledger: node.ledger } : {}) });
  },
};

/** chain-bitcoin, loaded when a UTXO node is configured; the node's client, checked; mainnet-form params. */
async function checkedUtxoNode(node: ChainNode) {
  const bitcoin = await import("@openkyt/chain-bitcoin");
  const rpc = bitcoin.createBitcoinRpc({ url: node.url, network: node.network, timeoutMs: NODE_TIMEOUT_MS });
  const kind = await bitcoin.checkBitcoinNode(rpc, node.network);
  node.logger.info({ network: node.network, chain: kind }, "UTXO node checked");
  return { bitcoin, rpc, params: bitcoin.bitcoinParams(node.network, "main") };
}

const tron: ChainFamilyDriver = {
  async chainSource(node) {
    const { createTronChainSource } = await import("@openkyt/chain-tron");
    const source = createTronChainSource({
      url: node.url,
      confirmations: node.confirmations,
      timeoutMs: NODE_TIMEOUT_MS,
      logger: node.logger,
      ...(node.tokens ? { tokens: node.tokens } : {}),
    });
    await source.node.check();
    return source;
  },
  async blockSource(node) {
    const { createTronBlockSource } = await import("@openkyt/chain-tron");
    const source = createTronBlockSource({
      url: node.url,
      timeoutMs: NODE_TIMEOUT_MS,
      logger: node.logger,
      ...(node.tokens ? { tokens: node.tokens } : {}),
    });
    await source.node.check();
    return source;
  },
};

/** Every family the CLI has a driver for. */
export const CHAIN_FAMILIES: Readonly<Partial<Record<AddressFamily, ChainFamilyDriver>>> = Object.freeze({
  evm,
  tron,
  bitcoin: utxo,
  litecoin: utxo,
});

/** The driver of a network's family, or NOT_CONFIGURED naming the families there are. */
export function chainFamilyOf(network: string): ChainFamilyDriver {
  const info = networkInfo(network);
  const driver = info ? CHAIN_FAMILIES[info.family] : undefined;
  if (!info || !driver) {
    throw new KytError(
      "NOT_CONFIGURED",
      `no node driver for ${network} (${info?.family ?? "unknown"} family); nodes are supported for ${Object.keys(CHAIN_FAMILIES).join(", ")} networks`,
    );
  }
  return driver;
}

/** Runs `open` for a node, failing with a message that names the network and the redacted URL. */
async function checked<T>(node: ChainNode, open: () => Promise<T>): Promise<T> {
  try {
    return await open();
  } catch (error) {
    const code = error instanceof KytError ? error.code : "CHAIN_ERROR";
    throw new KytError(
      code,
      `${node.network} node at ${redactUrl(node.url)}: ${describeError(error)}; refusing to start`,
      { cause: error },
    );
  }
}

/** The checked chain sources of `endpoints`, by network (the nodes are asked in parallel). */
export async function openChainSources(
  endpoints: ReadonlyArray<ChainEndpoint>,
  deps: Omit<ChainNode, keyof ChainEndpoint>,
): Promise<Record<string, ChainSource>> {
  const opened = await Promise.all(
    endpoints.map(async (endpoint) => {
      const node = { ...deps, ...endpoint };
      const driver = chainFamilyOf(endpoint.network);
      return [endpoint.network, await checked(node, () => driver.chainSource(node))] as const;
    }),
  );
  return Object.fromEntries(opened);
}

/** The checked block source of one node. */
export function openBlockSource(node: ChainNode): Promise<BlockSource> {
  const driver = chainFamilyOf(node.network);
  return checked(node, () => driver.blockSource(node));
}
