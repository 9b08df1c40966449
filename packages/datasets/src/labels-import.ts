/**
 * Importing address labels as attributions (one per network and address).
 *
 * Several labels of one address in a public data set (dawsbot/eth-labels, GraphSense): the
 * label whose category weighs most wins ({@link categoryRank}; on a tie the one met first), within
 * a batch and against an attribution already stored from the same data set, so the outcome does
 * not depend on row order and a second import changes nothing. The generic CSV is your own data:
 * its rows replace what is stored, the last row of an address winning.
 */
import type { Attribution, StoreOps } from "@openkyt/core";
import { openCsvTable } from "./csv-table.js";
import { requiredColumns } from "./format-registry.js";
import type { ImportContext } from "./import-context.js";
import { importRows, type Located, type RowResult, type RowSink } from "./import-rows.js";
import { categoryRank } from "./labels-categories.js";
import { decodeTag, ethLabelsDecoder, genericLabelDecoder, tagpackCsvDecoder } from "./labels-rows.js";
import { readTagPack } from "./labels-tagpack.js";

const keyOf = (a: Attribution): string => `${a.network} ${a.address}`;

const sameAttribution = (a: Attribution, b: Attribution): boolean =>
  a.entityName === b.entityName && a.entityCategory === b.entityCategory && a.source === b.source;

/** True when `candidate` should replace `current` under the precedence rule. */
function outranks(candidate: Attribution, current: Attribution): boolean {
  return categoryRank(candidate.entityCategory) > categoryRank(current.entityCategory);
}

/** True when the stored attribution stays: identical, or outranking a row of the same data set. */
function keepsStored(before: Attribution, row: Attribution, precedence: boolean): boolean {
  return (
    sameAttribution(before, row) || (precedence && before.source === row.source && !outranks(row, before))
  );
}

/** Stored attributions of the batch's keys. */
async function storedOf(tx: StoreOps, rows: Iterable<Attribution>): Promise<Map<string, Attribution>> {
  const byNetwork = new Map<string, string[]>();
  for (const row of rows) {
    const addresses = byNetwork.get(row.network);
    if (addresses) addresses.push(row.address);
    else byNetwork.set(row.network, [row.address]);
  }
  const stored = new Map<string, Attribution>();
  for (const [network, addresses] of byNetwork) {
    for (const a of await tx.getAttributions(network, addresses)) stored.set(keyOf(a), a);
  }
  return stored;
}

/** The sink writing attributions, with or without precedence. */
function attributionSink(ctx: ImportContext, precedence: boolean): RowSink<Attribution> {
  const { tally } = ctx;
  // Keys written by earlier batches of this file: a row of one of them is a duplicate, not
  // "unchanged" against what this same import stored (a first import reports no unchanged rows).
  const seen = new Set<string>();
  return {
    async write(batch: ReadonlyArray<Located<Attribution>>) {
      const folded = new Map<string, Attribution>();
      for (const { value } of batch) {
        const key = keyOf(value);
        const current = folded.get(key);
        if (current !== undefined) tally.duplicates++;
        if (current === undefined || !precedence || outranks(value, current)) folded.set(key, value);
      }
      await ctx.store.transaction(async (tx) => {
        const stored = await storedOf(tx, folded.values());
        const writes: Attribution[] = [];
        for (const [key, row] of folded) {
          const before = stored.get(key);
          if (seen.has(key)) {
            tally.duplicates++;
            if (before === undefined || !keepsStored(before, row, precedence)) writes.push(row);
            continue;
          }
          seen.add(key);
          if (before !== undefined && keepsStored(before, row, precedence)) {
            tally.unchanged++;
            continue;
          }
          if (before === undefined) tally.added++;
          else tally.updated++;
          writes.push(row);
        }
        if (writes.length > 0) await tx.putAttributions(writes);
      });
    },
    async finish() {},
    async abort() {},
  };
}

/** Imports a labels file of `ctx.format`: `csv`, `eth-labels`, `tagpack-csv` or `tagpack-yaml`. */
export async function importLabels(ctx: ImportContext): Promise<void> {
  const run = <R extends { line: number }>(
    records: AsyncIterable<ReadonlyArray<R>>,
    decode: (record: R) => RowResult<Attribution>,
  ) =>
    importRows({
      records,
      decode,
      sink: attributionSink(ctx, ctx.format !== "csv"),
      tally: ctx.tally,
      batchSize: ctx.batchSize,
      progress: ctx.progress,
      finishing: ctx.finishing,
    });

  if (ctx.format === "tagpack-yaml") {
    const tags = await readTagPack(ctx.file);
    await run(
      (async function* () {
        yield tags;
      })(),
      (t) => decodeTag(t.tag),
    );
    return;
  }
  const table = await openCsvTable(ctx.file, requiredColumns("labels", ctx.format));
  const decoders = {
    csv: genericLabelDecoder,
    "eth-labels": ethLabelsDecoder,
    "tagpack-csv": tagpackCsvDecoder,
  } as const;
  const decode = (decoders[ctx.format as keyof typeof decoders] ?? genericLabelDecoder)(table.header);
  await run(table.records, (r) => decode(r.fields));
}
