/**
 * `engine.drain()` means "everything due is done", whether or not `engine.start()` is running:
 * it waits for the jobs the running loop has in hand and for the jobs those jobs enqueue, on the
 * memory store and on SQLite.
 */
import { afterEach, describe, expect, it } from "vitest";
import { createSqliteStore } from "../../../store-sqlite/src/index.js";
import { loadWorld, TX, W } from "../../../testkit/src/engine-world.js";
import type { JobRecord } from "../../src/domain/records.js";
import { createEngine, type Engine } from "../../src/engine/create-engine.js";
import { createJobRunner, type JobHandler } from "../../src/engine/jobs/job-runner.js";
import { silentLogger, systemClock, systemTimer } from "../../src/ports/runtime.js";
import type { Store } from "../../src/ports/store.js";
import { createMemoryStore } from "../../src/store/index.js";

const STORES: ReadonlyArray<readonly [string, () => Promise<Store>]> = [
  ["memory", async () => createMemoryStore()],
  ["SQLite", () => createSqliteStore({ filename: ":memory:" })],
];

let open: { engine: Engine; store: Store } | null = null;

afterEach(async () => {
  await open?.engine.stop();
  await open?.store.close();
  open = null;
});

async function engineOn(createStore: () => Promise<Store>, start: boolean): Promise<Engine> {
  const store = await createStore();
  const engine = createEngine({ store, jobs: { pollIntervalMs: 20 } });
  open = { engine, store };
  await loadWorld(engine);
  if (start) engine.start();
  return engine;
}

describe.each(STORES)("engine.drain() on the %s store", (_name, createStore) => {
  for (const start of [true, false]) {
    const mode = start ? "while start() runs" : "without start()";

    it(`finishes a manual address check ${mode}`, async () => {
      const engine = await engineOn(createStore, start);
      const kyt = engine.forAccount("acme");
      for (let round = 0; round < 6; round += 1) {
        const check = await kyt.checkAddress({ network: "ETH", address: W.sanctioned });
        await engine.drain();
        const done = await kyt.getManualCheck(check.id);
        expect(done.check_status).toBe("checked");
        expect(done.risk_level).toBe("severe");
      }
    });

    it(`binds and checks a registered transfer (the bind job enqueues the checks) ${mode}`, async () => {
      const engine = await engineOn(createStore, start);
      const kyt = engine.forAccount("acme");
      const { transfer } = await kyt.registerTransfer({
        direction: "incoming",
        network: "ETH",
        tx_hash: TX.deposit,
        output_address: W.client,
      });
      await engine.drain();
      const done = await kyt.getTransfer(transfer.id);
      expect(done.tx_status).toBe("bound");
      expect(done.check_state).toMatchObject({
        exposure: "checked",
        counterparty: "checked",
        sanctions: "checked",
      });
      expect(done.risk_level).toBe("severe");
      expect(await engine.store.listJobs()).toEqual([]);
    });
  }
});

describe("the job runner's drain", () => {
  /** A runner over a memory store whose handler holds each job until released. */
  async function heldRunner() {
    const store = createMemoryStore();
    const releases: Array<() => void> = [];
    const started: string[] = [];
    const finished: string[] = [];
    const handler: JobHandler = {
      async run(job: JobRecord) {
        started.push(job.id);
        await new Promise<void>((resolve) => releases.push(resolve));
        finished.push(job.id);
        // The first job enqueues a follow-up, as a bind job enqueues its checks.
        if (job.id === "first") {
          await store.enqueueJob({
            ...job,
            id: "follow-up",
            attempts: 0,
            leaseOwner: null,
            leaseUntil: null,
          });
        }
        return { kind: "done" };
      },
      async giveUp() {},
    };
    const runner = createJobRunner({
      store,
      clock: systemClock,
      timer: systemTimer,
      logger: silentLogger,
      config: {
        leaseMs: 60_000,
        concurrency: 4,
        pollIntervalMs: 10,
        maxAttempts: 3,
        backoffBaseMs: 1_000,
        backoffMaxMs: 60_000,
        workerId: "drain-test",
      },
      handlers: { "transfer.check": handler },
      onFailure: () => {},
    });
    return { store, runner, releases, started, finished };
  }

  it("waits for the jobs the running loop holds and the jobs they enqueue", async () => {
    const r = await heldRunner();
    await r.store.enqueueJob({
      id: "first",
      kind: "transfer.check",
      accountId: "acme",
      subjectId: "t1",
      payload: {},
      runAt: Date.now() - 1,
      attempts: 0,
      leaseOwner: null,
      leaseUntil: null,
      lastError: null,
      createdAt: Date.now(),
    });
    r.runner.start();
    try {
      while (r.started.length === 0) await new Promise((resolve) => setTimeout(resolve, 5));
      let drained = false;
      const drain = r.runner.drain().then(() => {
        drained = true;
      });
      // Release jobs as they start until the drain returns; it must not return before both ran.
      const releaser = setInterval(() => {
        for (const release of r.releases.splice(0)) release();
      }, 5);
      await drain;
      clearInterval(releaser);
      expect(drained).toBe(true);
      expect(r.finished).toEqual(["first", "follow-up"]);
      expect(await r.store.listJobs()).toEqual([]);
    } finally {
      for (const release of r.releases.splice(0)) release();
      await r.runner.stop();
    }
  });
});
