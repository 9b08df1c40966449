/**
 * A pool of screening threads (`node:worker_threads`) behind core's `TraceExecutor` port: the
 * checks' exposure traces run on every core of the machine while the main thread keeps the API
 * and the store. The ledger is held once, as a {@link LedgerImage} in shared memory, read by
 * every thread (and by the main thread, through {@link ScreeningPool.ledger}); labels and
 * sanctions are copied to each thread once, and again when a reload reads different rows.
 *
 * Live rows: before a batch is posted, a copy older than `maxLagMs` reads the rows stored since
 * (`Store.scanLedger`) and posts them to every thread ahead of the batch (messages are applied
 * in order, so the batch traces them). They are held per thread as a delta; once the delta
 * reaches `rebuildAt` rows, a new image is built from the store in the background and replaces
 * the old one (which is freed when no thread holds it any more).
 *
 * Deletes: a catch-up first reads the store's rewinds (`Store.scanRewinds`: rows a chain
 * follower removed after a reorganisation, in any process). When one removed ledger rows, it
 * builds a new image from the store before it answers (an image cannot drop rows), and a
 * rebuild begun before that is discarded rather than swapped in.
 */
import { availableParallelism } from "node:os";
import type { Worker } from "node:worker_threads";
import {
  type Attribution,
  type BufferAllocator,
  KytError,
  type LedgerImage,
  LedgerImageBuilder,
  LedgerImageReader,
  type LedgerTransfer,
  type SanctionsListing,
  type Store,
  sameScannedRows,
  sharedAllocator,
  type TraceExecutor,
  type TraceOutcome,
  type TraceRequest,
} from "@openkyt/core";
import { startModuleThread } from "./module-thread.js";
import type {
  ReferenceRows,
  ScreeningCommand,
  ScreeningReply,
  ScreeningThreadData,
} from "./screening-messages.js";

/** Options of {@link createScreeningPool}. */
export interface ScreeningPoolOptions {
  /** Threads (default: one fewer than the cores this process may use, at least one; see `screeningThreadCount`). */
  readonly threads?: number;
  /** How old the ledger copy may be when a batch is posted, in ms (default 1,000). */
  readonly maxLagMs?: number;
  /** Rows per statement while loading and catching up (default 5,000). */
  readonly pageSize?: number;
  /** Delta rows past which a new image is built (default: the larger of 100,000 and a quarter of the image). */
  readonly rebuildAt?: number;
  /**
   * How often labels and sanctions are reloaded, in ms (default 30,000; 0: never); posted to the
   * threads only when they changed.
   */
  readonly referenceRefreshMs?: number;
  /**
   * Upper bound of each thread's young generation, MB (default 48): a trace allocates the rows it
   * reads and drops them, so a larger nursery means fewer scavenges.
   */
  readonly youngGenerationMb?: number;
  /** Where the image's buffers come from (default: `SharedArrayBuffer`). */
  readonly allocate?: BufferAllocator;
  readonly now?: () => number;
}

/** Defaults of {@link ScreeningPoolOptions}. */
export const SCREENING_POOL_DEFAULTS = Object.freeze({
  maxLagMs: 1_000,
  pageSize: 5_000,
  minRebuildAt: 100_000,
  referenceRefreshMs: 30_000,
  youngGenerationMb: 48,
});

