/**
 * The messages between a screening pool and its threads. Everything survives the structured
 * clone: the ledger image's typed arrays are views of shared buffers, so posting one shares its
 * memory (nothing large is copied); rows, labels and listings are plain data, copied.
 */
import type {
  Attribution,
  LedgerImage,
  LedgerTransfer,
  SanctionsListing,
  TraceOutcome,
  TraceRequest,
} from "@openkyt/core";

/** Labels and sanctions a thread resolves addresses with (a copy per thread). */
export interface ReferenceRows {
  readonly attributions: ReadonlyArray<Attribution>;
  readonly sanctions: ReadonlyArray<SanctionsListing>;
}

/** What a thread is started with. */
export interface ScreeningThreadData {
  readonly image: LedgerImage;
  readonly delta: ReadonlyArray<LedgerTransfer>;
  readonly reference: ReferenceRows;
}

/** Pool to thread. Applied in the order posted, so rows posted before a batch are traced by it. */
export type ScreeningCommand =
  | { readonly kind: "run"; readonly id: number; readonly requests: ReadonlyArray<TraceRequest> }
  /** Rows stored after the image (and after the rows posted so far). */
  | { readonly kind: "append"; readonly rows: ReadonlyArray<LedgerTransfer> }
  /** A new image, and the rows stored after it: replaces the image and the delta. */
  | { readonly kind: "replace"; readonly image: LedgerImage; readonly delta: ReadonlyArray<LedgerTransfer> }
  /** New labels and sanctions, replacing the held ones. */
  | { readonly kind: "reference"; readonly reference: ReferenceRows }
  /** Stop: the thread ends once the batches posted before are done. */
  | { readonly kind: "close" };

/** Thread to pool. */
export type ScreeningReply =
  | { readonly kind: "ready" }
  | { readonly kind: "done"; readonly id: number; readonly outcomes: ReadonlyArray<TraceOutcome> };
