/**
 * A ledger import whose file is read on a parse thread while this thread writes: the parse
 * thread decodes and validates, and posts each batch; this thread unpacks and deduplicates it
 * and calls the ledger writer (every writer call happens here, in the order of an inline import),
 * reports progress as the parse thread posts it, and at the end takes the parse thread's counts
 * into the import's tally, so the summary is the inline import's.
 *
 * Once the parse thread is done it is ended, and only then is the writer finished: its final
 * phase (the bulk load's index builds) runs without that thread's memory.
 *
 * Failures: an error of the parse thread comes back as it was raised (a KytError with its code,
 * message, details and field errors); an error of the writer is rethrown as is. Either way the
 * writer is aborted (unless `finish` was running, as inline) and the thread is ended.
 */
import { on } from "node:events";
import { KytError } from "@openkyt/core";
import type { ImportContext } from "./import-context.js";
import type { LedgerWriter } from "./import-types.js";
import { createBatchDedup } from "./ledger-batch-dedup.js";
import { unpackLedgerBatch } from "./ledger-batch-pack.js";
import type { ParseThreadMessage, WriterThreadMessage } from "./ledger-thread-messages.js";
import { startLedgerThread } from "./ledger-thread-start.js";
import { errorOfThread } from "./thread-error.js";

/** Imports `ctx.file` (a ledger) read on a parse thread into the writer that `writerOf` gives. */
export async function importLedgerOnThread(
  ctx: ImportContext,
  writerOf: () => Promise<LedgerWriter>,
): Promise<void> {
  const worker = startLedgerThread({
    file: ctx.file.path,
    format: ctx.format,
    batchSize: ctx.batchSize,
    maxReported: ctx.maxReported,
  });
  const answer = (message: WriterThreadMessage) => worker.postMessage(message);
  let writer: LedgerWriter | undefined;
  let finishing = false;
  const dedup = createBatchDedup();
  let duplicates = 0;
  const duplicate = () => {
    duplicates++;
  };
  try {
    for await (const [message] of on(worker, "message", { close: ["exit"] }) as AsyncIterable<
      [ParseThreadMessage]
    >) {
      switch (message.kind) {
        case "open":
          writer = await writerOf();
          break;
        case "rows":
          await opened(writer).write(dedup.distinct(unpackLedgerBatch(message.batch), duplicate));
          answer({ kind: "written" });
          break;
        case "progress":
          ctx.progress(message.at);
          break;
        case "done": {
          // Before `finishing` is set: a progress callback that throws aborts the writer.
          ctx.finishing();
          await worker.terminate();
          finishing = true;
          const added = await opened(writer).finish();
          // The parse thread counted every row it posted as unchanged.
          const { counts } = message.tally;
          ctx.tally.add({
            ...message.tally,
            counts: {
              ...counts,
              added: counts.added + added,
              duplicates: counts.duplicates + duplicates,
              unchanged: counts.unchanged - added - duplicates,
            },
          });
          return;
        }
        case "failed":
          throw errorOfThread(message.error);
      }
    }
    throw new KytError("INTERNAL_ERROR", `${ctx.file.path}: the ledger parse thread ended without an answer`);
  } catch (error) {
    if (writer !== undefined && !finishing) await writer.abort();
    throw error;
  } finally {
    await worker.terminate();
  }
}

/** The writer, which the parse thread asks for before its first batch. */
function opened(writer: LedgerWriter | undefined): LedgerWriter {
  if (writer === undefined)
    throw new KytError("INTERNAL_ERROR", "the ledger parse thread wrote before opening");
  return writer;
}
