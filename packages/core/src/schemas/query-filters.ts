/**
 * Pieces shared by the list-query schemas: the page fields, filter compaction, range and
 * symbol checks.
 */
import type { FieldProblem } from "./network-fields.js";
import { pageField, pageSizeField } from "./query-fields.js";

/** page and page_size, shared by every list query. */
export const pageFields = { page: pageField, page_size: pageSizeField };

/** Drops undefined values so filters only hold what was asked for. */
export function compact<T extends object>(filter: T): T {
  return Object.fromEntries(Object.entries(filter).filter(([, v]) => v !== undefined)) as T;
}

/** Adds a problem under both names when a range's start is after its end. */
export function checkRange(problems: FieldProblem[], from: string, to: string, a?: number, b?: number): void {
  if (a === undefined || b === undefined || a <= b) return;
  problems.push(
    { field: from, message: `${from} is after ${to}` },
    { field: to, message: `${from} is after ${to}` },
  );
}

/** A symbol given as token_id becomes the symbol filter; it must agree with token_symbol. */
export function symbolFilter(
  problems: FieldProblem[],
  fromTokenId?: string,
  tokenSymbol?: string,
): string | undefined {
  if (fromTokenId === undefined) return tokenSymbol;
  if (tokenSymbol !== undefined && tokenSymbol.toUpperCase() !== fromTokenId) {
    problems.push({
      field: "token_id",
      message: `symbol ${fromTokenId} disagrees with token_symbol ${tokenSymbol}`,
    });
  }
  return fromTokenId;
}
