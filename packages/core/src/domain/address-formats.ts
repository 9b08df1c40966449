/**
 * Address and transaction-hash formats per address family: what is valid and the normal form.
 * EVM lower-cases; Tron keeps its Base58Check case; Bitcoin and Litecoin keep Base58Check case
 * and lower-case segwit (Bech32/Bech32m) addresses. Only mainnet formats are accepted.
 */
import { decodeBase58Check, decodeSegwitAddress } from "./address-codecs.js";
import { type AddressFamily, networkInfo } from "./networks.js";

/** A checked value: its normal form, or a human-readable problem. */
export type FormatCheck =
  | { readonly ok: true; readonly value: string }
  | { readonly ok: false; readonly problem: string };

/** How each family is named in messages. */
export const ADDRESS_FAMILY_LABELS: Readonly<Record<AddressFamily, string>> = Object.freeze({
  evm: "EVM",
  tron: "Tron",
  bitcoin: "Bitcoin",
  litecoin: "Litecoin",
});

/** Base58Check version bytes and segwit prefix of the UTXO families and Tron. */
const BASE58_VERSIONS: Readonly<Record<Exclude<AddressFamily, "evm">, ReadonlyArray<number>>> = Object.freeze(
  {
    tron: [0x41],
    bitcoin: [0x00, 0x05],
    litecoin: [0x30, 0x32, 0x05],
  },
);
const SEGWIT_HRP: Readonly<Partial<Record<AddressFamily, string>>> = Object.freeze({
  bitcoin: "bc",
  litecoin: "ltc",
});

const EVM_ADDRESS = /^0x[0-9a-f]{40}$/i;
const EVM_TX_HASH = /^0x[0-9a-f]{64}$/i;
const PLAIN_TX_HASH = /^[0-9a-f]{64}$/i;

/** The address family of a network code (any case), or null when the network is unknown. */
export function familyOfNetwork(network: string): AddressFamily | null {
  return networkInfo(network.trim().toUpperCase())?.family ?? null;
}

function invalid(family: AddressFamily, why: string): FormatCheck {
  return { ok: false, problem: `not a valid ${ADDRESS_FAMILY_LABELS[family]} address (${why})` };
}

function checkBase58(family: Exclude<AddressFamily, "evm">, text: string): FormatCheck {
  const decoded = decodeBase58Check(text);
  if (!decoded.ok) return invalid(family, decoded.problem);
  if (decoded.payload.length !== 21) return invalid(family, "wrong length: expected 25 bytes");
  const version = decoded.payload[0] ?? -1;
  const versions = BASE58_VERSIONS[family];
  if (!versions.includes(version)) {
    const allowed = versions.map((v) => `0x${v.toString(16).padStart(2, "0")}`).join(", ");
    return invalid(family, `version byte 0x${version.toString(16).padStart(2, "0")}, expected ${allowed}`);
  }
  return { ok: true, value: text };
}

/** Checks an address (already trimmed) of a family and gives its normal form. */
export function checkAddressOfFamily(family: AddressFamily, text: string): FormatCheck {
  if (text === "") return { ok: false, problem: "must not be empty" };
  if (family === "evm") {
    return EVM_ADDRESS.test(text)
      ? { ok: true, value: text.toLowerCase() }
      : invalid(family, "expected 0x followed by 40 hex characters");
  }
  const hrp = SEGWIT_HRP[family];
  if (hrp !== undefined && text.toLowerCase().startsWith(`${hrp}1`)) {
    const segwit = decodeSegwitAddress(hrp, text);
    return segwit.ok ? { ok: true, value: text.toLowerCase() } : invalid(family, segwit.problem);
  }
  return checkBase58(family, text);
}

/** Checks a transaction hash (already trimmed) of a family and gives its normal (lower-case) form. */
export function checkTxHashOfFamily(family: AddressFamily, text: string): FormatCheck {
  if (family === "evm") {
    return EVM_TX_HASH.test(text)
      ? { ok: true, value: text.toLowerCase() }
      : {
          ok: false,
          problem: "not a valid EVM transaction hash (expected 0x followed by 64 hex characters)",
        };
  }
  return PLAIN_TX_HASH.test(text)
    ? { ok: true, value: text.toLowerCase() }
    : {
        ok: false,
        problem: `not a valid ${ADDRESS_FAMILY_LABELS[family]} transaction hash (expected 64 hex characters without 0x)`,
      };
}
