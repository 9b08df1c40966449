/**
 * Ports for reference data: who an address belongs to, whether it is sanctioned, what a token
 * is and what it was worth. Store-backed defaults exist for all of them (see engine/sources).
 */
import type { Attribution, SanctionsListing, TokenInfo } from "../domain/records.js";

/** Address to entity. */
export interface AttributionSource {
  /** Attributions of these (normalised) addresses on `network`; unknown ones are left out. */
  attributions(network: string, addresses: ReadonlyArray<string>): Promise<ReadonlyArray<Attribution>>;
}

/** Address to sanctions listings. */
export interface SanctionsSource {
  /** Every listing, current or past, of these (normalised) addresses. */
  listings(addresses: ReadonlyArray<string>): Promise<ReadonlyArray<SanctionsListing>>;
}

/** USD prices. */
export interface PriceSource {
  /** USD price of one unit of the token at `at` (epoch ms), or null when unknown. */
  usdPrice(network: string, tokenId: string, at: number): Promise<number | null>;
}

/** Token symbols and decimals. */
export interface TokenCatalog {
  /** The token, or null when unknown. The native token of a known network is always known. */
  token(network: string, tokenId: string): Promise<TokenInfo | null>;
  /** The token of a network with this symbol (case-insensitive), or null when none or ambiguous. */
  bySymbol(network: string, symbol: string): Promise<TokenInfo | null>;
}
