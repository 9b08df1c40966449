/**
 * The address an output script pays, written with a network's prefixes, decoded by
 * `@scure/btc-signer` (its `OutScript` templates and `Address` encoder): P2PKH, P2SH, P2WPKH,
 * P2WSH, P2TR, and P2PK. A P2PK output (a bare public key, as early coinbases pay) has no
 * address of its own: it is written as the P2PKH address of that key, as block explorers show
 * it, so coins paid to the key and to its hash fall into one address. Every other script
 * (OP_RETURN, bare multisig, a witness version without an address standard, a script that does
 * not parse) pays no address: null, and the caller counts it as non-standard.
 */
import { ripemd160 } from "@noble/hashes/legacy.js";
import { sha256 } from "@noble/hashes/sha2.js";
import { Address, OutScript } from "@scure/btc-signer";
import type { BitcoinParams } from "./bitcoin-params.js";

/** The kinds of output script with an address. */
export type OutputKind = "p2pk" | "p2pkh" | "p2sh" | "p2wpkh" | "p2wsh" | "p2tr";

/** An output script decoded: its kind and address, or null when it pays no address. */
export interface DecodedOutput {
  readonly kind: OutputKind;
  readonly address: string;
}

type AddressCoder = ReturnType<typeof Address>;
const coders = new WeakMap<BitcoinParams, AddressCoder>();

function coderOf(params: BitcoinParams): AddressCoder {
  let coder = coders.get(params);
  if (coder === undefined) {
    coder = Address({
      bech32: params.bech32,
      pubKeyHash: params.pubKeyHash,
      scriptHash: params.scriptHash,
      wif: 0,
    });
    coders.set(params, coder);
  }
  return coder;
}

const KINDS: Readonly<Record<string, OutputKind>> = Object.freeze({
  pkh: "p2pkh",
  sh: "p2sh",
  wpkh: "p2wpkh",
  wsh: "p2wsh",
  tr: "p2tr",
});

/**
 * The templates nearly every output uses, recognised by their bytes before the general decoder
 * runs (which parses the whole script, about ten times slower); the address is still written by
 * the library's encoder.
 */
function standardTemplate(s: Uint8Array): Parameters<AddressCoder["encode"]>[0] | null {
  const n = s.length;
  if (n === 25 && s[0] === 0x76 && s[1] === 0xa9 && s[2] === 20 && s[23] === 0x88 && s[24] === 0xac)
    return { type: "pkh", hash: s.slice(3, 23) };
  if (n === 23 && s[0] === 0xa9 && s[1] === 20 && s[22] === 0x87) return { type: "sh", hash: s.slice(2, 22) };
  if (n === 22 && s[0] === 0x00 && s[1] === 20) return { type: "wpkh", hash: s.slice(2) };
  if (n === 34 && s[0] === 0x00 && s[1] === 32) return { type: "wsh", hash: s.slice(2) };
  if (n === 34 && s[0] === 0x51 && s[1] === 32) return { type: "tr", pubkey: s.slice(2) };
  return null;
}

/** Decodes an output script; null for a script that pays no address (see the module comment). */
export function decodeOutputScript(script: Uint8Array, params: BitcoinParams): DecodedOutput | null {
  const template = standardTemplate(script);
  if (template !== null) {
    const kind = KINDS[template.type] as OutputKind;
    try {
      return { kind, address: coderOf(params).encode(template) };
    } catch {
      return null;
    }
  }
  let decoded: Parameters<AddressCoder["encode"]>[0];
  try {
    // The decoder's and the encoder's types differ only in the buffer type of the bytes.
    decoded = OutScript.decode(script) as Parameters<AddressCoder["encode"]>[0];
  } catch {
    return null;
  }
  const coder = coderOf(params);
  if (decoded.type === "pk") {
    return { kind: "p2pk", address: coder.encode({ type: "pkh", hash: ripemd160(sha256(decoded.pubkey)) }) };
  }
  const kind = KINDS[decoded.type];
  if (kind === undefined) return null;
  try {
    return { kind, address: coder.encode(decoded) };
  } catch {
    return null;
  }
}

/** The address `script` pays in normal form (segwit lower-case), or null (non-standard). */
export function addressOfScript(script: Uint8Array, params: BitcoinParams): string | null {
  return decodeOutputScript(script, params)?.address ?? null;
}
