/**
 * Importing ledger transfers: the file is read (decoded and validated) on this thread, or on a
 * parse thread of its own for a large file while this thread writes (a UTXO ledger only when
 * `parseThread` asks: `utxo-thread-items.ts`); each batch is deduplicated
 * on its key on this thread either way, then written. The writer is the caller's, else the
 * store's bulk load when it offers one (every row lands at the end, in one transaction), else
 * `putLedgerTransfers` a batch at a time.
 */
import type { ImportContext } from "./import-context.js";
import type { LedgerWriter } from "./import-types.js";
import { readLedger } from "./ledger-read.js";
import { importLedgerOnThread } from "./ledger-thread-import.js";
import { storeLedgerWriter } from "./ledger-writer.js";
import { importUtxoLedger, isUtxoLedgerFormat } from "./utxo-import.js";

/** Size from which a ledger file is read on a parse thread unless told otherwise. */
export const PARSE_THREAD_MIN_BYTES = 8 * 1024 * 1024;

/** The writer of an import: the caller's, else the store's bulk load, else the port a batch at a time. */
async function ledgerWriterOf(ctx: ImportContext): Promise<LedgerWriter> {
  return (
    ctx.options.ledgerWriter ??
    (await ctx.store.bulkLedgerWriter?.({ exclusive: ctx.options.exclusiveStore ?? false })) ??
    storeLedgerWriter(ctx.store)
  );
}

/** True when the import reads its file on a parse thread (see `ImportOptions.parseThread`). */
function onParseThread(ctx: ImportContext): boolean {
  return ctx.options.parseThread ?? ctx.file.totalBytes >= PARSE_THREAD_MIN_BYTES;
}

/**
 * Imports a ledger file of `ctx.format`: `csv`, `jsonl` or `tronscan-trc20` (account-model
 * transfers), or a UTXO ledger format (see utxo-import.ts).
 */
export async function importLedger(ctx: ImportContext): Promise<void> {
  // A UTXO file goes to its parse thread only when asked: measured on a loaded machine the
  // thread's cloning and boot cost more than it saved (docs/benchmarks.md, "UTXO import").
  if (isUtxoLedgerFormat(ctx.format)) return importUtxoLedger(ctx, ctx.options.parseThread ?? false);
  const writerOf = () => ledgerWriterOf(ctx);
  await (onParseThread(ctx) ? importLedgerOnThread(ctx, writerOf) : readLedger(ctx, writerOf));
}
