/**
 * The durable job runner: claims due jobs from the store with a lease, runs their handlers,
 * and retries failures with exponential backoff until a handler gives up. A job whose worker
 * died is claimed again when its lease runs out, so handlers must be idempotent. A runner keeps
 * up to `concurrency` jobs in hand and claims more whenever there is room (a pipeline: a job that
 * becomes due while a batch runs does not wait for that batch to settle). A job that came from
 * a request (job-origin.ts) has its request id on every line logged about it, and,
 * when that request was traced, a span of its own in the request's trace.
 */
import type { JobKind, JobRecord } from "../../domain/records.js";
import { describeError } from "../../errors.js";
import type { Clock, Logger, Sleep, Timer } from "../../ports/runtime.js";
import type { Store } from "../../ports/store.js";
import { noopTracer, type Tracer } from "../../ports/tracer.js";
import type { JobsConfig } from "../engine-config.js";
import type { EngineEventEmitter, JobLane, JobSettlement } from "../engine-events.js";
import { jobOrigin } from "./job-origin.js";

/** Where a runner reports its batches and settlements (the engine's emitter). */
export type JobRunnerEvents = Pick<EngineEventEmitter, "emit">;

/** What a handler decided. */
export type JobOutcome =
  /** Finished: the handler already completed the job (in its own transaction) or it is to be deleted now. */
  | { readonly kind: "done" }
  /** Run again at `runAt` without counting a failure (for example a hash not mined yet). */
  | { readonly kind: "later"; readonly runAt: number; readonly reason: string };

/**
 * What a batch run decided for one of its jobs: an outcome as from `run`, `completed` when the
 * handler already deleted the job in its own transaction, or `failed` (handled as if `run`
 * had thrown `error`).
 */
export type BatchJobOutcome =
  | JobOutcome
  | { readonly kind: "completed" }
  | { readonly kind: "failed"; readonly error: unknown };

/** Runs one kind of job. */
export interface JobHandler {
  /** Does the work. Throwing counts a failure; the job is retried with backoff. */
  run(job: JobRecord): Promise<JobOutcome>;
  /**
   * Optional: does the work of several claimed jobs of this kind together, with fewer store
   * transactions than one run each. Returns one outcome per job, in the order given. Throwing
   * makes the runner fall back to `run` for each job, so a batch must leave nothing
   * half-written when it throws (write in one transaction).
   */
  runBatch?(jobs: ReadonlyArray<JobRecord>): Promise<ReadonlyArray<BatchJobOutcome>>;
  /** Called once when the job failed `maxAttempts` times: record the failure where users see it. */
  giveUp(job: JobRecord, reason: string): Promise<void>;
}

/** Reports failures (the engine turns them into events). */
export type JobFailureListener = (job: JobRecord, reason: string, final: boolean) => void;

/** A running or idle job runner. */
export interface JobRunner {
  /** Starts polling in the background. Idempotent; a stopped runner can be started again. */
  start(): void;
  /**
   * Stops polling and resolves once every batch this runner has in hand (the loop's and any
   * `drain()`'s at the moment of the call) has finished and been settled. It runs no further
   * jobs: jobs still due stay in the store for the next `start()` or `drain()`. A `drain()`
   * running at the same time keeps running until it is done; await it too before closing the
   * store. Idempotent.
   */
  stop(): Promise<void>;
  /**
   * Resolves when no job of this runner's kinds is due any more and none is running in this
   * runner: it claims and runs due jobs itself, waits for the batches the polling loop (when
   * started) has in hand, and goes on with the jobs those batches enqueue, until a claim finds
   * nothing and nothing is in flight. Jobs scheduled for later (a retry's backoff, a hash not
   * mined yet) are not waited for; nor are jobs leased by another process on a shared store.
   * Works the same whether or not `start()` is running. Rejects if claiming from the store fails.
   */
  drain(): Promise<void>;
  /**
   * Tells a started runner that a job may be due (after an enqueue in this process, or when the
   * store's job watch reports one from any process): it claims at once if it has room.
   */
  wake(): void;
}

