/**
 * How public data names chains and assets, mapped to OpenKYT network codes. A name with no
 * entry here is reported as skipped, never guessed.
 */
import { checkAddress, isNetworkCode } from "@openkyt/core";

/** A network and the address in its normal form. */
export interface NetworkAddress {
  readonly network: string;
  readonly address: string;
}

/**
 * OFAC "Digital Currency Address" asset codes (as in the SDN list and its derived files) with
 * a network of their own. XMR, ZEC, DASH, BCH, BSV, BTG, ETC, XRP, XVG, SOL, DOGE, BNB (the BNB
 * Beacon Chain) and others have no OpenKYT network and are skipped.
 */
export const OFAC_ASSET_NETWORKS: Readonly<Record<string, string>> = Object.freeze({
  XBT: "BTC",
  BTC: "BTC",
  ETH: "ETH",
  TRX: "TRX",
  LTC: "LTC",
  ARB: "ARB",
  BSC: "BSC",
  MATIC: "POLYGON",
  POL: "POLYGON",
  POLYGON: "POLYGON",
  AVAX: "AVAX",
  OP: "OP",
  BASE: "BASE",
});

/**
 * Token assets listed by their holder's address: the network follows the address's format
 * (`0x...` Ethereum, `T...` Tron, Bitcoin formats Bitcoin for Omni USDT).
 */
export const TOKEN_ASSETS: ReadonlySet<string> = new Set(["USDT", "USDC"]);

/** Networks tried, in order, when only the address says which chain it is on. */
const INFERRED_NETWORKS = ["ETH", "TRX", "BTC", "LTC"] as const;

/**
 * The network an address belongs to by its format alone: EVM -> ETH, Tron -> TRX, Bitcoin -> BTC,
 * Litecoin -> LTC (a `3...` P2SH address is valid on both and taken as BTC); null when none fits.
 */
export function inferNetwork(raw: string): NetworkAddress | null {
  for (const network of INFERRED_NETWORKS) {
    const check = checkAddress(network, raw);
    if (check.ok) return { network, address: check.value };
  }
  return null;
}

/** An OFAC asset code's network, or the reason it has none. `raw` decides for token assets. */
export function networkOfAsset(asset: string, raw: string): { network: string } | { skip: string } {
  const code = asset.trim().toUpperCase();
  const network = OFAC_ASSET_NETWORKS[code];
  if (network !== undefined) return { network };
  if (TOKEN_ASSETS.has(code)) {
    const inferred = inferNetwork(raw);
    return inferred
      ? { network: inferred.network }
      : { skip: `asset ${code}: address of no supported network` };
  }
  return { skip: `asset ${code || "(none)"}` };
}

/** dawsbot/eth-labels `chain` (the explorer the label was scraped from) to network. */
export const ETH_LABELS_CHAINS: Readonly<Record<string, string>> = Object.freeze({
  etherscan: "ETH",
  bscscan: "BSC",
  arbiscan: "ARB",
  optimism: "OP",
  basescan: "BASE",
  polygonscan: "POLYGON",
  snowtrace: "AVAX",
});

/** GraphSense TagPack `currency` to network (token currencies follow the address format). */
export const TAGPACK_CURRENCIES: Readonly<Record<string, string>> = Object.freeze({
  BTC: "BTC",
  ETH: "ETH",
  LTC: "LTC",
  TRX: "TRX",
  BSC: "BSC",
  BEP20: "BSC",
  AVAX: "AVAX",
  MATIC: "POLYGON",
});

/** ethereum-lists/tokens `chain` folder names to network. */
export const ETHEREUM_LISTS_CHAINS: Readonly<Record<string, string>> = Object.freeze({
  eth: "ETH",
  bsc: "BSC",
  arb: "ARB",
  avax: "AVAX",
  op: "OP",
  base: "BASE",
  matic: "POLYGON",
  pol: "POLYGON",
});

/** A network code given by a user (any case), or null when unknown. */
export function networkCode(text: string | undefined): string | null {
  if (text === undefined) return null;
  const code = text.trim().toUpperCase();
  return isNetworkCode(code) ? code : null;
}
