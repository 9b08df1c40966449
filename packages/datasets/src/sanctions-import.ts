/**
 * Importing a sanctions list. The whole list is read first (the addresses of one list are few:
 * the OFAC SDN list has about a thousand), merged per address, then, in one store transaction,
 * compared with what the store holds for the list (`listSanctionsOfList`) and written: all of it
 * or nothing, whatever fails or is refused on the way.
 *
 * Listings are ended ("delisted") only by a complete snapshot of the same list (the OFAC CSV, an
 * all-chain address list; never a per-asset list), and a run is refused before it writes when:
 * - it would delist while the file does not look whole (`INCOMPLETE_SNAPSHOT`; `delist: false`
 *   adds and updates only): it has no row the import could take (a header only), rows could not
 *   be read, its last line has no newline (cut mid-line), or a row skipped as an address of no
 *   supported network is the start of an address it would delist (an address cut short). A file
 *   cut exactly at a line boundary shows none of these: the mass-delisting limit is the guard;
 * - it would delist more than {@link massDelistLimit} listings (`MASS_DELIST`) without
 *   `allowMassDelist`.
 * A dry run plans the same way and writes nothing.
 */
import { basename, dirname } from "node:path";
import type { StoreOps } from "@openkyt/core";
import { openCsvTable } from "./csv-table.js";
import { type TextFile, unreadable } from "./file-text.js";
import { requiredColumns } from "./format-registry.js";
import type { ImportContext } from "./import-context.js";
import { importRows, type Located, type RowResult, type RowSink } from "./import-rows.js";
import { MASS_DELIST_SHARE, massDelistLimit, PREVIEW_SIZE, refusal, refusalOf } from "./import-types.js";
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
  type AddressOutcome,
  type MergedAddress,
  mergeRow,
  openListings,
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
async function* addressLines(file: TextFile, onComment: (text: string) => void): AsyncGenerator<TextLine[]> {
  for await (const batch of lineBatches(file.chunks())) {
    const kept: TextLine[] = [];
    for (const line of batch) {
      const text = line.text.trim();
      if (line.problem !== undefined) kept.push(line);
      else if (text.startsWith("#")) onComment(text);
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

/** Counts a plan into the tally (rows of one address beyond the first are duplicates) and previews it. */
function countPlan(ctx: ImportContext, plan: SnapshotPlan, rowCount: number): void {
  const { tally } = ctx;
  const first: Record<AddressOutcome, string[]> = { added: [], updated: [], relisted: [], unchanged: [] };
  for (const [address, outcome] of plan.outcomes) {
    if (outcome === "relisted") {
      tally.relisted++;
      tally.updated++;
    } else tally[outcome]++;
    if (first[outcome].length < PREVIEW_SIZE) first[outcome].push(address);
  }
  tally.duplicates += rowCount - plan.outcomes.size;
  tally.delisted += plan.delistings;
  const { added, updated, relisted } = first;
  tally.preview = { added, updated, relisted, delisted: plan.delisted.slice(0, PREVIEW_SIZE) };
}

/** What the import saw of a complete-list snapshot's wholeness (null for a history file). */
interface Wholeness {
  /** Rows the import took (added, updated, unchanged or duplicates): neither skipped nor rejected. */
  readonly accepted: number;
  /** The file's last character is a newline; false for a file cut in the middle of a line. */
  readonly endsWithNewline: boolean;
  /** Address texts skipped as of no supported network (see {@link SanctionsContext.unplaced}). */
  readonly unplaced: ReadonlySet<string>;
}

/** Why a snapshot that would delist is not a complete one, or null when nothing says so. */
function incompleteness(ctx: ImportContext, plan: SnapshotPlan, whole: Wholeness): string | null {
  const { tally } = ctx;
  if (whole.accepted === 0)
    return "it has no row the import could take (a header, comments or skipped rows only)";
  if (tally.rejected > 0) {
    const firstRejection = tally.firstRejection();
    const example = firstRejection ? ` (line ${firstRejection.line}: ${firstRejection.reason})` : "";
    return `${tally.rejected} rows could not be read${example}`;
  }
  if (!whole.endsWithNewline) return "its last line does not end with a newline (the file was cut mid-line)";
  for (const address of plan.delisted) {
    const lower = address.toLowerCase();
    for (const start of whole.unplaced) {
      if (lower.startsWith(start))
        return `the skipped row "${start}" (of no supported network) is the start of "${address}", which it would delist (an address cut short)`;
    }
  }
  return null;
}

/** Why a plan must not be applied, or null. */
function refusalOfPlan(
  ctx: ImportContext,
  listName: string,
  plan: SnapshotPlan,
  openBefore: number,
  whole: Wholeness | null,
): Error | null {
  const { file } = ctx;
  const incomplete = whole !== null && plan.delistings > 0 ? incompleteness(ctx, plan, whole) : null;
  if (incomplete !== null) {
    return refusal(
      "INCOMPLETE_SNAPSHOT",
      file.path,
      `${incomplete}, so the file is not a complete snapshot of "${listName}" ` +
        `and may not delist; it would delist ${plan.delistings} listings. Nothing was written. Fix the file, ` +
        "or import it without delisting (--no-delist) to add and update only",
    );
  }
  const limit = massDelistLimit(openBefore);
  if (plan.delistings > limit && ctx.options.allowMassDelist !== true) {
    return refusal(
      "MASS_DELIST",
      file.path,
      `this import would delist ${plan.delistings} of the ${openBefore} listings of "${listName}" ` +
        `(more than ${limit}: ${MASS_DELIST_SHARE * 100}% of the list). Nothing was written. If the file is the ` +
        "complete, current list, run again with --allow-mass-delist; --dry-run shows what it would delist",
    );
  }
  return null;
}

/**
 * Plans against the stored list and applies the plan in one store transaction, unless it is
 * refused (thrown; a dry run records it instead) or this is a dry run (nothing written).
 */
async function settle(
  ctx: ImportContext,
  listName: string,
  rowCount: number,
  whole: Wholeness | null,
  makePlan: (stored: Awaited<ReturnType<StoreOps["listSanctionsOfList"]>>) => SnapshotPlan,
): Promise<void> {
  const { tally } = ctx;
  const run = async (ops: StoreOps) => {
    const stored = await ops.listSanctionsOfList(listName);
    const plan = makePlan(stored);
    const refused = refusalOfPlan(ctx, listName, plan, openListings(stored), whole);
    if (refused !== null && !tally.dryRun) throw refused;
    if (!tally.dryRun && plan.writes.length > 0) await ops.putSanctions(plan.writes);
    return { plan, refused };
  };
  // Counted once the transaction is over, so that nothing is counted twice or for a failed run.
  const { plan, refused } = tally.dryRun ? await run(ctx.store) : await ctx.store.transaction(run);
  countPlan(ctx, plan, rowCount);
  const code = refusalOf(refused);
  if (code !== null) tally.refusal = { code, message: refused?.message ?? "" };
}

/** Imports a sanctions file of `ctx.format`: `ofac-csv`, `ofac-history` or `address-list`. */
export async function importSanctions(ctx: ImportContext): Promise<void> {
  const listName = ctx.options.listName ?? DEFAULT_LIST_NAME;
  const present = new Set<string>();
  const unplaced = new Set<string>();
  const warn = (line: number, reason: string) => ctx.tally.warn(line, reason);
  const sanctionsCtx: SanctionsContext = { warn, present, unplaced };
  // The file's last character, to tell a file cut mid-line (see `incompleteness`).
  let lastChar = "";
  const source = ctx.file;
  const file: TextFile = {
    ...source,
    async *chunks() {
      for await (const chunk of source.chunks()) {
        lastChar = chunk.slice(-1);
        yield chunk;
      }
    },
  };
  const given = explicitDate(ctx);
  let stated: number | null = null;

  const snapshotFinish = (delistByDefault: boolean) => async (rows: ReadonlyArray<SanctionsRow>) => {
    const asOf = given ?? impliedDate(ctx, stated);
    ctx.tally.asOf = asOf;
    const addresses = new Map<string, MergedAddress>();
    for (const row of rows) addresses.set(row.address, mergeRow(addresses.get(row.address), row));
    const delist = ctx.options.delist ?? delistByDefault;
    const whole: Wholeness = { accepted: rows.length, endsWithNewline: lastChar === "\n", unplaced };
    await settle(ctx, listName, rows.length, whole, (stored) =>
      planSnapshot({ listName, asOf, addresses, stored, delist, present }),
    );
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
    if (asset !== null && ctx.options.delist === true) {
      throw refusal(
        "PARTIAL_LIST_DELIST",
        ctx.file.path,
        `a per-asset list (${asset}) is not a complete snapshot of a list, so it may not delist`,
      );
    }
    const decode = addressListDecoder(asset, sanctionsCtx);
    const lines = addressLines(file, (comment) => {
      stated ??= /updated/i.test(comment) ? dateIn(comment) : null;
    });
    await run(lines, (l) => decode(l.text, l.line), snapshotFinish(asset === null));
    return;
  }
  if (ctx.format === "ofac-csv") {
    const table = await openCsvTable(file, requiredColumns("sanctions", ctx.format));
    const decode = ofacCsvDecoder(table.header, sanctionsCtx);
    await run(table.records, (r) => decode(r.fields, r.line), snapshotFinish(true));
    return;
  }
  const table = await openCsvTable(file, requiredColumns("sanctions", ctx.format));
  const decode = historyDecoder(table.header, sanctionsCtx);
  await run(
    table.records,
    (r) => decode(r.fields, r.line),
    (rows) => settle(ctx, listName, rows.length, null, (stored) => planHistory({ listName, rows, stored })),
  );
}
