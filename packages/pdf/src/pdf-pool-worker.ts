/**
 * The entry of a renderer pool's worker thread: one PDF renderer (fonts parsed once), rendering
 * the jobs its pool sends one at a time and answering each with the bytes or the failure.
 */
import { parentPort, workerData } from "node:worker_threads";
import { describeError, isKytError } from "@openkyt/core";
import type { PoolWorkerData, RenderFailure, RenderJob, WorkerReply } from "./pdf-pool-messages.js";
import { createPdfRenderer } from "./pdf-renderer.js";

/** The bytes in a buffer of their own, so it can be transferred rather than copied. */
function owned(bytes: Uint8Array): Uint8Array {
  return bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength
    ? bytes
    : new Uint8Array(bytes);
}

function failureOf(error: unknown): RenderFailure {
  const cause = error instanceof Error && error.cause !== undefined ? describeError(error.cause) : null;
  return isKytError(error)
    ? { code: error.code, message: error.message, cause }
    : { code: "INTERNAL_ERROR", message: describeError(error), cause };
}

const port = parentPort;
if (port === null) throw new Error("pdf-pool-worker runs only as a worker thread");
const data = workerData as PoolWorkerData;
const renderer = createPdfRenderer({
  ...(data.creationDate ? { deterministic: { creationDate: data.creationDate } } : {}),
  ...(data.fonts ? { fonts: data.fonts } : {}),
});

port.on("message", (job: RenderJob) => {
  renderer.render(job.request).then(
    (bytes) => {
      const reply: WorkerReply = { kind: "done", id: job.id, bytes: owned(bytes) };
      port.postMessage(reply, [reply.bytes.buffer as ArrayBuffer]);
    },
    (error: unknown) => {
      const reply: WorkerReply = { kind: "failed", id: job.id, failure: failureOf(error) };
      port.postMessage(reply);
    },
  );
});
port.postMessage({ kind: "ready" } satisfies WorkerReply);
