/**
 * Importing ledger transfers, streaming: each batch of rows is deduplicated on its key
 * (network, tx_hash, log_index) and handed to the ledger writer; rows already stored are ignored,
 * so importing a file twice adds nothing the second time. The writer is the caller's, else the
 * store's bulk load when it offers one (every row lands at the end, in one transaction), else
 * `putLedgerTransfers` a batch at a time.
 */
import type { LedgerTransfer } from "@openkyt/core";
import { openCsvTable } from "./csv-table.js";
import { requiredColumns } from "./format-registry.js";
import type { ImportContext } from "./import-context.js";
import { importRows, type Located, type RowResult, type RowSink } from "./import-rows.js";
import type { LedgerWriter } from "./import-types.js";
import { ledgerCsvDecoder, ledgerJsonlDecoder, tronscanDecoder } from "./ledger-rows.js";
import { storeLedgerWriter } from "./ledger-writer.js";
import { lineBatches, type TextLine } from "./text-lines.js";

/** The key of a ledger row: network, transaction hash, log index. */
function keyOf(row: LedgerTransfer): string {
  return `${row.network} ${row.txHash} ${row.logIndex}`;
}

/** The sink of ledger rows: batch-level deduplication, then the writer. */
function ledgerSink(ctx: ImportContext, writer: LedgerWriter): RowSink<LedgerTransfer> {
  const { tally } = ctx;
  let distinct = 0;
  return {
    async write(batch: ReadonlyArray<Located<LedgerTransfer>>) {
      // Keyed by hash first: most hashes occur once, so the full key is built only for the
      // rows of a hash met before in the batch.
      const firstOfHash = new Map<string, LedgerTransfer>();
      const keys = new Set<string>();
      const rows: LedgerTransfer[] = [];
      for (const { value } of batch) {
        const first = firstOfHash.get(value.txHash);
        if (first === undefined) firstOfHash.set(value.txHash, value);
        else {
          keys.add(keyOf(first));
          const key = keyOf(value);
          if (keys.has(key)) {
            tally.duplicates++;
            continue;
          }
          keys.add(key);
        }
        rows.push(value);
      }
      distinct += rows.length;
      await writer.write(rows);
    },
    async finish() {
      const added = await writer.finish();
      tally.added += added;
      tally.unchanged += distinct - added;
    },
    abort: () => writer.abort(),
  };
}

/** Non-blank lines of a JSONL file. */
async function* jsonLines(ctx: ImportContext): AsyncGenerator<TextLine[]> {
  for await (const batch of lineBatches(ctx.file.chunks())) yield batch.filter((l) => l.text.trim() !== "");
}

/** The writer of an import: the caller's, else the store's bulk load, else the port a batch at a time. */
async function ledgerWriterOf(ctx: ImportContext): Promise<LedgerWriter> {
  return ctx.options.ledgerWriter ?? (await ctx.store.bulkLedgerWriter?.()) ?? storeLedgerWriter(ctx.store);
}

/** Imports a ledger file of `ctx.format`: `csv`, `jsonl` or `tronscan-trc20`. */
export async function importLedger(ctx: ImportContext): Promise<void> {
  const run = async <R extends { line: number }>(
    records: AsyncIterable<ReadonlyArray<R>>,
    decode: (record: R) => RowResult<LedgerTransfer>,
  ) => {
    const sink = ledgerSink(ctx, await ledgerWriterOf(ctx));
    await importRows({
      records,
      decode,
      sink,
      tally: ctx.tally,
      batchSize: ctx.batchSize,
      progress: ctx.progress,
    });
  };

  if (ctx.format === "jsonl") {
    const decode = ledgerJsonlDecoder();
    await run(jsonLines(ctx), (l) => decode(l.text));
    return;
  }
  const table = await openCsvTable(ctx.file, requiredColumns("ledger", ctx.format));
  const decode = (ctx.format === "csv" ? ledgerCsvDecoder : tronscanDecoder)(table.header);
  await run(table.records, (r) => decode(r.fields));
}