/** The pool: a `TraceExecutor`, its ledger copy and its upkeep. */
export interface ScreeningPool extends TraceExecutor {
  /** Threads running. */
  readonly threads: number;
  /** The main thread's reader of the same shared image and delta (for traces it runs itself). */
  readonly ledger: LedgerImageReader;
  /** When the last catch-up began (epoch ms of `now`): the copy holds every row stored before. */
  readonly caughtUpAt: number;
  /** Bytes of the shared image (held once, whatever the number of threads). */
  readonly imageBytes: () => number;
  /**
   * How many times labels and sanctions were posted to the threads since they started: a
   * refresh (`referenceRefreshMs`) posts only when the store's rows differ from the ones held.
   */
  readonly referencePosts: number;
  /** Reads the rows stored since the last catch-up now and posts them; resolves to how many. */
  catchUp(): Promise<number>;
  /**
   * Builds a new image of the whole ledger now and swaps it in (done by itself once the delta
   * reaches `rebuildAt` rows). Resolves when every later batch reads the new image.
   */
  rebuild(): Promise<void>;
  /** Stops the threads; pending and later `run`s reject with ENGINE_STOPPED. */
  close(): Promise<void>;
}

interface Thread {
  readonly worker: Worker;
  pending: number;
}

interface Waiting {
  readonly requests: ReadonlyArray<TraceRequest>;
  readonly resolve: (outcomes: ReadonlyArray<TraceOutcome>) => void;
  readonly reject: (error: unknown) => void;
}

/**
 * The number of threads a `--screening-threads` value or option asks for. Default: one fewer
 * than the cores this process may use (0 on one core), so the main thread, which serves the
 * API, writes to the store and posts the traces, keeps a core and the process never runs more
 * busy threads than cores: a thread per core measured slower than tracing inline on a loaded
 * 2-core machine (docs/benchmarks.md, "Both cores"), while on a hub-heavy ledger the traces are
 * most of a transfer's CPU and are worth moving off the main thread.
 */
export function screeningThreadCount(given: number | undefined): number {
  const n = given ?? Math.max(0, availableParallelism() - 1);
  if (!Number.isInteger(n) || n < 0) {
    throw new KytError("VALIDATION_ERROR", `screening threads must be an integer >= 0, got ${given}`, {
      errors: { threads: ["must be an integer >= 0"] },
    });
  }
  return n;
}

/** Lets the event loop answer between the steps of an image build. */
const pause = () => new Promise<void>((resolve) => setImmediate(resolve));

/** Every row of `store`'s ledger after `after`, page by page, into `sink`; resolves to the last position. */
async function scanFrom(
  store: Store,
  after: number,
  pageSize: number,
  sink: (rows: ReadonlyArray<LedgerTransfer>) => void,
): Promise<number> {
  const scan = store.scanLedger?.bind(store);
  if (!scan) {
    throw new KytError(
      "NOT_CONFIGURED",
      `the ${store.capabilities.dialect} store cannot list its ledger in stored order, so screening threads cannot hold it`,
    );
  }
  let position = after;
  for (;;) {
    const page = await scan(position, pageSize);
    if (page.rows.length > 0) sink(page.rows);
    position = page.last;
    if (page.rows.length < pageSize) return position;
  }
}

/**
 * The rewinds `store` recorded after number `after`: the last number seen, and whether any removed
 * account-ledger rows (the UTXO ledger is not held by the pool).
 */
async function rewindsSince(
  store: Store,
  after: number,
  pageSize: number,
): Promise<{ readonly last: number; readonly ledger: boolean }> {
  const scan = store.scanRewinds?.bind(store);
  let last = after;
  let ledger = false;
  if (!scan) return { last, ledger };
  for (;;) {
    const page = await scan(last, pageSize);
    for (const r of page) {
      last = r.id;
      if (r.ledger === "account") ledger = true;
    }
    if (page.length < pageSize) return { last, ledger };
  }
}

/** Every attribution and sanctions listing of `store`. */
async function referenceOf(store: Store, pageSize: number): Promise<ReferenceRows> {
  const attributions: Attribution[] = [];
  for (let after: Attribution | null = null; ; ) {
    const page: ReadonlyArray<Attribution> = await store.scanAttributions(after, pageSize);
    attributions.push(...page);
    if (page.length < pageSize) break;
    after = page[page.length - 1] as Attribution;
  }
  const sanctions: SanctionsListing[] = [];
  for (let after: SanctionsListing | null = null; ; ) {
    const page: ReadonlyArray<SanctionsListing> = await store.scanSanctions(after, pageSize);
    sanctions.push(...page);
    if (page.length < pageSize) break;
    after = page[page.length - 1] as SanctionsListing;
  }
  return { attributions, sanctions };
}

