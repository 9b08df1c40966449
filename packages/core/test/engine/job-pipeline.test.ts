/**
 * The runner claims while batches run (a pipeline, not a barrier): a job that becomes due while
 * a batch is held up starts before that batch settles, never more than `concurrency` jobs are
 * in hand, and `drain()`/`stop()` still wait for every job in hand.
 */
import { afterEach, describe, expect, it } from "vitest";
import { makeJob } from "../../../testkit/src/store-factories.js";
import type { JobRecord } from "../../src/domain/records.js";
import { createJobRunner, type JobHandler, type JobRunner } from "../../src/engine/jobs/job-runner.js";
import { silentLogger, systemClock, systemTimer } from "../../src/ports/runtime.js";
import { createMemoryStore } from "../../src/store/index.js";

/** A poll interval no test waits for: only `wake()` and settlements make the runner claim. */
const HOUR = 3_600_000;

/** A due check job. */
const due = (id: string): JobRecord => makeJob({ id, kind: "transfer.check", runAt: Date.now() - 1_000 });

/** Resolves once `ready()` holds, checking on every turn of the event loop (at most 20 s: room for a busy machine). */
async function until(ready: () => boolean | Promise<boolean>): Promise<void> {
  const deadline = Date.now() + 20_000;
  while (!(await ready())) {
    if (Date.now() > deadline) throw new Error("timed out waiting for the runner");
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
}

/**
 * A runner over a memory store whose handler holds each job until it is released by id; with
 * `batches`, claimed jobs go to its `runBatch` together (and settle together).
 */
function heldRunner(concurrency: number, batches = true) {
  const store = createMemoryStore();
  const gates = new Map<string, () => void>();
  const started: string[] = [];
  const finished: string[] = [];
  const claimedTogether: string[][] = [];
  const hold = async (job: JobRecord) => {
    started.push(job.id);
    await new Promise<void>((resolve) => gates.set(job.id, resolve));
    finished.push(job.id);
  };
  const handler: JobHandler = {
    async run(job) {
      await hold(job);
      return { kind: "done" };
    },
    async giveUp() {},
  };
  if (batches) {
    handler.runBatch = async (jobs) => {
      claimedTogether.push(jobs.map((job) => job.id));
      await Promise.all(jobs.map(hold));
      return jobs.map(() => ({ kind: "done" as const }));
    };
  }
  const runner = createJobRunner({
    store,
    clock: systemClock,
    timer: systemTimer,
    logger: silentLogger,
    config: {
      leaseMs: 60_000,
      concurrency,
      pollIntervalMs: HOUR,
      maxAttempts: 3,
      backoffBaseMs: 1_000,
      backoffMaxMs: 60_000,
      workerId: "pipeline-test",
    },
    handlers: { "transfer.check": handler },
    onFailure: () => {},
  });
  const release = (id: string) => {
    const gate = gates.get(id);
    if (!gate) throw new Error(`job ${id} is not held`);
    gates.delete(id);
    gate();
  };
  return {
    store,
    runner,
    started,
    finished,
    batches: claimedTogether,
    release,
    held: () => [...gates.keys()],
  };
}

let running: { runner: JobRunner; releaseAll: () => void } | null = null;

afterEach(async () => {
  running?.releaseAll();
  await running?.runner.stop();
  running = null;
});

/** Starts `r`'s runner, releasing whatever it still holds after the test. */
function start(r: ReturnType<typeof heldRunner>): void {
  r.runner.start();
  running = {
    runner: r.runner,
    releaseAll: () => {
      for (const id of r.held()) r.release(id);
    },
  };
}

describe("the job runner's pipeline", () => {
  it("starts a job enqueued while a batch is held up before that batch settles", async () => {
    const r = heldRunner(64);
    for (const id of ["a1", "a2", "a3"]) await r.store.enqueueJob(due(id));
    start(r);
    await until(() => r.started.length === 3);
    expect(r.batches).toEqual([["a1", "a2", "a3"]]);

    await r.store.enqueueJob(due("late"));
    r.runner.wake();
    await until(() => r.started.includes("late"));
    r.release("late");
    await until(() => r.finished.includes("late"));
    expect(r.finished).toEqual(["late"]);
    expect((await r.store.listJobs()).map((job) => job.id).sort()).toEqual(["a1", "a2", "a3"]);

    for (const id of ["a1", "a2", "a3"]) r.release(id);
    await until(async () => (await r.store.listJobs()).length === 0);
    expect(r.finished.slice(1).sort()).toEqual(["a1", "a2", "a3"]);
  });

  it("never has more than `concurrency` jobs in hand, and claims again as each job settles", async () => {
    const r = heldRunner(2, false);
    for (const id of ["j1", "j2", "j3", "j4", "j5"]) await r.store.enqueueJob(due(id));
    start(r);
    await until(() => r.started.length === 2);
    r.runner.wake();
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(r.started).toEqual(["j1", "j2"]);

    // One job settling frees room for one more, without a wake or a poll.
    r.release("j1");
    await until(() => r.started.length === 3);
    expect(r.started).toEqual(["j1", "j2", "j3"]);
    expect(r.held().sort()).toEqual(["j2", "j3"]);

    for (const id of ["j2", "j3"]) r.release(id);
    await until(() => r.started.length === 5);
    expect(r.held().sort()).toEqual(["j4", "j5"]);
  });

  it("stop() waits for every batch in hand, claimed before or during the others", async () => {
    const r = heldRunner(64);
    await r.store.enqueueJob(due("first"));
    start(r);
    await until(() => r.started.length === 1);
    await r.store.enqueueJob(due("second"));
    r.runner.wake();
    await until(() => r.started.length === 2);

    let stopped = false;
    const stopping = r.runner.stop().then(() => {
      stopped = true;
    });
    r.release("second");
    await until(() => r.finished.includes("second"));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(stopped).toBe(false);
    r.release("first");
    await stopping;
    expect(r.finished.sort()).toEqual(["first", "second"]);
    expect(await r.store.listJobs()).toEqual([]);
  });

  it("drain() claims alongside the loop's batches and returns once every job in hand is settled", async () => {
    const r = heldRunner(64);
    await r.store.enqueueJob(due("loop"));
    start(r);
    await until(() => r.started.length === 1);
    await r.store.enqueueJob(due("drained"));

    let drained = false;
    const draining = r.runner.drain().then(() => {
      drained = true;
    });
    await until(() => r.started.includes("drained"));
    r.release("drained");
    await until(() => r.finished.includes("drained"));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(drained).toBe(false);
    r.release("loop");
    await draining;
    expect(r.finished).toEqual(["drained", "loop"]);
    expect(await r.store.listJobs()).toEqual([]);
  });
});
