/**
 * Field schemas of the list queries. Query values arrive as strings: integers are coerced, an
 * empty value (`?network=`) counts as not given, and unknown parameters are refused (a filter
 * silently ignored would return the wrong rows).
 */
import { z } from "zod";
import { checkTxHash, classifyTokenId, decodeSegwitAddress } from "../domain/addresses.js";
import { type DateBound, parseDateBound } from "./date-filters.js";
import { networkFields } from "./network-fields.js";
import { wireString } from "./wire-text.js";

/** Largest page_size. */
export const MAX_PAGE_SIZE = 100;
/** page_size when not given. */
export const DEFAULT_PAGE_SIZE = 20;
/** Longest text filter value. */
const MAX_FILTER_LENGTH = 200;

/** Treats empty query values as absent, so `?network=` filters nothing. */
export function dropEmptyValues(value: unknown): unknown {
  if (value === null || typeof value !== "object" || Array.isArray(value)) return value;
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== "" && v !== undefined));
}

/** The message of a non-numeric page value; other issues keep their own messages. */
function notAnInteger(issue: { code?: string }): string | undefined {
  return issue.code === "invalid_type" ? "must be an integer" : undefined;
}

/** page: integer >= 1, default 1. */
export const pageField = z.coerce
  .number({ error: notAnInteger })
  .int({ error: "must be an integer" })
  .min(1)
  .default(1)
  .describe("A page number within the paginated result set, from 1. Default 1.");

/** page_size: integer 1..100, default 20; out of range is an error, not a clamp. */
export const pageSizeField = z.coerce
  .number({ error: notAnInteger })
  .int({ error: "must be an integer" })
  .min(1)
  .max(MAX_PAGE_SIZE)
  .default(DEFAULT_PAGE_SIZE)
  .describe(`Number of results to return per page, 1 to ${MAX_PAGE_SIZE}. Default ${DEFAULT_PAGE_SIZE}.`);

/** A free-text filter. */
export function textFilter(description: string) {
  return wireString().trim().max(MAX_FILTER_LENGTH).optional().describe(description);
}

/** A date bound (see date-filters.ts) as epoch ms; a problem is an issue of the field. */
function dateBoundText(bound: DateBound) {
  return wireString().transform((raw, ctx) => {
    const parsed = parseDateBound(raw, bound);
    if (parsed.ok) return parsed.ms;
    ctx.issues.push({ code: "custom", input: raw, message: parsed.problem });
    return z.NEVER;
  });
}

/** The description of a date field: `description` and the forms it takes. */
function dateDescription(description: string): string {
  return `${description} A date YYYY-MM-DD (whole UTC day, inclusive) or an ISO 8601 datetime with offset.`;
}

/** A required date bound as epoch ms (a body's `from` and `to`). */
export function dateField(bound: DateBound, description: string) {
  return dateBoundText(bound).describe(dateDescription(description));
}

/** A date filter bound as epoch ms (see date-filters.ts). */
export function dateFilter(bound: DateBound, description: string) {
  return dateBoundText(bound).optional().describe(dateDescription(description));
}

/** Address filter without a known network: EVM hex and segwit lower-cased, others kept. */
function addressAnyNetwork(raw: string): string {
  const text = raw.trim();
  if (/^0x[0-9a-f]{40}$/i.test(text)) return text.toLowerCase();
  const lower = text.toLowerCase();
  for (const hrp of ["bc", "ltc"]) {
    if (lower.startsWith(`${hrp}1`) && decodeSegwitAddress(hrp, text).ok) return lower;
  }
  return text;
}

/** Normalisers of the network-dependent filters; a null network accepts any family. */
export interface FilterNormalizer {
  address(field: string, raw: string | undefined): string | undefined;
  txHash(field: string, raw: string | undefined): string | undefined;
  /** The token filter: a `tokenId`, or a `symbol` when the value is a ticker symbol. */
  token(field: string, raw: string | undefined): { tokenId?: string; symbol?: string };
  problems(): ReadonlyArray<{ readonly field: string; readonly message: string }>;
}

/** Normalisers for the filters of one list query. */
export function filterNormalizer(network: string | undefined): FilterNormalizer {
  const f = networkFields(network ?? "");
  const known = network !== undefined;
  return {
    address: (field, raw) => {
      if (raw === undefined) return undefined;
      return known ? f.address(field, raw) : addressAnyNetwork(raw);
    },
    txHash: (field, raw) => {
      if (raw === undefined) return undefined;
      if (known) return f.txHash(field, raw);
      const evm = checkTxHash("ETH", raw);
      const plain = checkTxHash("BTC", raw);
      if (evm.ok) return evm.value;
      if (plain.ok) return plain.value;
      f.problem(field, "not a transaction hash (expected 64 hex characters, with 0x on EVM networks)");
      return undefined;
    },
    token: (field, raw) => {
      if (raw === undefined) return {};
      const check = classifyTokenId(network ?? null, raw);
      if (!check.ok) {
        f.problem(field, check.problem);
        return {};
      }
      return check.kind === "symbol" ? { symbol: check.value } : { tokenId: check.value };
    },
    problems: () => f.problems(),
  };
}
