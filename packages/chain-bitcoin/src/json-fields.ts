/**
 * Reading fields of node JSON answers (Bitcoin Core, Esplora) with a clear reason when one is
 * missing or malformed: every reader throws a {@link FieldProblem} naming the field's path.
 */
import { bytesOfHex } from "./byte-reader.js";

/** A field that is missing or has the wrong shape; `message` names its path. */
export class FieldProblem extends Error {
  constructor(message: string) {
    super(message);
    this.name = "FieldProblem";
  }
}

/** A JSON object (not an array, not null). */
export type JsonObject = Readonly<Record<string, unknown>>;

export function isObject(value: unknown): value is JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

export function objectAt(value: unknown, path: string): JsonObject {
  if (!isObject(value)) throw new FieldProblem(`${path} is not an object`);
  return value;
}

export function arrayAt(value: unknown, path: string): ReadonlyArray<unknown> {
  if (!Array.isArray(value)) throw new FieldProblem(`${path} is not an array`);
  return value;
}

const TXID = /^[0-9a-f]{64}$/;

/** A txid or block hash: 64 hex characters, answered lower-case. */
export function hashAt(value: unknown, path: string): string {
  if (typeof value !== "string" || !TXID.test(value.toLowerCase()))
    throw new FieldProblem(`${path} is not 64 hex characters`);
  return value.toLowerCase();
}

/** A non-negative safe integer, written as a JSON number or its text (see lossless-json.ts). */
export function countAt(value: unknown, path: string): number {
  const n = typeof value === "string" && /^\d+$/.test(value) ? Number(value) : value;
  if (typeof n !== "number" || !Number.isSafeInteger(n) || n < 0)
    throw new FieldProblem(`${path} is not a whole number ≥ 0 (got ${JSON.stringify(value)})`);
  return n;
}

/** Bytes of a hex string field. */
export function hexAt(value: unknown, path: string): Uint8Array {
  const bytes = typeof value === "string" ? bytesOfHex(value) : null;
  if (bytes === null) throw new FieldProblem(`${path} is not hex`);
  return bytes;
}

/** A segwit address in lower case (its normal form); a Base58 address as it is. */
export function normalAddress(address: string): string {
  return /^[a-z]{1,83}1[02-9ac-hj-np-z]+$/i.test(address) ? address.toLowerCase() : address;
}
