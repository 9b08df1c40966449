/**
 * Importing daily USD prices: the generic CSV `network,token_id,date,usd`, and Yahoo-style files
 * (`Date,Close,...` or `Date,Adj_Close`) of one token, whose network and token are given (or, for a
 * file named like `BTC-USD.csv`, read from the name when it names a network's native coin).
 */
import { basename } from "node:path";
import { classifyTokenId, KytError, NATIVE_TOKEN, NETWORKS, type PriceRow } from "@openkyt/core";
import type { CsvRecord } from "./csv-records.js";
import { columnIndex, fieldAt, openCsvTable } from "./csv-table.js";
import { requiredColumns } from "./format-registry.js";
import type { ImportContext } from "./import-context.js";
import { importRows, type Located, type RowResult, type RowSink } from "./import-rows.js";
import { networkCode } from "./network-mappings.js";
import { parseAmount, parseDay } from "./row-values.js";

/** A usage error about the options of a price import. */
function usage(path: string, message: string): KytError {
  return new KytError("VALIDATION_ERROR", `${path}: ${message}`, { details: { file: path } });
}

/** The symbol a Yahoo-style file name names (`BTC-USD.csv`, `LTC-USD_1d.csv`), or null. */
function symbolOfFileName(path: string): string | null {
  return /^([A-Za-z0-9]+)-USD/i.exec(basename(path))?.[1]?.toUpperCase() ?? null;
}

/** The network and token of a Yahoo-style file, from the options or the file name. */
async function yahooTarget(ctx: ImportContext): Promise<{ network: string; tokenId: string }> {
  const { path } = ctx.file;
  const symbol = symbolOfFileName(path);
  const named =
    symbol === null ? undefined : NETWORKS.find((n) => n.code === symbol || n.nativeSymbol === symbol);
  const network =
    ctx.options.network === undefined ? (named?.code ?? null) : networkCode(ctx.options.network);
  if (network === null) throw usage(path, "give the network of these prices (an unknown or missing network)");
  const token = ctx.options.token;
  if (token === undefined) {
    const native = NETWORKS.find((n) => n.code === network)?.nativeSymbol;
    if (symbol !== null && symbol !== native && symbol !== network)
      throw usage(path, `the file names ${symbol}, not ${network}'s native coin: give its token`);
    return { network, tokenId: NATIVE_TOKEN };
  }
  const check = classifyTokenId(network, token);
  if (!check.ok) throw usage(path, `token ${token}: ${check.problem}`);
  if (check.kind !== "symbol") return { network, tokenId: check.value };
  const found = await ctx.store.listTokens({ network, symbol: check.value }, { page: 1, pageSize: 2 });
  const [only] = found.items;
  if (found.total !== 1 || only === undefined)
    throw usage(
      path,
      `token ${token} is ${found.total === 0 ? "not" : "ambiguous"} in the token table of ${network}`,
    );
  return { network, tokenId: only.tokenId };
}

/** Decoder of a generic price row. */
function genericDecoder(header: ReadonlyArray<string>) {
  const at = columnIndex(header, ["network", "token_id", "date", "usd"] as const);
  return (fields: ReadonlyArray<string>): RowResult<PriceRow> => {
    const network = networkCode(fieldAt(fields, at.network));
    if (network === null) return { reject: `unknown network "${fieldAt(fields, at.network) ?? ""}"` };
    const id = classifyTokenId(network, fieldAt(fields, at.token_id));
    if (!id.ok) return { reject: `token_id: ${id.problem}` };
    if (id.kind === "symbol") return { reject: "token_id must be native or a contract address" };
    return priceRow(network, id.value, fieldAt(fields, at.date), fieldAt(fields, at.usd));
  };
}

/** A price row, or why not. */
function priceRow(
  network: string,
  tokenId: string,
  date: string | undefined,
  usd: string | undefined,
): RowResult<PriceRow> {
  const day = parseDay("date", date);
  if (!day.ok) return { reject: day.problem };
  const price = parseAmount("usd", usd);
  if (!price.ok) return { reject: price.problem };
  return { value: { network, tokenId, day: day.value, usd: price.value } };
}

/**
 * The sink of prices: last row of a day wins. The store answers the price in force on a day (that
 * day's, else the latest before), so a row is unchanged when that answer already equals it, and
 * any other row is counted as added.
 */
function priceSink(ctx: ImportContext): RowSink<PriceRow> {
  const { tally } = ctx;
  return {
    async write(batch: ReadonlyArray<Located<PriceRow>>) {
      const folded = new Map<string, PriceRow>();
      for (const { value } of batch) {
        const key = `${value.network} ${value.tokenId} ${value.day}`;
        if (folded.has(key)) tally.duplicates++;
        folded.set(key, value);
      }
      await ctx.store.transaction(async (tx) => {
        const writes: PriceRow[] = [];
        for (const row of folded.values()) {
          if ((await tx.getPrice(row.network, row.tokenId, row.day)) === row.usd) tally.unchanged++;
          else {
            tally.added++;
            writes.push(row);
          }
        }
        if (writes.length > 0) await tx.putPrices(writes);
      });
    },
    async finish() {},
    async abort() {},
  };
}

/** Imports a prices file of `ctx.format`: `csv` or `yahoo`. */
export async function importPrices(ctx: ImportContext): Promise<void> {
  const run = (
    records: AsyncIterable<ReadonlyArray<CsvRecord>>,
    decode: (fields: ReadonlyArray<string>) => RowResult<PriceRow>,
  ) =>
    importRows({
      records,
      decode: (r) => decode(r.fields),
      sink: priceSink(ctx),
      tally: ctx.tally,
      batchSize: ctx.batchSize,
      progress: ctx.progress,
      finishing: ctx.finishing,
    });
  if (ctx.format === "csv") {
    const table = await openCsvTable(ctx.file, requiredColumns("prices", ctx.format));
    await run(table.records, genericDecoder(table.header));
    return;
  }
  const { network, tokenId } = await yahooTarget(ctx);
  const table = await openCsvTable(ctx.file, requiredColumns("prices", ctx.format));
  const at = columnIndex(table.header, ["date", "adj_close", "close"] as const);
  const close = at.adj_close >= 0 ? at.adj_close : at.close;
  await run(table.records, (fields) =>
    priceRow(network, tokenId, fieldAt(fields, at.date), fieldAt(fields, close)),
  );
}