/** Collaborators of the runner. */
export interface JobRunnerDeps {
  readonly store: Store;
  readonly clock: Clock;
  /** Real time for the poll loop's sleeps. */
  readonly timer: Timer;
  readonly logger: Logger;
  readonly config: JobsConfig;
  readonly handlers: Readonly<Partial<Record<JobKind, JobHandler>>>;
  /** The kinds this runner claims (a lane); every kind when omitted. */
  readonly kinds?: ReadonlyArray<JobKind>;
  readonly onFailure: JobFailureListener;
  /** The lane this runner is, in its events; default `checks`. */
  readonly lane?: JobLane;
  /** Where claims, settlements and finished batches are reported; default nowhere. */
  readonly events?: JobRunnerEvents;
  /**
   * Runs each claimed batch in a span (`openkyt.jobs.batch`, linked to the traced requests its
   * jobs came from) and each job of a traced request in one of its own (`openkyt.job`, a child
   * of the request's span); default none.
   */
  readonly tracer?: Tracer;
}

/** Most requests a batch span is linked to. */
const MAX_BATCH_LINKS = 32;

/** Shortest sleep of an idle runner. */
const MIN_IDLE_MS = 5;

/** Delay before retry number `failures` (1-based): base * 2^(failures-1), capped. */
export function backoffDelay(
  failures: number,
  config: Pick<JobsConfig, "backoffBaseMs" | "backoffMaxMs">,
): number {
  return Math.min(config.backoffMaxMs, config.backoffBaseMs * 2 ** Math.max(0, failures - 1));
}

