/**
 * Base58 and Base58Check, as used by Bitcoin, Litecoin and Tron addresses.
 *
 * Base58 writes a big-endian number in the alphabet below (no 0, O, I, l); each leading zero
 * byte is written as a leading "1". Base58Check appends the first 4 bytes of
 * SHA-256(SHA-256(payload)) to the payload before encoding, so a mistyped character is caught.
 */
import { createHash } from "node:crypto";

/** The Bitcoin Base58 alphabet. */
export const BASE58_ALPHABET = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz";

const DIGIT_OF: ReadonlyMap<string, number> = new Map([...BASE58_ALPHABET].map((c, i) => [c, i]));

/** Longest text decoded: addresses are 25 bytes (34 characters); this leaves ample room. */
const MAX_BASE58_LENGTH = 128;

/** Encodes bytes as Base58. */
export function encodeBase58(bytes: Uint8Array): string {
  let zeros = 0;
  while (zeros < bytes.length && bytes[zeros] === 0) zeros++;
  // Base-58 digits, least significant first.
  const digits: number[] = [];
  for (let i = zeros; i < bytes.length; i++) {
    let carry = bytes[i] ?? 0;
    for (let j = 0; j < digits.length; j++) {
      carry += (digits[j] ?? 0) * 256;
      digits[j] = carry % 58;
      carry = Math.floor(carry / 58);
    }
    while (carry > 0) {
      digits.push(carry % 58);
      carry = Math.floor(carry / 58);
    }
  }
  let text = "1".repeat(zeros);
  for (let k = digits.length - 1; k >= 0; k--) text += BASE58_ALPHABET[digits[k] ?? 0];
  return text;
}

/** Decodes Base58 text; null when it holds a character outside the alphabet or is too long. */
export function decodeBase58(text: string): Uint8Array | null {
  if (text.length > MAX_BASE58_LENGTH) return null;
  let zeros = 0;
  while (zeros < text.length && text[zeros] === "1") zeros++;
  // Bytes, least significant first.
  const bytes: number[] = [];
  for (let i = zeros; i < text.length; i++) {
    const digit = DIGIT_OF.get(text[i] ?? "");
    if (digit === undefined) return null;
    let carry = digit;
    for (let j = 0; j < bytes.length; j++) {
      carry += (bytes[j] ?? 0) * 58;
      bytes[j] = carry & 0xff;
      carry >>= 8;
    }
    while (carry > 0) {
      bytes.push(carry & 0xff);
      carry >>= 8;
    }
  }
  const out = new Uint8Array(zeros + bytes.length);
  for (let k = 0; k < bytes.length; k++) out[out.length - 1 - k] = bytes[k] ?? 0;
  return out;
}

/** SHA-256 applied twice, the Base58Check checksum hash. */
export function doubleSha256(bytes: Uint8Array): Uint8Array {
  const once = createHash("sha256").update(bytes).digest();
  return new Uint8Array(createHash("sha256").update(once).digest());
}

/** Encodes a payload (version byte included) as Base58Check. */
export function encodeBase58Check(payload: Uint8Array): string {
  const sum = doubleSha256(payload).subarray(0, 4);
  const full = new Uint8Array(payload.length + 4);
  full.set(payload);
  full.set(sum, payload.length);
  return encodeBase58(full);
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
  const payload = bytes.subarray(0, bytes.length - 4);
  const sum = doubleSha256(payload);
  for (let i = 0; i < 4; i++) {
    if (sum[i] !== bytes[payload.length + i]) return { ok: false, problem: "base58check checksum mismatch" };
  }
  return { ok: true, payload };
}
