/**
 * The messages between a renderer pool and its worker threads. Everything in them survives the
 * structured clone: report requests are plain data, bytes travel as transferred buffers.
 */
import type { ReportRequest } from "@openkyt/core";
import type { PdfFontFiles } from "./pdf-fonts.js";

/** What a worker is started with: the options of its renderer. */
export interface PoolWorkerData {
  readonly creationDate: Date | null;
  readonly fonts: PdfFontFiles | null;
}

/** Pool to worker: render one report. */
export interface RenderJob {
  readonly id: number;
  readonly request: ReportRequest;
}

/** Why a render failed, as the worker saw it (its KytError's code and message, and their cause). */
export interface RenderFailure {
  readonly code: string;
  readonly message: string;
  readonly cause: string | null;
}

/** Worker to pool: the worker's renderer is ready, or one job's outcome. */
export type WorkerReply =
  | { readonly kind: "ready" }
  | { readonly kind: "done"; readonly id: number; readonly bytes: Uint8Array }
  | { readonly kind: "failed"; readonly id: number; readonly failure: RenderFailure };
