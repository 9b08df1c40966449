/**
 * The parse thread's ledger writer: each batch is packed and posted to the importing thread,
 * which owns the real writer. Once {@link MAX_BATCHES_IN_FLIGHT} batches are unwritten, `write`
 * waits for the oldest, so the parse thread never runs far ahead (bounded memory) and a slow
 * store slows the reading down. `finish` answers 0 at once: the reading counts every row it
 * posts as unchanged, and the importing thread, which finishes the real writer once this thread
 * is done and ended, moves the rows it added from unchanged to added.
 */
import type { MessagePort } from "node:worker_threads";
import type { LedgerWriter } from "./import-types.js";
import { packLedgerBatch } from "./ledger-batch-pack.js";
import {
  MAX_BATCHES_IN_FLIGHT,
  type ParseThreadMessage,
  type WriterThreadMessage,
} from "./ledger-thread-messages.js";

/** Posts a message to the importing thread. */
export function post(port: MessagePort, message: ParseThreadMessage, transfer: ArrayBuffer[] = []): void {
  port.postMessage(message, transfer);
}

/** A writer that hands every batch over `port` to the importing thread (see above for finish and abort). */
export function remoteLedgerWriter(port: MessagePort): LedgerWriter {
  let inFlight = 0;
  let written: (() => void) | undefined;
  port.on("message", (_: WriterThreadMessage) => {
    inFlight--;
    written?.();
    written = undefined;
  });
  post(port, { kind: "open" });
  return {
    async write(rows) {
      const batch = packLedgerBatch(rows);
      post(port, { kind: "rows", batch }, [batch.numbers.buffer as ArrayBuffer]);
      inFlight++;
      while (inFlight >= MAX_BATCHES_IN_FLIGHT)
        await new Promise<void>((resolve) => {
          written = resolve;
        });
    },
    async finish() {
      return 0;
    },
    // The importing thread aborts its writer itself when this thread reports a failure.
    async abort() {},
  };
}
