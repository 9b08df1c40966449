/**
 * Bech32 (BIP-173) and Bech32m (BIP-350), and segwit addresses built on them.
 *
 * A Bech32 string is `hrp` + "1" + data, each data character one 5-bit value of the charset
 * below; the last six are a BCH checksum over the expanded hrp and the data. Bech32 and Bech32m
 * differ only in the constant the checksum must equal. A segwit address puts the witness
 * version (0..16) first, then the witness program regrouped from 8-bit to 5-bit values;
 * version 0 uses Bech32, versions 1..16 use Bech32m. Case may be all lower or all upper,
 * never mixed.
 */

/** The Bech32 charset: index = 5-bit value. */
export const BECH32_CHARSET = "qpzry9x8gf2tvdw0s3jn54khce6mua7l";

/** Which checksum constant a string verifies against. */
export type Bech32Encoding = "bech32" | "bech32m";

const CONSTANTS: Readonly<Record<Bech32Encoding, number>> = Object.freeze({ bech32: 1, bech32m: 0x2bc830a3 });
const GENERATOR = [0x3b6a57b2, 0x26508e6d, 0x1ea119fa, 0x3d4233dd, 0x2a1462b3] as const;
const VALUE_OF: ReadonlyMap<string, number> = new Map([...BECH32_CHARSET].map((c, i) => [c, i]));
const MAX_LENGTH = 90;

function polymod(values: ReadonlyArray<number>): number {
  let chk = 1;
  for (const v of values) {
    const top = chk >>> 25;
    chk = (((chk & 0x1ffffff) << 5) ^ v) >>> 0;
    for (let i = 0; i < 5; i++) if ((top >>> i) & 1) chk = (chk ^ (GENERATOR[i] ?? 0)) >>> 0;
  }
  return chk;
}

function hrpExpand(hrp: string): number[] {
  const codes = [...hrp].map((c) => c.charCodeAt(0));
  return [...codes.map((c) => c >> 5), 0, ...codes.map((c) => c & 31)];
}

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
  if (text.length > MAX_LENGTH) return { ok: false, problem: "longer than 90 characters" };
  for (const c of text) {
    const code = c.charCodeAt(0);
    if (code < 33 || code > 126) return { ok: false, problem: "invalid character" };
  }
  if (text !== text.toLowerCase() && text !== text.toUpperCase()) return { ok: false, problem: "mixed case" };
  const lower = text.toLowerCase();
  const sep = lower.lastIndexOf("1");
  if (sep < 1) return { ok: false, problem: "missing human-readable part" };
  if (lower.length - sep - 1 < 6) return { ok: false, problem: "checksum too short" };
  const hrp = lower.slice(0, sep);
  const data: number[] = [];
  for (const c of lower.slice(sep + 1)) {
    const v = VALUE_OF.get(c);
    if (v === undefined) return { ok: false, problem: `invalid character "${c}"` };
    data.push(v);
  }
  const check = polymod([...hrpExpand(hrp), ...data]);
  const encoding = check === CONSTANTS.bech32 ? "bech32" : check === CONSTANTS.bech32m ? "bech32m" : null;
  if (encoding === null) return { ok: false, problem: "bech32 checksum mismatch" };
  return { ok: true, hrp, data: data.slice(0, -6), encoding };
}

/** Encodes 5-bit values under a (lower-case) hrp with the given checksum. */
export function encodeBech32(hrp: string, data: ReadonlyArray<number>, encoding: Bech32Encoding): string {
  const values = [...hrpExpand(hrp), ...data, 0, 0, 0, 0, 0, 0];
  const mod = polymod(values) ^ CONSTANTS[encoding];
  const checksum = [0, 1, 2, 3, 4, 5].map((i) => (mod >>> (5 * (5 - i))) & 31);
  return `${hrp}1${[...data, ...checksum].map((v) => BECH32_CHARSET[v]).join("")}`;
}

/** Regroups bits (e.g. 8 -> 5 with padding, 5 -> 8 without); null when the padding is invalid. */
export function convertBits(
  data: ReadonlyArray<number>,
  from: number,
  to: number,
  pad: boolean,
): number[] | null {
  let acc = 0;
  let bits = 0;
  const out: number[] = [];
  const maxv = (1 << to) - 1;
  for (const value of data) {
    if (value < 0 || value >> from !== 0) return null;
    acc = (acc << from) | value;
    bits += from;
    while (bits >= to) {
      bits -= to;
      out.push((acc >> bits) & maxv);
    }
    acc &= (1 << bits) - 1;
  }
  if (pad) {
    if (bits > 0) out.push((acc << (to - bits)) & maxv);
  } else if (bits >= from || ((acc << (to - bits)) & maxv) !== 0) {
    return null;
  }
  return out;
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
  const five = convertBits([...program], 8, 5, true) ?? [];
  return encodeBech32(hrp, [version, ...five], version === 0 ? "bech32" : "bech32m");
}
