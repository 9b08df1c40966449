/**
 * Importing tokens (network, token id, symbol, decimals, name): the generic CSV, the
 * ethereum-lists derived CSV and the trustwallet TRC-20 CSV. A token is keyed by (network,
 * tokenId); the last row of a key in a batch wins, and a stored token is replaced when it differs.
 */
import { classifyTokenId, type TokenInfo } from "@openkyt/core";
import { columnIndex, fieldAt, openCsvTable } from "./csv-table.js";
import { requiredColumns } from "./format-registry.js";
import type { ImportContext } from "./import-context.js";
import { importRows, type Located, type RowResult, type RowSink } from "./import-rows.js";
import { ETHEREUM_LISTS_CHAINS, networkCode } from "./network-mappings.js";
import { freeTextProblem, parseCount } from "./row-values.js";

const TOKEN_COLUMNS = ["network", "token_id", "chain", "address", "symbol", "decimals", "name"] as const;

/** A token of `network` from its fields, or why not. */
function token(
  network: string,
  rawId: string | undefined,
  symbol: string,
  rawDecimals: string | undefined,
  name: string,
): RowResult<TokenInfo> {
  const id = classifyTokenId(network, rawId);
  if (!id.ok) return { reject: `token "${rawId ?? ""}": ${id.problem}` };
  if (id.kind === "symbol") return { reject: `token "${rawId}" must be native or a contract address` };
  if (symbol === "") return { reject: "symbol is missing" };
  const decimals = parseCount("decimals", rawDecimals);
  if (!decimals.ok) return { reject: decimals.problem };
  if (decimals.value > 36) return { reject: `decimals ${decimals.value} is more than 36` };
  const unstorable = freeTextProblem({ symbol, name });
  if (unstorable !== null) return { reject: unstorable };
  return {
    value: { network, tokenId: id.value, symbol, decimals: decimals.value, name: name === "" ? null : name },
  };
}

/** Decoder of a token format's records. */
function tokenDecoder(format: string, header: ReadonlyArray<string>) {
  const at = columnIndex(header, TOKEN_COLUMNS);
  const text = (fields: ReadonlyArray<string>, column: number) => fieldAt(fields, column)?.trim() ?? "";
  return (fields: ReadonlyArray<string>): RowResult<TokenInfo> => {
    let network: string | null;
    if (format === "csv") {
      network = networkCode(fieldAt(fields, at.network));
      if (network === null) return { reject: `unknown network "${text(fields, at.network)}"` };
    } else if (format === "ethereum-lists") {
      const chain = text(fields, at.chain).toLowerCase();
      network = ETHEREUM_LISTS_CHAINS[chain] ?? null;
      if (network === null) return { skip: `chain ${chain || "(none)"}` };
    } else {
      network = "TRX";
    }
    const id = format === "csv" ? fieldAt(fields, at.token_id) : fieldAt(fields, at.address);
    return token(network, id, text(fields, at.symbol), fieldAt(fields, at.decimals), text(fields, at.name));
  };
}

const sameToken = (a: TokenInfo, b: TokenInfo): boolean =>
  a.symbol === b.symbol && a.decimals === b.decimals && a.name === b.name;

/** The sink of tokens: last row of a key wins; only new or changed tokens are written. */
function tokenSink(ctx: ImportContext): RowSink<TokenInfo> {
  const { tally } = ctx;
  // Keys of earlier batches of this file: their rows are duplicates, never "unchanged".
  const seen = new Set<string>();
  return {
    async write(batch: ReadonlyArray<Located<TokenInfo>>) {
      const folded = new Map<string, TokenInfo>();
      for (const { value } of batch) {
        const key = `${value.network} ${value.tokenId}`;
        if (folded.has(key)) tally.duplicates++;
        folded.set(key, value);
      }
      await ctx.store.transaction(async (tx) => {
        const writes: TokenInfo[] = [];
        for (const [key, row] of folded) {
          const before = await tx.getToken(row.network, row.tokenId);
          if (seen.has(key)) {
            tally.duplicates++;
            if (before === null || !sameToken(before, row)) writes.push(row);
            continue;
          }
          seen.add(key);
          if (before !== null && sameToken(before, row)) {
            tally.unchanged++;
            continue;
          }
          if (before === null) tally.added++;
          else tally.updated++;
          writes.push(row);
        }
        if (writes.length > 0) await tx.putTokens(writes);
      });
    },
    async finish() {},
    async abort() {},
  };
}

/** Imports a tokens file of `ctx.format`: `csv`, `ethereum-lists` or `trustwallet-trc20`. */
export async function importTokens(ctx: ImportContext): Promise<void> {
  const table = await openCsvTable(ctx.file, requiredColumns("tokens", ctx.format));
  const decode = tokenDecoder(ctx.format, table.header);
  await importRows({
    records: table.records,
    decode: (r) => decode(r.fields),
    sink: tokenSink(ctx),
    tally: ctx.tally,
    batchSize: ctx.batchSize,
    progress: ctx.progress,
    finishing: ctx.finishing,
  });
}