/** Whether two reads of the labels and sanctions read the same rows in the same order. */
function sameReference(a: ReferenceRows, b: ReferenceRows): boolean {
  return sameScannedRows(a.attributions, b.attributions) && sameScannedRows(a.sanctions, b.sanctions);
}

/** Freezes a result received from a thread, as the inline executor's results are. */
function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === "object" && !Object.isFrozen(value)) {
    for (const v of Object.values(value)) deepFreeze(v);
    Object.freeze(value);
  }
  return value;
}

/**
 * Loads `store`'s ledger into a shared image, its labels and sanctions, and starts the threads.
 * VALIDATION_ERROR for a bad option (0 threads included: then use the inline executor);
 * NOT_CONFIGURED when the store cannot list its ledger in stored order.
 */
export async function createScreeningPool(
  store: Store,
  options: ScreeningPoolOptions = {},
): Promise<ScreeningPool> {
  // Asked for a pool, it has a thread even on one core.
  const count = screeningThreadCount(options.threads ?? Math.max(1, availableParallelism() - 1));
  if (count === 0) {
    throw new KytError("VALIDATION_ERROR", "a screening pool needs at least one thread (0: trace inline)", {
      errors: { threads: ["must be >= 1 for a pool"] },
    });
  }
  const maxLagMs = options.maxLagMs ?? SCREENING_POOL_DEFAULTS.maxLagMs;
  const pageSize = options.pageSize ?? SCREENING_POOL_DEFAULTS.pageSize;
  const refreshMs = options.referenceRefreshMs ?? SCREENING_POOL_DEFAULTS.referenceRefreshMs;
  const allocate = options.allocate ?? sharedAllocator;
  const now = options.now ?? Date.now;
  if (!(maxLagMs >= 0) || !Number.isInteger(pageSize) || pageSize < 1 || !(refreshMs >= 0)) {
    throw new KytError(
      "VALIDATION_ERROR",
      "screening pool: maxLagMs and referenceRefreshMs must be >= 0 and pageSize a positive integer",
    );
  }

  // Rewinds recorded before the load are in the image already.
  let rewound = (await rewindsSince(store, 0, pageSize)).last;
  const builder = new LedgerImageBuilder();
  let position = await scanFrom(store, 0, pageSize, (rows) => builder.add(rows));
  let image = await builder.buildPaused(pause, allocate);
  const rebuildAt = () =>
    options.rebuildAt ?? Math.max(SCREENING_POOL_DEFAULTS.minRebuildAt, Math.floor(image.size / 4));
  let caughtUpAt = now();
  const ledger = new LedgerImageReader(image);
  /** Rows past the image, in stored order (what a thread started now, or a new image, is given). */
  let delta: LedgerTransfer[] = [];
  const reference = await referenceOf(store, 10_000);

  const threads: Thread[] = [];
  const waiting = new Map<number, Waiting>();
  let nextId = 1;
  let closed: KytError | null = null;
  let queue: Waiting[] = [];
  let flushing = false;

  const fail = (error: KytError) => {
    closed ??= error;
    for (const w of waiting.values()) w.reject(closed);
    waiting.clear();
    for (const w of queue) w.reject(closed);
    queue = [];
  };

  const post = (thread: Thread, command: ScreeningCommand) => thread.worker.postMessage(command);
  const broadcast = (command: ScreeningCommand) => {
    for (const t of threads) post(t, command);
  };

  const started = await Promise.all(
    Array.from({ length: count }, () => {
      const data: ScreeningThreadData = { image, delta, reference };
      const worker = startModuleThread(import.meta.url, "screening-thread", {
        workerData: data,
        resourceLimits: {
          maxYoungGenerationSizeMb: options.youngGenerationMb ?? SCREENING_POOL_DEFAULTS.youngGenerationMb,
        },
      });
      const thread: Thread = { worker, pending: 0 };
      return new Promise<Thread>((resolve, reject) => {
        const onReady = (reply: ScreeningReply) => {
          if (reply.kind !== "ready") return;
          worker.off("message", onReady);
          worker.off("error", reject);
          resolve(thread);
        };
        worker.on("message", onReady);
        worker.once("error", reject);
      });
    }),
  ).catch(async (error) => {
    throw new KytError("INTERNAL_ERROR", "a screening thread failed to start", { cause: error });
  });
  for (const thread of started) {
    threads.push(thread);
    thread.worker.on("message", (reply: ScreeningReply) => {
      if (reply.kind !== "done") return;
      const w = waiting.get(reply.id);
      if (!w) return;
      waiting.delete(reply.id);
      thread.pending -= w.requests.length;
      idle();
      w.resolve(reply.outcomes.map(deepFreeze));
    });
    thread.worker.on("error", (error) =>
      fail(new KytError("INTERNAL_ERROR", "a screening thread failed", { cause: error })),
    );
    thread.worker.on("exit", (code) => {
      if (!closed) fail(new KytError("INTERNAL_ERROR", `a screening thread exited (code ${code})`));
    });
    thread.worker.unref();
  }

  /** Threads hold the process open only while they have work. */
  function idle(): void {
    for (const t of threads) if (t.pending === 0) t.worker.unref();
  }

  let catching: Promise<number> | null = null;
  function catchUp(): Promise<number> {
    catching ??= (async () => {
      const startedAt = now();
      const rewinds = await rewindsSince(store, rewound, pageSize);
      rewound = rewinds.last;
      if (rewinds.ledger) {
        await replaceWhole();
        caughtUpAt = startedAt;
        return 0;
      }
      const fresh: LedgerTransfer[] = [];
      position = await scanFrom(store, position, pageSize, (rows) => {
        for (const r of rows) fresh.push(r);
      });
      caughtUpAt = startedAt;
      if (fresh.length > 0 && !closed) {
        ledger.append(fresh);
        for (const r of fresh) delta.push(r);
        broadcast({ kind: "append", rows: fresh });
        if (delta.length >= rebuildAt()) void rebuild();
      }
      return fresh.length;
    })().finally(() => {
      catching = null;
    });
    return catching;
  }

  /** Images built whole after a rewind: a rebuild begun under an older one is not swapped in. */
  let generation = 0;

  /** Swaps in `built` (the ledger up to `upTo`) with the rows stored since as its delta. */
  async function swapIn(built: LedgerImage, upTo: number): Promise<void> {
    const rest: LedgerTransfer[] = [];
    const end = await scanFrom(store, upTo, pageSize, (rows) => {
      for (const r of rows) rest.push(r);
    });
    if (closed) return;
    image = built;
    delta = rest;
    position = end;
    ledger.replace(built, rest);
    broadcast({ kind: "replace", image: built, delta: rest });
  }

  /** A new image of the whole ledger built now, inside a catch-up (after a rewind removed rows). */
  async function replaceWhole(): Promise<void> {
    generation += 1;
    const next = new LedgerImageBuilder();
    const upTo = await scanFrom(store, 0, pageSize, (rows) => next.add(rows));
    await swapIn(await next.buildPaused(pause, allocate), upTo);
  }

  let rebuilding: Promise<void> | null = null;
  /** A new image of the whole ledger; swapped in between two catch-ups. */
  function rebuild(): Promise<void> {
    rebuilding ??= (async () => {
      const begun = generation;
      const next = new LedgerImageBuilder();
      const upTo = await scanFrom(store, 0, pageSize, (rows) => next.add(rows));
      const built = await next.buildPaused(pause, allocate);
      // Serialised with catch-ups: the rows past `upTo` become the new delta, for every reader.
      while (catching) await catching;
      // A rewind since the scan: the image may hold removed rows, and a newer one is in place.
      if (begun !== generation) return;
      await swapIn(built, upTo);
    })()
      .catch(() => {
        // The store failed: keep the old image and delta; the next catch-up tries again.
      })
      .finally(() => {
        rebuilding = null;
      });
    return rebuilding;
  }

  /** The labels and sanctions the threads hold, and how many times they were posted since start. */
  let held = reference;
  let referencePosts = 0;
  let refreshTimer: ReturnType<typeof setInterval> | null = null;
  if (refreshMs > 0) {
    refreshTimer = setInterval(() => {
      referenceOf(store, 10_000)
        .then((rows) => {
          // The same rows: post nothing. A thread given rows makes a new screen of them, and its
          // ledger reader then drops every hub's lumps and builds them again on the next reads,
          // which stalled the traces of a 1M ledger for about a second every refresh.
          if (closed || sameReference(held, rows)) return;
          held = rows;
          referencePosts += 1;
          broadcast({ kind: "reference", reference: rows });
        })
        .catch(() => {
          // The store failed: the threads keep their labels; the next interval tries again.
        });
    }, refreshMs);
    refreshTimer.unref();
  }

  /** Posts the queued requests: to each thread its share, the least busy first. */
  function flush(): void {
    flushing = false;
    if (queue.length === 0 || closed) return;
    const batch = queue;
    queue = [];
    const total = batch.reduce((n, w) => n + w.requests.length, 0);
    const share = Math.max(1, Math.ceil(total / threads.length));
    let i = 0;
    while (i < batch.length) {
      const thread = threads.reduce((a, b) => (b.pending < a.pending ? b : a));
      const part: Waiting[] = [];
      let n = 0;
      while (i < batch.length && n < share) {
        const w = batch[i++] as Waiting;
        part.push(w);
        n += w.requests.length;
      }
      const id = nextId++;
      const requests = part.flatMap((w) => w.requests);
      thread.pending += requests.length;
      thread.worker.ref();
      waiting.set(id, {
        requests,
        resolve: (outcomes) => {
          let at = 0;
          for (const w of part) {
            w.resolve(outcomes.slice(at, at + w.requests.length));
            at += w.requests.length;
          }
        },
        reject: (error) => {
          for (const w of part) w.reject(error);
        },
      });
      post(thread, { kind: "run", id, requests });
    }
  }

  return Object.freeze({
    threads: count,
    ledger,
    get caughtUpAt() {
      return caughtUpAt;
    },
    imageBytes: () => image.bytes,
    get referencePosts() {
      return referencePosts;
    },
    catchUp,
    rebuild,
    async run(requests: ReadonlyArray<TraceRequest>): Promise<ReadonlyArray<TraceOutcome>> {
      if (closed) throw closed;
      if (requests.length === 0) return [];
      if (now() - caughtUpAt > maxLagMs) await catchUp();
      return new Promise<ReadonlyArray<TraceOutcome>>((resolve, reject) => {
        if (closed) return reject(closed);
        queue.push({ requests, resolve, reject });
        // Requests of the checks started in this turn go out together.
        if (!flushing) {
          flushing = true;
          setImmediate(flush);
        }
      });
    },
    async close() {
      if (refreshTimer) clearInterval(refreshTimer);
      fail(new KytError("ENGINE_STOPPED", "the screening pool was closed"));
      // Ask each thread to end; one that has not within 2 s is terminated.
      await Promise.all(
        threads.map(
          (t) =>
            new Promise<void>((resolve) => {
              const timer = setTimeout(() => void t.worker.terminate().then(() => resolve()), 2_000);
              t.worker.once("exit", () => {
                clearTimeout(timer);
                resolve();
              });
              post(t, { kind: "close" });
            }),
        ),
      );
    },
  });
}
