/**
 * Tron addresses: 21 bytes (0x41 then the 20-byte account), written in Base58Check (`T...`) or
 * as 42 hex characters (`41...`) by the node's HTTP API, and as the last 20 bytes of a 32-byte
 * word in event topics. Base58Check is core's codec (@scure/base with @noble's SHA-256).
 */
import { decodeBase58Check, encodeBase58Check } from "@openkyt/core";

/** The address version byte of Tron mainnet. */
const TRON_PREFIX = 0x41;

const HEX_ADDRESS = /^41[0-9a-fA-F]{40}$/;

/** `41`-prefixed hex (42 characters) to Base58Check; null when it is not one. */
export function tronHexToBase58(hex: string): string | null {
  if (!HEX_ADDRESS.test(hex)) return null;
  const bytes = new Uint8Array(21);
  for (let i = 0; i < 21; i++) bytes[i] = Number.parseInt(hex.slice(2 * i, 2 * i + 2), 16);
  return encodeBase58Check(bytes);
}

/** Base58Check to `41`-prefixed lower-case hex; null when it is not a Tron address. */
export function tronBase58ToHex(address: string): string | null {
  const decoded = decodeBase58Check(address);
  if (!decoded.ok || decoded.payload.length !== 21 || decoded.payload[0] !== TRON_PREFIX) return null;
  return Array.from(decoded.payload, (b) => b.toString(16).padStart(2, "0")).join("");
}

/** The address in a 32-byte topic or word (64 hex characters, the account in its last 40); null otherwise. */
export function tronWordToBase58(word: string): string | null {
  if (!/^[0-9a-fA-F]{64}$/.test(word) || !/^0{24}$/.test(word.slice(0, 24))) return null;
  return tronHexToBase58(`41${word.slice(24)}`);
}

/** An event's contract address as the node writes it in a log (20-byte hex, sometimes with 41). */
export function tronLogAddressToBase58(address: string): string | null {
  if (/^[0-9a-fA-F]{40}$/.test(address)) return tronHexToBase58(`41${address}`);
  return tronHexToBase58(address);
}
