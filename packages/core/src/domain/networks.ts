/**
 * Network codes with their address family, native asset and explorer-neutral display name.
 * The family decides normalisation (EVM lower-cases) and address validation.
 */

/** Address families: how addresses of a network look and are normalised. */
export const ADDRESS_FAMILIES = ["evm", "tron", "bitcoin", "litecoin"] as const;
export type AddressFamily = (typeof ADDRESS_FAMILIES)[number];

/** One supported network. */
export interface NetworkInfo {
  readonly code: string;
  readonly name: string;
  readonly family: AddressFamily;
  readonly nativeSymbol: string;
  readonly nativeDecimals: number;
  /** EVM chain id, when the network is EVM. */
  readonly chainId: number | null;
}

const net = (
  code: string,
  name: string,
  family: AddressFamily,
  nativeSymbol: string,
  nativeDecimals: number,
  chainId: number | null = null,
): NetworkInfo => Object.freeze({ code, name, family, nativeSymbol, nativeDecimals, chainId });

/** Every network the engine knows, in display order. */
export const NETWORKS: ReadonlyArray<NetworkInfo> = Object.freeze([
  net("BTC", "Bitcoin", "bitcoin", "BTC", 8),
  net("ETH", "Ethereum", "evm", "ETH", 18, 1),
  net("TRX", "Tron", "tron", "TRX", 6),
  net("LTC", "Litecoin", "litecoin", "LTC", 8),
  net("BSC", "BNB Smart Chain", "evm", "BNB", 18, 56),
  net("POLYGON", "Polygon PoS", "evm", "POL", 18, 137),
  net("ARB", "Arbitrum One", "evm", "ETH", 18, 42161),
  net("OP", "OP Mainnet", "evm", "ETH", 18, 10),
  net("BASE", "Base", "evm", "ETH", 18, 8453),
  net("AVAX", "Avalanche C-Chain", "evm", "AVAX", 18, 43114),
]);

/** All network codes. */
export const NETWORK_CODES: ReadonlyArray<string> = Object.freeze(NETWORKS.map((n) => n.code));

const byCode = new Map(NETWORKS.map((n) => [n.code, n]));

/** The network of a code, or undefined when the code is unknown. */
export function networkInfo(code: string): NetworkInfo | undefined {
  return byCode.get(code);
}

/** True when `code` is a known network code. */
export function isNetworkCode(code: unknown): code is string {
  return typeof code === "string" && byCode.has(code);
}

/** The token id of a network's native asset. */
export const NATIVE_TOKEN = "native";
