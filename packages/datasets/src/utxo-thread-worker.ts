/**
 * The entry of the UTXO parse thread (`utxo-thread-items.ts`): reads the file given in
 * `workerData` as an inline import would (`utxoItems`: same decoding and checks) and posts its
 * items a batch at a time, its progress, and at the end `done`, or its failure.
 */
import { parentPort, workerData } from "node:worker_threads";
import { openTextFile } from "./file-text.js";
import { threadErrorOf } from "./thread-error.js";
import { paramsOption, type UtxoReading, utxoItems } from "./utxo-import.js";
import {
  MAX_UTXO_BATCHES_IN_FLIGHT,
  type UtxoParseMessage,
  type UtxoTakenMessage,
  type UtxoThreadData,
} from "./utxo-thread-items.js";

const port = parentPort;
if (port === null) throw new Error("utxo-thread-worker runs only as a worker thread");
const data = workerData as UtxoThreadData;
const post = (message: UtxoParseMessage) => port?.postMessage(message);

/** Reads the whole file; the importing thread ends this thread once it has the answer. */
async function run(): Promise<void> {
  if (port === null) return;
  let inFlight = 0;
  let taken: (() => void) | undefined;
  port.on("message", (_: UtxoTakenMessage) => {
    inFlight--;
    taken?.();
    taken = undefined;
  });
  const reading: UtxoReading = {
    file: await openTextFile(data.file),
    options: {
      ...(data.network !== undefined ? { network: data.network } : {}),
      ...(data.chain !== undefined ? { chain: data.chain } : {}),
      ...(data.undoFile !== undefined ? { undoFile: data.undoFile } : {}),
    },
    progress: (at) => post({ kind: "progress", at }),
  };
  for await (const items of utxoItems(reading, data.format, paramsOption(reading))) {
    post({ kind: "items", items });
    inFlight++;
    while (inFlight >= MAX_UTXO_BATCHES_IN_FLIGHT)
      await new Promise<void>((resolve) => {
        taken = resolve;
      });
  }
  post({ kind: "done" });
}

run().catch((error: unknown) => {
  post({ kind: "failed", error: threadErrorOf(error) });
});
