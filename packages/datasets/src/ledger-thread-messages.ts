/**
 * What the ledger parse thread and the importing thread tell each other. The parse thread reads
 * the file and posts batches of valid rows, then its tally; the importing thread owns the ledger
 * writer and answers each batch once written (so at most {@link MAX_BATCHES_IN_FLIGHT} wait
 * between threads). It finishes the writer once the parse thread is done and ended, so that
 * thread's memory is given back before the writer's final phase.
 */
import type { ReadPosition } from "./import-context.js";
import type { TallyReport } from "./import-tally.js";
import type { PackedLedgerBatch } from "./ledger-batch-pack.js";
import type { ThreadError } from "./thread-error.js";

/** Batches the parse thread posts before it waits for the first of them to be written. */
export const MAX_BATCHES_IN_FLIGHT = 2;

/** What the parse thread is started with. */
export interface LedgerThreadData {
  /** Path of the ledger file. */
  readonly file: string;
  /** Ledger format id: `csv`, `jsonl` or `tronscan-trc20`. */
  readonly format: string;
  readonly batchSize: number;
  readonly maxReported: number;
}

/** From the parse thread, in the order things happen there. */
export type ParseThreadMessage =
  /** The header is good: the import needs its writer now. */
  | { readonly kind: "open" }
  /** A batch of valid rows, which the importing thread deduplicates and writes. */
  | { readonly kind: "rows"; readonly batch: PackedLedgerBatch }
  | { readonly kind: "progress"; readonly at: ReadPosition }
  /**
   * Every batch is posted: the counts and lists of the reading, every posted row counted as
   * unchanged (`LedgerWriter.finish`, on the importing thread, tells how many were added).
   */
  | { readonly kind: "done"; readonly tally: TallyReport }
  /** The reading failed (the writer is to be aborted). */
  | { readonly kind: "failed"; readonly error: ThreadError };

/** From the importing thread: the oldest batch in flight is written. */
export type WriterThreadMessage = { readonly kind: "written" };
