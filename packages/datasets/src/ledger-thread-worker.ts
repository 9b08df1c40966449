/**
 * The entry of the ledger parse thread: reads the file given in `workerData` as an inline import
 * would (same decoding, validation and counts), posting its batches, progress, and at the end
 * its tally, or its failure, to the importing thread. It leaves deduplication to the importing
 * thread: this thread is the slower of the two (on a 5M-row CSV it was busy about 90% of the
 * time, the importing thread about 70%), and deduplicating was a tenth of its work.
 */
import { parentPort, workerData } from "node:worker_threads";
import { openTextFile } from "./file-text.js";
import { createTally, reportOf } from "./import-tally.js";
import { readLedger } from "./ledger-read.js";
import type { LedgerThreadData } from "./ledger-thread-messages.js";
import { post, remoteLedgerWriter } from "./ledger-thread-writer.js";
import { threadErrorOf } from "./thread-error.js";

const port = parentPort;
if (port === null) throw new Error("ledger-thread-worker runs only as a worker thread");
const data = workerData as LedgerThreadData;

/** Reads the whole file; the importing thread ends this thread once it has the answer. */
async function run(): Promise<void> {
  if (port === null) return;
  const file = await openTextFile(data.file);
  const tally = createTally({
    kind: "ledger",
    format: data.format,
    file: data.file,
    maxReported: data.maxReported,
  });
  const progress = () =>
    post(port, { kind: "progress", at: { rowsRead: tally.rowsRead, bytesRead: file.bytesRead() } });
  await readLedger(
    // Its writer's finish is a formality: the importing thread reports the finishing phase.
    { file, format: data.format, tally, batchSize: data.batchSize, progress, finishing: () => {} },
    async () => remoteLedgerWriter(port),
    { deduplicate: false },
  );
  post(port, { kind: "done", tally: reportOf(tally) });
}

run().catch((error: unknown) => {
  if (port !== null) post(port, { kind: "failed", error: threadErrorOf(error) });
});