/** Creates a runner over the store's job table. */
export function createJobRunner(deps: JobRunnerDeps): JobRunner {
  const { store, clock, logger, config, handlers, events } = deps;
  const lane = deps.lane ?? "checks";
  const tracer = deps.tracer ?? noopTracer;
  let running = false;
  let loop: Promise<void> | null = null;
  let nap: Sleep | null = null;
  /** Every batch being claimed or run, by the loop or by `drain()`: what `drain` and `stop` wait for. */
  const inFlight = new Set<Promise<number>>();
  /** Ids of the jobs in hand: claimed, not yet settled. */
  const inHand = new Set<string>();
  /** Room asked by claims under way. With `inHand`, at most `concurrency` (see `room`). */
  let reserved = 0;
  /** `wake()` was called since the loop's last claim began: it claims again before it sleeps. */
  let woken = false;
  /** The loop waits for room (or its last claim filled it): a settling batch wakes it. */
  let wantsRoom = false;
  /** When the loop's current idle wait (after a claim found nothing) ends, on `timer.elapsed()`; null: none. */
  let idleUntil: number | null = null;

  /** What every line logged about a job names: the job, its kind, and its request's id. */
  function jobFields(job: JobRecord): { jobId: string; kind: JobKind; requestId?: string } {
    const requestId = jobOrigin(job)?.requestId;
    return requestId === undefined
      ? { jobId: job.id, kind: job.kind }
      : { jobId: job.id, kind: job.kind, requestId };
  }

  /**
   * Runs `fn` (the job's run, or in a batch its settling) in a span of its own when the job came
   * from a traced request: a child of the request's span, so the job belongs to its trace.
   */
  function inJobSpan(job: JobRecord, fn: () => Promise<void>): Promise<void> {
    const origin = jobOrigin(job);
    if (origin?.traceparent === undefined) return fn();
    const attributes = {
      "openkyt.lane": lane,
      "openkyt.kind": job.kind,
      ...(origin.requestId === undefined ? {} : { "openkyt.request_id": origin.requestId }),
    };
    return tracer.span("openkyt.job", attributes, fn, { parent: origin.traceparent });
  }

  /** Records what became of a job: completed, deleted, run again later, retried or given up. */
  async function settle(
    job: JobRecord,
    handler: JobHandler,
    outcome: BatchJobOutcome,
    postponed = false,
  ): Promise<void> {
    let settled: JobSettlement = outcome.kind === "later" ? "later" : "done";
    if (outcome.kind === "failed") settled = job.attempts >= config.maxAttempts ? "gave_up" : "retried";
    try {
      if (!(postponed && outcome.kind === "later")) await record(job, handler, outcome);
    } finally {
      leaveHand(job);
      events?.emit("job.settled", { lane, job, outcome: settled });
      logger.debug({ ...jobFields(job), lane, outcome: settled }, "job settled");
    }
  }

  async function record(job: JobRecord, handler: JobHandler, outcome: BatchJobOutcome): Promise<void> {
    if (outcome.kind === "completed") return;
    if (outcome.kind === "later") {
      // Waits as a fresh job (attempts 0), so that waiting does not count towards maxAttempts.
      await store.postponeJobs(
        [{ id: job.id, runAt: outcome.runAt, lastError: outcome.reason }],
        config.workerId,
      );
      return;
    }
    if (outcome.kind === "done") {
      await store.completeJob(job.id, config.workerId);
      return;
    }
    const reason = describeError(outcome.error);
    const final = job.attempts >= config.maxAttempts;
    deps.onFailure(job, reason, final);
    logger.warn({ ...jobFields(job), attempts: job.attempts, final, reason }, "job failed");
    if (final) {
      await handler.giveUp(job, reason);
      await store.completeJob(job.id, config.workerId);
    } else {
      const runAt = clock.now() + backoffDelay(job.attempts, config);
      await store.retryJob(job.id, config.workerId, runAt, reason);
    }
  }

  async function runOne(job: JobRecord): Promise<void> {
    const handler = handlers[job.kind];
    if (!handler) {
      logger.error(jobFields(job), "no handler for job kind");
      try {
        await store.retryJob(
          job.id,
          config.workerId,
          clock.now() + config.backoffMaxMs,
          `no handler for ${job.kind}`,
        );
      } finally {
        leaveHand(job);
        events?.emit("job.settled", { lane, job, outcome: "retried" });
      }
      return;
    }
    await inJobSpan(job, async () => {
      let outcome: BatchJobOutcome;
      try {
        outcome = await handler.run(job);
      } catch (error) {
        outcome = { kind: "failed", error };
      }
      await settle(job, handler, outcome);
    });
  }

  /** Runs the claimed jobs of one kind: together when the handler can, else one by one. */
  async function runGroup(kind: JobKind, jobs: ReadonlyArray<JobRecord>): Promise<void> {
    const handler = handlers[kind];
    if (!handler?.runBatch || jobs.length < 2) {
      await Promise.all(jobs.map((job) => runOne(job)));
      return;
    }
    let outcomes: ReadonlyArray<BatchJobOutcome>;
    try {
      outcomes = await handler.runBatch(jobs);
      if (outcomes.length !== jobs.length) throw new Error("a batch returned the wrong number of outcomes");
    } catch (error) {
      logger.warn(
        { kind, jobs: jobs.length, reason: describeError(error) },
        "job batch failed; running its jobs one by one",
      );
      await Promise.all(jobs.map((job) => runOne(job)));
      return;
    }
    const postponed = await postponeTogether(jobs, outcomes);
    await Promise.all(
      jobs.map((job, i) =>
        inJobSpan(job, () => settle(job, handler, outcomes[i] ?? { kind: "done" }, postponed)),
      ),
    );
  }

  /**
   * Writes the waits of a batch (transactions not mined yet, chiefly) in one transaction rather
   * than one each; true when written. On a failure each job records its own wait, as alone.
   */
  async function postponeTogether(
    jobs: ReadonlyArray<JobRecord>,
    outcomes: ReadonlyArray<BatchJobOutcome>,
  ): Promise<boolean> {
    const later = jobs.flatMap((job, i) => {
      const outcome = outcomes[i];
      return outcome?.kind === "later"
        ? [{ id: job.id, runAt: outcome.runAt, lastError: outcome.reason }]
        : [];
    });
    if (later.length < 2) return false;
    try {
      await store.postponeJobs(later, config.workerId);
      return true;
    } catch (error) {
      logger.warn({ lane, jobs: later.length, reason: describeError(error) }, "postponing a batch failed");
      return false;
    }
  }

  /** Claims up to `limit` due jobs of this runner's kinds. */
  function claim(limit: number): Promise<ReadonlyArray<JobRecord>> {
    return store.claimJobs({
      now: clock.now(),
      limit,
      leaseMs: config.leaseMs,
      owner: config.workerId,
      ...(deps.kinds ? { kinds: deps.kinds } : {}),
    });
  }

  /** Runs a claimed batch, grouped by kind, in a span linked to the requests its jobs came from. */
  async function runJobs(jobs: ReadonlyArray<JobRecord>): Promise<void> {
    const byKind = new Map<JobKind, JobRecord[]>();
    for (const job of jobs) {
      const group = byKind.get(job.kind);
      if (group) group.push(job);
      else byKind.set(job.kind, [job]);
    }
    const attributes = {
      "openkyt.lane": lane,
      "openkyt.jobs": jobs.length,
      "openkyt.kinds": [...byKind.keys()].join(","),
    };
    const links = [...new Set(jobs.map((job) => jobOrigin(job)?.traceparent))]
      .filter((traceparent): traceparent is string => traceparent !== undefined)
      .slice(0, MAX_BATCH_LINKS);
    await tracer.span(
      "openkyt.jobs.batch",
      attributes,
      () => runGroups(byKind, jobs),
      links.length > 0 ? { links } : undefined,
    );
  }
  /** Runs the groups of a claimed batch, reporting the batch when there are events. */
  async function runGroups(byKind: Map<JobKind, JobRecord[]>, jobs: ReadonlyArray<JobRecord>): Promise<void> {
    if (!events) {
      await Promise.all([...byKind].map(([kind, group]) => runGroup(kind, group)));
      return;
    }
    const startedAt = clock.now();
    events.emit("jobs.claimed", { lane, jobs });
    try {
      await Promise.all([...byKind].map(([kind, group]) => runGroup(kind, group)));
    } finally {
      events.emit("jobs.batch_finished", { lane, jobs: jobs.length, startedAt, ms: clock.now() - startedAt });
    }
  }

  /**
   * Claims up to `limit` due jobs and starts running them: resolves to how many it claimed as
   * soon as the claim returns, while they run on (rejects when the claim fails). The batch is in
   * `inFlight` from before its claim until each of its jobs is settled, so a job is always either
   * claimable or part of a batch someone can wait for. `limit` is reserved from before the claim
   * (so that a loop's and a drain's claims at once never hold more than `concurrency`), then each
   * job claimed is in hand until it is settled.
   */
  function startBatch(limit: number): Promise<number> {
    reserved += limit;
    let claimed: (count: number) => void = () => undefined;
    const count = new Promise<number>((resolve) => {
      claimed = resolve;
    });
    const batch = (async () => {
      let jobs: ReadonlyArray<JobRecord>;
      try {
        jobs = await claim(limit);
      } finally {
        reserved -= limit;
      }
      if (jobs.length === 0) return 0;
      for (const job of jobs) inHand.add(job.id);
      claimed(jobs.length);
      try {
        await runJobs(jobs);
      } catch (error) {
        // A settlement's write failed (the store went away): the jobs run again when their leases end.
        logger.error(
          { lane, jobs: jobs.length, reason: describeError(error) },
          "settling a job batch failed",
        );
      } finally {
        for (const job of jobs) leaveHand(job);
      }
      return jobs.length;
    })();
    inFlight.add(batch);
    const forget = () => inFlight.delete(batch);
    batch.then(forget, forget);
    return Promise.race([count, batch]);
  }

  /** Room left for claims. */
  function roomLeft(): number {
    return config.concurrency - inHand.size - reserved;
  }

  /**
   * A job is settled (or its batch ended): it leaves the jobs in hand, and a loop waiting for
   * room, or whose last claim the room cut short, claims again at once.
   */
  function leaveHand(job: JobRecord): void {
    if (!inHand.delete(job.id) || !wantsRoom) return;
    wantsRoom = false;
    nap?.wake();
  }

  async function sleep(ms: number): Promise<void> {
    nap = deps.timer.sleep(ms);
    await nap.done;
    nap = null;
  }

  /**
   * Claims whenever there is room and something may be due: at start, when woken (an enqueue in
   * this process, or the store's job watch), when a batch settles after a claim that the room cut
   * short, and at least every poll interval. The jobs claimed run while the loop goes on (a
   * pipeline, not a barrier), so a job that becomes due while others run starts at once as long
   * as fewer than `concurrency` are in hand. A claim takes everything due up to the room left,
   * so jobs that arrive together are still claimed, and handed to `runBatch`, together.
   */
  async function pollLoop(): Promise<void> {
    while (running) {
      const room = roomLeft();
      if (room <= 0) {
        idleUntil = null;
        wantsRoom = true;
        await sleep(config.pollIntervalMs);
        continue;
      }
      woken = false;
      let claimed = 0;
      try {
        claimed = await startBatch(room);
      } catch (error) {
        logger.error({ reason: describeError(error) }, "job claiming failed");
      }
      if (!running) continue;
      if (claimed >= room) wantsRoom = true;
      if (woken || claimed >= room) {
        // Let timers and I/O run between claims: a store that answers in microtasks must not starve them.
        await new Promise<void>((resolve) => setImmediate(resolve));
        continue;
      }
      if (claimed > 0) {
        // Everything due was claimed: what comes next is an enqueue (which wakes this loop) or a
        // job whose time comes (a retry, a hash not mined yet), found by the next poll.
        idleUntil = null;
        await sleep(config.pollIntervalMs);
        continue;
      }
      // Woken in an idle wait and nothing to claim (another process claimed it first): sleep out
      // that wait (never longer than a poll interval) rather than ask the store for the next due
      // time again; wake-ups from other processes' enqueues make this the common case.
      const left = idleUntil === null ? 0 : idleUntil - deps.timer.elapsed();
      if (left >= MIN_IDLE_MS) {
        await sleep(left);
        continue;
      }
      // Only this lane's jobs: the checks lane's backlog (registrations waiting for a batch) is
      // due now, and would wake the webhooks lane every MIN_IDLE_MS for a claim that finds nothing.
      const next = await store.nextJobAt(deps.kinds).catch(() => null);
      if (woken) continue;
      // A job due now that this runner could not claim (leased by another process) is no reason to spin.
      const wait =
        next === null
          ? config.pollIntervalMs
          : Math.max(MIN_IDLE_MS, Math.min(config.pollIntervalMs, next - clock.now()));
      idleUntil = deps.timer.elapsed() + wait;
      await sleep(wait);
    }
  }

  return {
    start() {
      if (running) return;
      running = true;
      loop = pollLoop();
    },
    async stop() {
      running = false;
      nap?.wake();
      await Promise.allSettled([loop, ...inFlight]);
      loop = null;
    },
    async drain() {
      for (;;) {
        const room = roomLeft();
        if (room > 0 && (await startBatch(room)) > 0) continue;
        // Nothing claimable, or no room: done unless batches in hand may still enqueue more or free room.
        if (inFlight.size === 0) return;
        await Promise.race([...inFlight]).catch(() => undefined);
      }
    },
    wake() {
      woken = true;
      nap?.wake();
    },
  };
}
