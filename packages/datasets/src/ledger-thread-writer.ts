/**
 * The parse thread's ledger writer: each batch is packed and posted to the importing thread,
 * which owns the real writer. Once {@link MAX_BATCHES_IN_FLIGHT} batches are unwritten, `write`
 * waits for the oldest, so the parse thread never runs far ahead (bounded memory) and a slow
 * store slows the reading down. `finish` asks the importing thread and answers its count.
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

/** A writer that hands every call over `port` to the importing thread. */
export function remoteLedgerWriter(port: MessagePort): LedgerWriter {
  let inFlight = 0;
  let written: (() => void) | undefined;
  let finished: ((added: number) => void) | undefined;
  port.on("message", (message: WriterThreadMessage) => {
    if (message.kind === "written") {
      inFlight--;
      written?.();
      written = undefined;
    } else finished?.(message.added);
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
    finish() {
      return new Promise<number>((resolve) => {
        finished = resolve;
        post(port, { kind: "finish" });
      });
    },
    // The importing thread aborts its writer itself when this thread reports a failure.
    async abort() {},
  };
}
