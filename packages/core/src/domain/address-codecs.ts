/**
 * Base58, Base58Check (Bitcoin, Litecoin, Tron addresses), Bech32 (BIP-173), Bech32m (BIP-350)
 * and segwit addresses, over `@scure/base` (audited, dependency-free, already in the lockfile
 * through viem). This module only adapts its coders to OpenKYT's result values: a string that is
 * not valid is a `{ ok: false, problem }` answer (or null), never an exception, and segwit's
 * rules (witness version, program length, which checksum each version uses) are checked here.
 */
import { sha256 } from "@noble/hashes/sha2.js";
import { base58, bech32, bech32m, createBase58check } from "@scure/base";

/** The Bitcoin Base58 alphabet. */
export const BASE58_ALPHABET = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz";

/** The Bech32 data alphabet. */
export const BECH32_CHARSET = "qpzry9x8gf2tvdw0s3jn54khce6mua7l";

/** Longest Base58 text decoded: addresses are 25 bytes (34 characters); this leaves ample room. */
const MAX_BASE58_LENGTH = 128;

/** Longest Bech32 string (BIP-173). */
const MAX_BECH32_LENGTH = 90;

/** Encodes bytes as Base58. */
export function encodeBase58(bytes: Uint8Array): string {
  return base58.encode(bytes);
}

/** Decodes Base58 text; null when it holds a character outside the alphabet or is too long. */
export function decodeBase58(text: string): Uint8Array | null {
  if (text.length > MAX_BASE58_LENGTH) return null;
  try {
    return base58.decode(text);
  } catch {
    return null;
  }
}

/** SHA-256 applied twice, the Base58Check checksum hash. */
export function doubleSha256(bytes: Uint8Array): Uint8Array {
  return sha256(sha256(bytes));
}

const base58check = createBase58check(sha256);

/** Encodes a payload (version byte included) as Base58Check. */
export function encodeBase58Check(payload: Uint8Array): string {
  return base58check.encode(payload);
}

/** Outcome of decoding Base58Check: the payload (version byte first) or why it is not valid. */
export type Base58CheckResult =
  | { readonly ok: true; readonly payload: Uint8Array }
  | { readonly ok: false; readonly problem: string };

/** Decodes Base58Check text and verifies its 4-byte double-SHA-256 checksum. */
export function decodeBase58Check(text: string): Base58CheckResult {
  const bytes = decodeBase58(text);
  if (bytes === null) return { ok: false, problem: "not base58" };
  if (bytes.length < 5) return { ok: false, problem: "too short" };
  try {
    return { ok: true, payload: base58check.decode(text) };
  } catch {
    return { ok: false, problem: "base58check checksum mismatch" };
  }
}

/** Which checksum constant a string verifies against. */
export type Bech32Encoding = "bech32" | "bech32m";

const CODERS = { bech32, bech32m } as const;

/** A decoded Bech32 string, or why it is not one. */
export type Bech32Result =
  | {
      readonly ok: true;
      readonly hrp: string;
      readonly data: ReadonlyArray<number>;
      readonly encoding: Bech32Encoding;
    }
  | { readonly ok: false; readonly problem: string };

/** Decodes a Bech32 or Bech32m string (hrp lower-cased, checksum removed from data). */
export function decodeBech32(text: string): Bech32Result {
  if (text.length > MAX_BECH32_LENGTH) return { ok: false, problem: "longer than 90 characters" };
  if (text !== text.toLowerCase() && text !== text.toUpperCase()) return { ok: false, problem: "mixed case" };
  const sep = text.lastIndexOf("1");
  if (sep < 1) return { ok: false, problem: "missing human-readable part" };
  if (text.length - sep - 1 < 6) return { ok: false, problem: "checksum too short" };
  for (const c of text.slice(sep + 1).toLowerCase())
    if (!BECH32_CHARSET.includes(c)) return { ok: false, problem: `invalid character "${c}"` };
  for (const encoding of ["bech32", "bech32m"] as const) {
    const decoded = CODERS[encoding].decodeUnsafe(text as `${string}1${string}`, MAX_BECH32_LENGTH);
    if (decoded) return { ok: true, hrp: decoded.prefix.toLowerCase(), data: decoded.words, encoding };
  }
  return { ok: false, problem: "bech32 checksum mismatch" };
}

/** Encodes 5-bit values under a (lower-case) hrp with the given checksum. */
export function encodeBech32(hrp: string, data: ReadonlyArray<number>, encoding: Bech32Encoding): string {
  return CODERS[encoding].encode(hrp, [...data], MAX_BECH32_LENGTH);
}

/** Regroups bits (e.g. 8 -> 5 with padding, 5 -> 8 without); null when the padding is invalid. */
export function convertBits(
  data: ReadonlyArray<number>,
  from: number,
  to: number,
  pad: boolean,
): number[] | null {
  if (from === 8 && to === 5 && pad) return bech32.toWords(Uint8Array.from(data));
  if (from === 5 && to === 8 && !pad) {
    const bytes = bech32.fromWordsUnsafe([...data]);
    return bytes ? [...bytes] : null;
  }
  throw new RangeError(`convertBits regroups 8 -> 5 with padding or 5 -> 8 without, not ${from} -> ${to}`);
}

/** A decoded segwit address, or why it is not one. */
export type SegwitResult =
  | { readonly ok: true; readonly version: number; readonly program: Uint8Array }
  | { readonly ok: false; readonly problem: string };

/** Decodes a segwit address for the expected hrp (e.g. "bc", "ltc") per BIP-173 and BIP-350. */
export function decodeSegwitAddress(hrp: string, address: string): SegwitResult {
  const decoded = decodeBech32(address);
  if (!decoded.ok) return decoded;
  if (decoded.hrp !== hrp) return { ok: false, problem: `prefix is not ${hrp}1` };
  const [version, ...rest] = decoded.data;
  if (version === undefined || version > 16) return { ok: false, problem: "invalid witness version" };
  const program = convertBits(rest, 5, 8, false);
  if (program === null) return { ok: false, problem: "invalid witness program padding" };
  if (program.length < 2 || program.length > 40)
    return { ok: false, problem: "invalid witness program length" };
  if (version === 0 && program.length !== 20 && program.length !== 32) {
    return { ok: false, problem: "invalid witness program length for version 0" };
  }
  const expected: Bech32Encoding = version === 0 ? "bech32" : "bech32m";
  if (decoded.encoding !== expected) {
    return { ok: false, problem: `witness version ${version} must use ${expected}` };
  }
  return { ok: true, version, program: Uint8Array.from(program) };
}

/** Encodes a segwit address (lower case); Bech32 for version 0, Bech32m otherwise. */
export function encodeSegwitAddress(hrp: string, version: number, program: Uint8Array): string {
  return encodeBech32(hrp, [version, ...bech32.toWords(program)], version === 0 ? "bech32" : "bech32m");
}
