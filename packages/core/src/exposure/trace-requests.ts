/**
 * Running {@link TraceRequest}s over a ledger and a resolver: what the inline executor does on
 * the engine's thread and what each thread of a screening pool does over the shared image.
 */
import { isKytError } from "../errors.js";
import type { LedgerReader } from "../ports/ledger-reader.js";
import type { TraceExecutor, TraceOutcome, TraceRequest } from "../ports/trace-executor.js";
import { traceAddressExposure } from "./address-exposure.js";
import type { EntityResolver } from "./entity-resolver.js";
import { traceTransferExposure } from "./transfer-exposure.js";

/** What the traces read. */
export interface TraceSources {
  readonly ledger: LedgerReader;
  readonly resolver: EntityResolver;
}

/** Runs one request; a thrown error becomes a `failed` outcome with its code. */
export async function runTraceRequest(sources: TraceSources, request: TraceRequest): Promise<TraceOutcome> {
  try {
    if (request.kind === "transfer") {
      const { kind: _kind, ...input } = request;
      return { kind: "transfer", result: await traceTransferExposure({ ...sources, ...input }) };
    }
    const { kind: _kind, ...input } = request;
    return { kind: "address", result: await traceAddressExposure({ ...sources, ...input }) };
  } catch (error) {
    return {
      kind: "failed",
      code: isKytError(error) ? error.code : "INTERNAL_ERROR",
      message: error instanceof Error ? error.message : String(error),
    };
  }
}

/** The default executor: every request on the calling thread, over `sources`. */
export function inlineTraceExecutor(sources: TraceSources): TraceExecutor {
  return Object.freeze({
    run(requests: ReadonlyArray<TraceRequest>) {
      return Promise.all(requests.map((r) => runTraceRequest(sources, r)));
    },
  });
}
