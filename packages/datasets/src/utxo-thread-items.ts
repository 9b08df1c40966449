/**
 * A UTXO ledger file read on a parse thread (`utxo-thread-worker.ts`) while the importing
 * thread writes: the parse thread decodes the file (JSON, or blocks and their undo records,
 * scripts to addresses) and checks each transaction (`utxoTransactionProblem`), which is most of
 * an import's work outside the store, and posts its items a batch at a time; this thread takes
 * them in order, as it takes the items it reads itself, so counts, rejections, clustering and
 * the writer's calls are the inline import's. At most {@link MAX_UTXO_BATCHES_IN_FLIGHT} batches
 * wait between the threads (bounded memory: a slow store slows the reading down).
 *
 * An error of the parse thread comes back as it was raised (a KytError with its code, message
 * and details). The thread is ended when the items end or their reader stops early.
 */
import { on } from "node:events";
import { KytError } from "@openkyt/core";
import { startModuleThread } from "@openkyt/runtime-node";
import type { ImportContext, ReadPosition } from "./import-context.js";
import { errorOfThread, type ThreadError } from "./thread-error.js";
import type { UtxoItem } from "./utxo-import.js";

/** Batches the parse thread posts before it waits for the oldest to be taken. */
export const MAX_UTXO_BATCHES_IN_FLIGHT = 2;

/** What the UTXO parse thread is started with. */
export interface UtxoThreadData {
  readonly file: string;
  /** `bitcoin-core`, `esplora` or `bitcoin-blocks`. */
  readonly format: string;
  readonly network: string | undefined;
  readonly chain: string | undefined;
  readonly undoFile: string | undefined;
}

/** From the parse thread, in the order things happen there. */
export type UtxoParseMessage =
  | { readonly kind: "items"; readonly items: UtxoItem[] }
  | { readonly kind: "progress"; readonly at: ReadPosition }
  | { readonly kind: "done" }
  | { readonly kind: "failed"; readonly error: ThreadError };

/** From the importing thread: the oldest batch in flight is taken. */
export type UtxoTakenMessage = { readonly kind: "taken" };

/** The checked items of `ctx.file`, read on a parse thread (see the module comment). */
export async function* utxoItemsOnThread(ctx: ImportContext): AsyncGenerator<UtxoItem[]> {
  const data: UtxoThreadData = {
    file: ctx.file.path,
    format: ctx.format,
    network: ctx.options.network,
    chain: ctx.options.chain,
    undoFile: ctx.options.undoFile,
  };
  const worker = startModuleThread(import.meta.url, "utxo-thread-worker", { workerData: data });
  try {
    for await (const [message] of on(worker, "message", { close: ["exit"] }) as AsyncIterable<
      [UtxoParseMessage]
    >) {
      switch (message.kind) {
        case "items":
          yield message.items;
          worker.postMessage({ kind: "taken" } satisfies UtxoTakenMessage);
          break;
        case "progress":
          ctx.progress(message.at);
          break;
        case "done":
          return;
        case "failed":
          throw errorOfThread(message.error);
      }
    }
    throw new KytError("INTERNAL_ERROR", `${ctx.file.path}: the UTXO parse thread ended without an answer`);
  } finally {
    await worker.terminate();
  }
}
