/**
 * The one place where column values become record values and back: numbers from bigint
 * columns (strings on Postgres), booleans from integers, JSON from text.
 */

/** A number from a numeric column (SQLite gives numbers, Postgres gives int8 as strings). */
export function num(value: number | string | bigint): number {
  return typeof value === "number" ? value : Number(value);
}

/** {@link num}, keeping null. */
export function numOrNull(value: number | string | bigint | null): number | null {
  return value === null ? null : num(value);
}

/** A boolean from an integer column. */
export function bool(value: number | string | bigint): boolean {
  return num(value) !== 0;
}

/** An integer for a boolean column. */
export function boolColumn(value: boolean): number {
  return value ? 1 : 0;
}

/** JSON text of a value. */
export function toJson(value: unknown): string {
  return JSON.stringify(value);
}

/** JSON text of a value, keeping null. */
export function toJsonOrNull(value: unknown): string | null {
  return value === null || value === undefined ? null : JSON.stringify(value);
}

/** The value of JSON text. */
export function fromJson<T>(text: string): T {
  return JSON.parse(text) as T;
}

/** The value of JSON text, keeping null. */
export function fromJsonOrNull<T>(text: string | null): T | null {
  return text === null ? null : (JSON.parse(text) as T);
}

/** Splits `items` into arrays of at most `size`. */
export function chunksOf<T>(items: ReadonlyArray<T>, size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

/** Rows per multi-row insert (about 10 columns each keeps well under every driver's parameter limit). */
export const INSERT_CHUNK = 500;

/** Keys per `IN (...)` list. */
export const IN_LIST_CHUNK = 500;
