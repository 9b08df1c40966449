/**
 * Stable ids of the built-in entity categories: a UUID version 5 (SHA-1, RFC 9562) of
 * `openkyt:entity-category:<code>` in the standard URL namespace, so the id of a code never
 * changes between runs, processes or installations.
 */
import { sha1 } from "@noble/hashes/legacy.js";
import { bytesToHex, concatBytes, hexToBytes, utf8ToBytes } from "@noble/hashes/utils.js";

/** The RFC 9562 URL namespace. */
const URL_NAMESPACE = "6ba7b811-9dad-11d1-80b4-00c04fd430c8";

/** When the built-in categories are said to have been created (2024-01-01T00:00:00Z). */
export const BUILTIN_CATEGORIES_CREATED_AT = Date.UTC(2024, 0, 1);

/** A UUID version 5 of `name` in `namespace` (a UUID string). */
export function uuidV5(namespace: string, name: string): string {
  const ns = hexToBytes(namespace.replace(/-/g, ""));
  const hash = sha1(concatBytes(ns, utf8ToBytes(name)));
  hash[6] = ((hash[6] ?? 0) & 0x0f) | 0x50;
  hash[8] = ((hash[8] ?? 0) & 0x3f) | 0x80;
  const hex = bytesToHex(hash.subarray(0, 16));
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** The stable id of an entity category code. */
export function entityCategoryId(code: string): string {
  return uuidV5(URL_NAMESPACE, `openkyt:entity-category:${code}`);
}
