/**
 * Addresses, transaction hashes and token ids of every supported network: validation with a
 * human-readable problem, and the normal form the engine stores and compares.
 *
 * - EVM: `0x` + 40 hex, lower-cased (EIP-55 mixed case is accepted but not verified).
 * - Tron: Base58Check, 25 bytes, version 0x41; case kept.
 * - Bitcoin: Base58Check P2PKH (0x00) / P2SH (0x05), or `bc1` segwit (Bech32 v0, Bech32m v1+),
 *   segwit lower-cased.
 * - Litecoin: Base58Check 0x30 (L), 0x32 (M), 0x05 (3), or `ltc1` segwit.
 * - Transaction hashes: EVM `0x` + 64 hex; the others 64 hex without `0x`; lower-cased.
 *
 * Surrounding whitespace is ignored. Network codes are accepted in any case.
 */

import { fieldError } from "../errors.js";
import {
  checkAddressOfFamily,
  checkTxHashOfFamily,
  type FormatCheck,
  familyOfNetwork,
} from "./address-formats.js";

export * from "./address-codecs.js";
export { ADDRESS_FAMILY_LABELS, type FormatCheck, familyOfNetwork } from "./address-formats.js";
export * from "./address-token-ids.js";

function unknownNetwork(network: string): FormatCheck {
  return { ok: false, problem: `unknown network "${network}"` };
}

/** Checks an address on a network and gives its normal form, or the problem. */
export function checkAddress(network: string, raw: string): FormatCheck {
  const family = familyOfNetwork(network);
  return family === null ? unknownNetwork(network) : checkAddressOfFamily(family, raw.trim());
}

/** Why `address` is not a valid address on `network`, or null when it is. */
export function addressProblem(network: string, address: string): string | null {
  const check = checkAddress(network, address);
  return check.ok ? null : check.problem;
}

/** The normal form of an address; throws a VALIDATION_ERROR naming `field` when it is not valid. */
export function normalizeAddress(network: string, raw: string, field = "address"): string {
  const check = checkAddress(network, raw);
  if (!check.ok) throw fieldError(field, check.problem);
  return check.value;
}

/** Checks a transaction hash on a network and gives its normal form, or the problem. */
export function checkTxHash(network: string, raw: string): FormatCheck {
  const family = familyOfNetwork(network);
  return family === null ? unknownNetwork(network) : checkTxHashOfFamily(family, raw.trim());
}

/** Why `hash` is not a valid transaction hash on `network`, or null when it is. */
export function txHashProblem(network: string, hash: string): string | null {
  const check = checkTxHash(network, hash);
  return check.ok ? null : check.problem;
}

/** The normal (lower-case) form of a transaction hash; throws a VALIDATION_ERROR naming `field`. */
export function normalizeTxHash(network: string, raw: string, field = "tx_hash"): string {
  const check = checkTxHash(network, raw);
  if (!check.ok) throw fieldError(field, check.problem);
  return check.value;
}
