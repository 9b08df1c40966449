/**
 * Token ids: `native` for a network's own coin, a contract address (EVM: 0x hex, lower-cased;
 * Tron: Base58Check, case kept), or a ticker symbol (upper-cased) that the engine resolves
 * through its TokenCatalog (the interface's own signing example sends `"token_id":"usdt"`).
 * Omitted, null, `"null"` and `""` all mean `native` (interface: register rules).
 */

import { fieldError } from "../errors.js";
import { checkAddressOfFamily, type FormatCheck, familyOfNetwork } from "./address-formats.js";
import { NATIVE_TOKEN } from "./networks.js";

/** What a token id names. */
export type TokenIdKind = "native" | "contract" | "symbol";

/** A classified token id: its normal form and kind, or a problem. */
export type TokenIdCheck =
  | { readonly ok: true; readonly value: string; readonly kind: TokenIdKind }
  | { readonly ok: false; readonly problem: string };

/** What a ticker symbol may look like. */
export const TOKEN_SYMBOL_PATTERN = /^[A-Za-z0-9.$_-]{1,20}$/;

const NOT_A_TOKEN = 'not a valid token id (expected "native", a contract address or a token symbol)';

/** True for the values that mean the native token: omitted, null, "null", "", "native" (any case). */
export function isNativeTokenAlias(raw: string | null | undefined): boolean {
  if (raw === null || raw === undefined) return true;
  const text = raw.trim();
  return text === "" || text === "null" || text.toLowerCase() === NATIVE_TOKEN;
}

function contract(check: FormatCheck): TokenIdCheck {
  return check.ok ? { ok: true, value: check.value, kind: "contract" } : check;
}

function symbolOr(text: string, problem: string): TokenIdCheck {
  return TOKEN_SYMBOL_PATTERN.test(text)
    ? { ok: true, value: text.toUpperCase(), kind: "symbol" }
    : { ok: false, problem };
}

/**
 * Classifies and normalises a token id. `network` null (a list filter without a network)
 * accepts a contract of any family.
 */
export function classifyTokenId(network: string | null, raw: string | null | undefined): TokenIdCheck {
  if (isNativeTokenAlias(raw)) return { ok: true, value: NATIVE_TOKEN, kind: "native" };
  const text = (raw ?? "").trim();
  const family = network === null ? null : familyOfNetwork(network);
  if (network !== null && family === null) return { ok: false, problem: `unknown network "${network}"` };
  if (/^0x/i.test(text) && (family === null || family === "evm"))
    return contract(checkAddressOfFamily("evm", text));
  if (family === null || family === "tron") {
    const tron = checkAddressOfFamily("tron", text);
    if (tron.ok) return contract(tron);
    if (family === "tron") return symbolOr(text, tron.problem);
  }
  return symbolOr(text, NOT_A_TOKEN);
}

/** Why a token id is not valid on a network, or null when it is. */
export function tokenIdProblem(network: string, tokenId: string | null | undefined): string | null {
  const check = classifyTokenId(network, tokenId);
  return check.ok ? null : check.problem;
}

/**
 * The normal form of a token id on a network: `native`, a contract address, or an upper-cased
 * symbol. Throws a VALIDATION_ERROR naming `field` when the value is not valid.
 */
export function normalizeTokenId(
  network: string,
  raw: string | null | undefined,
  field = "token_id",
): string {
  const check = classifyTokenId(network, raw);
  if (!check.ok) throw fieldError(field, check.problem);
  return check.value;
}

/** True when a (normalised) token id is a symbol the engine must resolve through its TokenCatalog. */
export function isSymbolTokenId(network: string, tokenId: string): boolean {
  const check = classifyTokenId(network, tokenId);
  return check.ok && check.kind === "symbol";
}
