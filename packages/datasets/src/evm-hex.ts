/**
 * Recognising EVM hashes and addresses already in normal form (`0x` and lower-case hex digits)
 * with a loop over character codes and a table: it runs two or three times per row of ledger
 * files of millions of rows, where it costs about half the equivalent regular expression (a
 * comparison of ranges costs as much as the regular expression). Anything else (upper case,
 * spaces, a wrong length) is left to core's checks, with their messages.
 */

/** 1 at the character codes of `0-9a-f`, for every code `charCodeAt` can answer. */
const LOWER_HEX = new Uint8Array(0x10000);
for (const c of "0123456789abcdef") LOWER_HEX[c.charCodeAt(0)] = 1;

/** Hex digits of an EVM address. */
export const EVM_ADDRESS_DIGITS = 40;
/** Hex digits of an EVM transaction hash. */
export const EVM_TX_HASH_DIGITS = 64;

/** True when `text` is `0x` followed by exactly `digits` lower-case hex digits. */
export function isNormalEvmHex(text: string, digits: number): boolean {
  if (text.length !== digits + 2 || text.charCodeAt(0) !== 48 || text.charCodeAt(1) !== 120) return false;
  for (let i = 2; i < text.length; i++) if (LOWER_HEX[text.charCodeAt(i)] !== 1) return false;
  return true;
}
