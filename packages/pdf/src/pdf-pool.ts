/**
 * A ReportRenderer that renders on worker threads. Laying out a PDF is synchronous CPU work of
 * tens of milliseconds; a pool keeps it off the caller's thread and renders on every core. Each
 * thread holds one renderer (fonts parsed once) and renders one report at a time; reports wait
 * in one queue, first come first served. Failures are the port's errors: the worker's KytError
 * (INTERNAL_ERROR with its cause) comes back as a KytError of the same code; a thread that dies
 * fails its report with INTERNAL_ERROR and is replaced.
 */
import { availableParallelism } from "node:os";
import type { Worker } from "node:worker_threads";
import {
  ERROR_CODES,
  type ErrorCode,
  KytError,
  type ReportRenderer,
  type ReportRequest,
} from "@openkyt/core";
import type { PdfFontFiles } from "./pdf-fonts.js";
import type { RenderFailure, WorkerReply } from "./pdf-pool-messages.js";
import { startPoolThread } from "./pdf-pool-thread.js";

/** Options of {@link createPdfRendererPool}. */
export interface PdfRendererPoolOptions {
  /** Worker threads (default: the cores Node may use, `os.availableParallelism()`). */
  readonly threads?: number;
  /** As in `createPdfRenderer`: fixes the creation date, so the same request gives the same bytes. */
  readonly deterministic?: { readonly creationDate: Date };
  /** As in `createPdfRenderer`: faces to set the report in instead of Roboto. */
  readonly fonts?: PdfFontFiles;
  /**
   * Young generation of each thread, in MiB (default 64): a render allocates several MiB of
   * short-lived objects, and a larger young generation scavenges them less often.
   */
  readonly youngGenerationMb?: number;
}

/** A renderer pool: the ReportRenderer port plus its size and shutdown. */
export interface PdfRendererPool extends ReportRenderer {
  /** The number of worker threads. */
  readonly threads: number;
  /**
   * Renders what was already asked for, then stops the threads. Renders asked for after this
   * call fail with ENGINE_STOPPED. Idempotent: every call resolves when the threads are gone.
   */
  close(): Promise<void>;
}

/** One report waiting for, or being rendered by, a thread. */
interface Job {
  readonly id: number;
  readonly request: ReportRequest;
  resolve(bytes: Uint8Array): void;
  reject(error: KytError): void;
}

/** One thread and the job it renders. */
interface Slot {
  worker: Worker | null;
  job: Job | null;
  ready: boolean;
  failure: unknown;
}

const isErrorCode = (code: string): code is ErrorCode => Object.hasOwn(ERROR_CODES, code);

function errorOf(failure: RenderFailure): KytError {
  const code = isErrorCode(failure.code) ? failure.code : "INTERNAL_ERROR";
  return new KytError(code, failure.message, {
    ...(failure.cause === null ? {} : { cause: new Error(failure.cause) }),
  });
}

/** Creates a pool of PDF renderers on worker threads; pass it as `reportRenderer` to `createEngine`. */
export function createPdfRendererPool(options: PdfRendererPoolOptions = {}): PdfRendererPool {
  const threads = Math.max(1, Math.floor(options.threads ?? availableParallelism()));
  const workerData = {
    creationDate: options.deterministic?.creationDate ?? null,
    fonts: options.fonts ?? null,
  };
  const youngGenerationMb = options.youngGenerationMb ?? 64;
  const slots: Slot[] = Array.from({ length: threads }, () => ({
    worker: null,
    job: null,
    ready: false,
    failure: undefined,
  }));
  const queue: Job[] = [];
  let nextId = 0;
  let closing: Promise<void> | null = null;
  let drained: (() => void) | null = null;

  const idle = () => queue.length === 0 && slots.every((s) => s.job === null);

  function settle(slot: Slot): Job | null {
    const job = slot.job;
    slot.job = null;
    slot.worker?.unref();
    return job;
  }

  function onReply(slot: Slot, reply: WorkerReply): void {
    if (reply.kind === "ready") {
      slot.ready = true;
      return;
    }
    const job = settle(slot);
    if (job === null || job.id !== reply.id) return;
    if (reply.kind === "done") job.resolve(reply.bytes);
    else job.reject(errorOf(reply.failure));
    pump();
  }

  function onExit(slot: Slot, worker: Worker, exitCode: number): void {
    if (slot.worker !== worker) return;
    slot.worker = null;
    const reason = slot.failure ?? new Error(`the worker thread exited with code ${exitCode}`);
    const job = settle(slot);
    job?.reject(
      new KytError(
        "INTERNAL_ERROR",
        `could not render report ${job.request.reportId}: the PDF worker thread stopped`,
        { cause: reason },
      ),
    );
    // A thread that died before it was ready cannot render anything: fail what waits instead of
    // starting threads that die the same way, one after another.
    if (!slot.ready && !slots.some((s) => s.ready)) {
      for (const waiting of queue.splice(0)) {
        waiting.reject(
          new KytError("INTERNAL_ERROR", "the PDF worker thread could not start", { cause: reason }),
        );
      }
    }
    pump();
  }

  function start(slot: Slot): Worker {
    const worker = startPoolThread({ workerData, youngGenerationMb });
    slot.worker = worker;
    slot.ready = false;
    slot.failure = undefined;
    worker.on("message", (reply: WorkerReply) => onReply(slot, reply));
    worker.on("error", (error) => {
      slot.failure = error;
    });
    worker.on("exit", (code) => onExit(slot, worker, code));
    return worker;
  }

  /** Hands `job` to the idle `slot`, starting its thread when it has none. */
  function send(slot: Slot, job: Job): void {
    slot.job = job;
    try {
      const worker = slot.worker ?? start(slot);
      worker.ref();
      worker.postMessage({ id: job.id, request: job.request });
    } catch (cause) {
      settle(slot);
      job.reject(
        new KytError(
          "INTERNAL_ERROR",
          `could not send report ${job.request.reportId} to a PDF worker thread`,
          { cause },
        ),
      );
    }
  }

  function pump(): void {
    for (let slot = slots.find((s) => s.job === null); slot && queue.length > 0; ) {
      send(slot, queue.shift() as Job);
      slot = slots.find((s) => s.job === null);
    }
    if (drained !== null && idle()) drained();
  }

  return Object.freeze({
    threads,
    render(request: ReportRequest): Promise<Uint8Array> {
      if (closing !== null) {
        return Promise.reject(new KytError("ENGINE_STOPPED", "the PDF renderer pool is closed"));
      }
      return new Promise<Uint8Array>((resolve, reject) => {
        queue.push({ id: nextId++, request, resolve, reject });
        pump();
      });
    },
    close(): Promise<void> {
      closing ??= (async () => {
        if (!idle()) await new Promise<void>((resolve) => (drained = resolve));
        await Promise.all(slots.map((slot) => slot.worker?.terminate()));
      })();
      return closing;
    },
  });
}
