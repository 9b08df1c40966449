/**
 * Where the exposure traces of a screening run: the port between the engine and whatever
 * computes them. The engine hands over the traces of one check at a time (one or two); an
 * executor may coalesce requests from many concurrent checks before it runs them. The default
 * (`inlineTraceExecutor`) runs them on the calling thread over the engine's own ledger and
 * resolver; `@openkyt/runtime-node`'s screening pool runs them on worker threads that share one
 * copy of the warm ledger. Every executor must give the results the inline one gives for the
 * same ledger, labels and sanctions.
 */
import type { Direction } from "../domain/enums.js";
import type { CounterpartyResult, ExposureResult, Millis } from "../domain/records.js";
import type { AddressSide } from "../exposure/address-exposure.js";
import type { TimeSpan } from "../exposure/sanctions-as-of.js";
import type { TraceLimits } from "../exposure/transfer-exposure.js";

/** A transfer's origin (incoming) or destination (outgoing) of funds: `traceTransferExposure`'s input. */
export interface TransferTraceRequest extends TraceLimits {
  readonly kind: "transfer";
  readonly network: string;
  readonly tokenId: string;
  readonly direction: Direction;
  readonly counterparty: string;
  readonly at: Millis;
  readonly position?: { readonly block: number; readonly logIndex: number };
  readonly value: number | null;
  readonly span: TimeSpan;
}

/** An address's exposure (the counterparty check): `traceAddressExposure`'s input. */
export interface AddressTraceRequest extends TraceLimits {
  readonly kind: "address";
  readonly network: string;
  readonly tokenId: string;
  readonly address: string;
  readonly side: AddressSide;
  readonly at: Millis;
  readonly span: TimeSpan;
}

/** One trace to run: plain data, so that it can be posted to another thread. */
export type TraceRequest = TransferTraceRequest | AddressTraceRequest;

/** The outcome of one request: its result, or why it failed (the error's code and message). */
export type TraceOutcome =
  | { readonly kind: "transfer"; readonly result: ExposureResult }
  | { readonly kind: "address"; readonly result: CounterpartyResult }
  | { readonly kind: "failed"; readonly code: string; readonly message: string };

/** Runs exposure traces. */
export interface TraceExecutor {
  /**
   * Runs `requests` and resolves to one outcome per request, in their order. A request that
   * fails gives a `failed` outcome and does not fail the others; the promise itself rejects
   * only when the executor cannot run at all (closed, a thread died). Reads only.
   */
  run(requests: ReadonlyArray<TraceRequest>): Promise<ReadonlyArray<TraceOutcome>>;
}
