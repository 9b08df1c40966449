/**
 * The loop every import shares: read records in batches, decode each into a row (or a skip or a
 * rejection with its reason), hand accepted rows to a sink in batches of `batchSize`, and report
 * progress. Memory stays bounded by one batch whatever the file size.
 */
import type { ImportTally } from "./import-tally.js";

/** What decoding one record gives: a row, a skip (outside our coverage) or a rejection (bad row). */
export type RowResult<T> = { readonly value: T } | { readonly skip: string } | { readonly reject: string };

/** A record as read from a file: its line, and why it is unreadable when it is. */
export interface SourceRecord {
  readonly line: number;
  readonly problem?: string;
}

/** A decoded row with its line. */
export interface Located<T> {
  readonly line: number;
  readonly value: T;
}

/** Where accepted rows go; the sink counts added, updated, unchanged and duplicate rows. */
export interface RowSink<T> {
  /** Takes a batch of rows in file order (each batch in its own store transaction). */
  write(rows: ReadonlyArray<Located<T>>): Promise<void>;
  /** Called once after the last batch. */
  finish(): Promise<void>;
  /** Called instead of finish when reading failed. */
  abort(): Promise<void>;
}

/** One import's loop: its records, decoder, sink and bookkeeping. */
export interface RowImport<R extends SourceRecord, T> {
  readonly records: AsyncIterable<ReadonlyArray<R>>;
  readonly decode: (record: R) => RowResult<T>;
  readonly sink: RowSink<T>;
  readonly tally: ImportTally;
  readonly batchSize: number;
  readonly progress: () => void;
  /** Called once every row is read and handed to the sink, before its `finish`. */
  readonly finishing: () => void;
}

/** The skip of a row for `reason`. */
export function skipRow(reason: string): { readonly skip: string } {
  return { skip: reason };
}

/** The rejection of a row for `reason`. */
export function rejectRow(reason: string): { readonly reject: string } {
  return { reject: reason };
}

/** Runs one import's loop to the end; a failure aborts the sink and is rethrown. */
export async function importRows<R extends SourceRecord, T>(run: RowImport<R, T>): Promise<void> {
  const { tally, sink } = run;
  let rows: Array<Located<T>> = [];
  try {
    for await (const batch of run.records) {
      for (const record of batch) {
        tally.rowsRead++;
        if (record.problem !== undefined) {
          tally.reject(record.line, record.problem);
          continue;
        }
        const result = run.decode(record);
        if ("value" in result) {
          rows.push({ line: record.line, value: result.value });
          if (rows.length >= run.batchSize) {
            await sink.write(rows);
            rows = [];
          }
        } else if ("skip" in result) {
          tally.skip(result.skip);
        } else {
          tally.reject(record.line, result.reject);
        }
      }
      run.progress();
    }
    if (rows.length > 0) await sink.write(rows);
    // Progress was reported after the last batch read; the finishing phase is reported once,
    // inside the try: a progress callback that throws aborts the sink like any other failure.
    run.finishing();
  } catch (error) {
    await sink.abort();
    throw error;
  }
  await sink.finish();
}
