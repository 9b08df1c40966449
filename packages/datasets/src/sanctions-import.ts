/**
 * Importing a sanctions list. The whole list is read first (the addresses of one list are few:
 * the OFAC SDN list has about a thousand), merged per address, then compared with what the store
 * holds for the list (`listSanctionsOfList`), and only then written, a batch per transaction.
 * A file that cannot be read therefore writes nothing.
 */
import { basename, dirname } from "node:path";
import type { SanctionsListing } from "@openkyt/core";
import { openCsvTable } from "./csv-table.js";
import { unreadable } from "./file-text.js";
import { requiredColumns } from "./format-registry.js";
import type { ImportContext } from "./import-context.js";
import { importRows, type Located, type RowResult, type RowSink } from "./import-rows.js";
import { parseTime } from "./row-values.js";
import {
  addressListDecoder,
  assetOfFileName,
  historyDecoder,
  ofacCsvDecoder,
  type SanctionsContext,
  type SanctionsRow,
} from "./sanctions-rows.js";
import {
  type MergedAddress,
  mergeRow,
  planHistory,
  planSnapshot,
  type SnapshotPlan,
} from "./sanctions-snapshot.js";
import { lineBatches, type TextLine } from "./text-lines.js";

/** The list name used when none is given. */
export const DEFAULT_LIST_NAME = "OFAC SDN";

const DATE_IN_TEXT = /(\d{4}-\d{2}-\d{2})(?:[ T](\d{2}:\d{2}(?::\d{2})?))?/;

/** A date (and time, read as UTC) found in a text such as `# Last Updated: 2026-08-22 04:25:46 UTC`. */
function dateIn(text: string): number | null {
  const match = DATE_IN_TEXT.exec(text);
  if (!match) return null;
  const at = Date.parse(`${match[1]}T${match[2] ?? "00:00"}Z`);
  return Number.isFinite(at) ? at : null;
}

/** The `asOf` option as epoch ms, null when not given; a bad value fails before anything is read. */
function explicitDate(ctx: ImportContext): number | null {
  const { asOf } = ctx.options;
  if (asOf === undefined) return null;
  const parsed = parseTime("asOf", String(asOf));
  if (!parsed.ok) throw unreadable(ctx.file.path, parsed.problem);
  return parsed.value;
}

/** A date the file states (a comment), else a date in its name or its folder's name, else now. */
function impliedDate(ctx: ImportContext, stated: number | null): number {
  const { path } = ctx.file;
  return stated ?? dateIn(basename(path)) ?? dateIn(basename(dirname(path))) ?? ctx.clock.now();
}

/** Address lines without blank and `#` comment lines; comments go to `onComment`. */
async function* addressLines(
  ctx: ImportContext,
  onComment: (text: string) => void,
): AsyncGenerator<TextLine[]> {
  for await (const batch of lineBatches(ctx.file.chunks())) {
    const kept: TextLine[] = [];
    for (const line of batch) {
      const text = line.text.trim();
      if (text.startsWith("#")) onComment(text);
      else if (text !== "") kept.push(line);
    }
    yield kept;
  }
}

/** A sink that keeps every row until the end, then plans and writes. */
function collectingSink(finish: (rows: ReadonlyArray<SanctionsRow>) => Promise<void>): RowSink<SanctionsRow> {
  const rows: SanctionsRow[] = [];
  return {
    async write(batch: ReadonlyArray<Located<SanctionsRow>>) {
      for (const row of batch) rows.push(row.value);
    },
    finish: () => finish(rows),
    async abort() {},
  };
}

/** Writes a plan, a batch per transaction, and counts it (rows of one address beyond the first are duplicates). */
async function applyPlan(ctx: ImportContext, plan: SnapshotPlan, rowCount: number): Promise<void> {
  const { tally, store } = ctx;
  for (const outcome of plan.outcomes.values()) tally[outcome]++;
  tally.duplicates += rowCount - plan.outcomes.size;
  tally.delisted += plan.delisted;
  for (let at = 0; at < plan.writes.length; at += ctx.batchSize) {
    const chunk: SanctionsListing[] = plan.writes.slice(at, at + ctx.batchSize);
    await store.transaction((tx) => tx.putSanctions(chunk));
  }
}

/** Imports a sanctions file of `ctx.format`: `ofac-csv`, `ofac-history` or `address-list`. */
export async function importSanctions(ctx: ImportContext): Promise<void> {
  const listName = ctx.options.listName ?? DEFAULT_LIST_NAME;
  const present = new Set<string>();
  const sanctionsCtx: SanctionsContext = { warn: (line, reason) => ctx.tally.warn(line, reason), present };
  const given = explicitDate(ctx);
  let stated: number | null = null;

  const snapshotFinish = (delistByDefault: boolean) => async (rows: ReadonlyArray<SanctionsRow>) => {
    const asOf = given ?? impliedDate(ctx, stated);
    ctx.tally.asOf = asOf;
    const addresses = new Map<string, MergedAddress>();
    for (const row of rows) addresses.set(row.address, mergeRow(addresses.get(row.address), row));
    const stored = await ctx.store.listSanctionsOfList(listName);
    const delist = ctx.options.delist ?? delistByDefault;
    await applyPlan(ctx, planSnapshot({ listName, asOf, addresses, stored, delist, present }), rows.length);
  };

  const run = <R extends { line: number }>(
    records: AsyncIterable<ReadonlyArray<R>>,
    decode: (record: R) => RowResult<SanctionsRow>,
    finish: (rows: ReadonlyArray<SanctionsRow>) => Promise<void>,
  ) =>
    importRows({
      records,
      decode,
      sink: collectingSink(finish),
      tally: ctx.tally,
      batchSize: ctx.batchSize,
      progress: ctx.progress,
      finishing: ctx.finishing,
    });

  if (ctx.format === "address-list") {
    const asset = ctx.options.network?.trim().toUpperCase() ?? assetOfFileName(basename(ctx.file.path));
    const decode = addressListDecoder(asset, sanctionsCtx);
    const lines = addressLines(ctx, (comment) => {
      stated ??= /updated/i.test(comment) ? dateIn(comment) : null;
    });
    await run(lines, (l) => decode(l.text, l.line), snapshotFinish(asset === null));
    return;
  }
  if (ctx.format === "ofac-csv") {
    const table = await openCsvTable(ctx.file, requiredColumns("sanctions", ctx.format));
    const decode = ofacCsvDecoder(table.header, sanctionsCtx);
    await run(table.records, (r) => decode(r.fields, r.line), snapshotFinish(true));
    return;
  }
  const table = await openCsvTable(ctx.file, requiredColumns("sanctions", ctx.format));
  const decode = historyDecoder(table.header, sanctionsCtx);
  await run(
    table.records,
    (r) => decode(r.fields, r.line),
    async (rows) => {
      const stored = await ctx.store.listSanctionsOfList(listName);
      await applyPlan(ctx, planHistory({ listName, rows, stored }), rows.length);
    },
  );
}
