/**
 * Reading a ledger file, streaming, on whichever thread runs it: records are decoded and
 * validated, each batch of rows is deduplicated on its key (network, tx_hash, log_index), unless
 * the caller does that itself, and handed to a ledger writer. The writer counts rows already
 * stored as unchanged, so importing a file twice adds nothing the second time.
 */
import type { LedgerTransfer } from "@openkyt/core";
import { openCsvTable } from "./csv-table.js";
import { requiredColumns } from "./format-registry.js";
import type { ImportContext } from "./import-context.js";
import { importRows, type Located, type RowResult, type RowSink } from "./import-rows.js";
import type { LedgerWriter } from "./import-types.js";
import { createBatchDedup } from "./ledger-batch-dedup.js";
import { ledgerCsvDecoder, ledgerJsonlDecoder, tronscanDecoder } from "./ledger-rows.js";
import { lineBatches, type TextLine } from "./text-lines.js";

/** What reading a ledger file needs: an import's context without its store and options. */
export type LedgerReading = Pick<
  ImportContext,
  "file" | "format" | "tally" | "batchSize" | "progress" | "finishing"
>;

/** How a ledger file is read. */
export interface LedgerReadOptions {
  /**
   * Deduplicate each batch before the writer sees it (default true). The parse thread leaves it
   * to the importing thread, which has time to spare while the parse thread is the slower one.
   */
  readonly deduplicate?: boolean;
}

/** The sink of ledger rows: batch-level deduplication (unless told not to), then the writer. */
function ledgerSink(
  reading: LedgerReading,
  writer: LedgerWriter,
  options: LedgerReadOptions,
): RowSink<LedgerTransfer> {
  const { tally } = reading;
  const dedup = options.deduplicate === false ? null : createBatchDedup();
  const duplicate = () => {
    tally.duplicates++;
  };
  let distinct = 0;
  return {
    async write(batch: ReadonlyArray<Located<LedgerTransfer>>) {
      const values = batch.map((located) => located.value);
      const rows = dedup === null ? values : dedup.distinct(values, duplicate);
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

/** Non-blank lines of a JSONL file (a line too long to keep is kept, with its problem). */
async function* jsonLines(reading: LedgerReading): AsyncGenerator<TextLine[]> {
  for await (const batch of lineBatches(reading.file.chunks()))
    yield batch.filter((l) => l.problem !== undefined || l.text.trim() !== "");
}

/**
 * Reads a ledger file of `reading.format` (`csv`, `jsonl` or `tronscan-trc20`) into the writer
 * that `writerOf` gives, asked for once the file's header is known to be good.
 */
export async function readLedger(
  reading: LedgerReading,
  writerOf: () => Promise<LedgerWriter>,
  options: LedgerReadOptions = {},
): Promise<void> {
  const run = async <R extends { line: number }>(
    records: AsyncIterable<ReadonlyArray<R>>,
    decode: (record: R) => RowResult<LedgerTransfer>,
  ) => {
    const sink = ledgerSink(reading, await writerOf(), options);
    await importRows({
      records,
      decode,
      sink,
      tally: reading.tally,
      batchSize: reading.batchSize,
      progress: () => reading.progress(),
      finishing: () => reading.finishing(),
    });
  };

  if (reading.format === "jsonl") {
    const decode = ledgerJsonlDecoder();
    await run(jsonLines(reading), (l) => decode(l.text));
    return;
  }
  const table = await openCsvTable(reading.file, requiredColumns("ledger", reading.format));
  const decode = (reading.format === "csv" ? ledgerCsvDecoder : tronscanDecoder)(table.header);
  await run(table.records, (r) => decode(r.fields));
}
