/**
 * A screening thread: reads the shared ledger image (and the rows stored since, posted to it),
 * resolves addresses from the labels and sanctions it was given, and runs the trace requests
 * the pool posts, one batch after another, with core's own tracing code.
 */
import { parentPort, workerData } from "node:worker_threads";
import {
  createEntityResolver,
  type EntityResolver,
  heldAttributionSource,
  heldSanctionsSource,
  LedgerImageReader,
  runTraceRequest,
} from "@openkyt/core";
import type {
  ReferenceRows,
  ScreeningCommand,
  ScreeningReply,
  ScreeningThreadData,
} from "./screening-messages.js";

const port = parentPort;
if (!port) throw new Error("screening-thread runs as a worker thread of a screening pool");
const data = workerData as ScreeningThreadData;

const ledger = new LedgerImageReader(data.image);
ledger.append(data.delta);

function resolverOf(reference: ReferenceRows): EntityResolver {
  return createEntityResolver({
    attributions: heldAttributionSource(reference.attributions),
    sanctions: heldSanctionsSource(reference.sanctions),
  });
}

let resolver = resolverOf(data.reference);

port.on("message", (command: ScreeningCommand) => {
  switch (command.kind) {
    case "append":
      ledger.append(command.rows);
      return;
    case "replace":
      ledger.replace(command.image, command.delta);
      return;
    case "reference":
      resolver = resolverOf(command.reference);
      return;
    case "close":
      // Nothing else keeps the thread alive: it exits normally (and writes a --cpu-prof profile).
      port.close();
      return;
    case "run": {
      // The sources of this batch are fixed when it starts: a later message waits for it anyway
      // (reads are synchronous, so the batch never yields to the message loop mid-trace).
      const sources = { ledger, resolver };
      void Promise.all(command.requests.map((r) => runTraceRequest(sources, r))).then((outcomes) => {
        const reply: ScreeningReply = { kind: "done", id: command.id, outcomes };
        port.postMessage(reply);
      });
      return;
    }
  }
});

const ready: ScreeningReply = { kind: "ready" };
port.postMessage(ready);
