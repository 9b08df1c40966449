/**
 * Ports for reference data: who an address belongs to, whether it is sanctioned, what a token
 * is and what it was worth. Store-backed defaults exist for all of them (see engine/sources).
 */
import type { Attribution, SanctionsListing, TokenInfo } from "../domain/records.js";

/** Address to entity. */
export interface AttributionSource {
  /** Attributions of these (normalised) addresses on `network`; unknown ones are left out. */
  attributions(network: string, addresses: ReadonlyArray<string>): Promise<ReadonlyArray<Attribution>>;
  /**
   * Optional, for sources held in memory: the addresses attributed on any network, as an
   * {@link AddressScreen}; null when the source cannot say now (its labels are being reloaded).
   */
  addressScreen?(): AddressScreen | null;
}

/** Address to sanctions listings. */
export interface SanctionsSource {
  /** Every listing, current or past, of these (normalised) addresses. */
  listings(addresses: ReadonlyArray<string>): Promise<ReadonlyArray<SanctionsListing>>;
  /** Optional: the addresses listed at any time, as `AttributionSource.addressScreen`. */
  addressScreen?(): AddressScreen | null;
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

/**
 * A superset of the addresses that may resolve to an entity: every address with an attribution
 * on any network, or a sanctions listing at any time. A tracer counts a hub's rows from other
 * addresses without presenting them one by one (`LedgerReader.ledgerIncomingLumped`); a row from
 * an address of the screen is always presented. One object stands for one state of the labels:
 * a source hands out a new one when its labels change, so a reader that keeps work per screen
 * knows when to redo it.
 */
export interface AddressScreen {
  /** False only when `address` resolves on no network at no time under this state of the labels. */
  mayResolve(address: string): boolean;
}
