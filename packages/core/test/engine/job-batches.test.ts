/**
 * Jobs run in batches: the runner hands a handler's claimed jobs to `runBatch` and settles each
 * outcome; a failing batch falls back to one run per job; and the bind and check handlers keep
 * a failing job's trouble to that job.
 */
import { describe, expect, it } from "vitest";
import { loadWorld, TX, W } from "../../../testkit/src/engine-world.js";
import { makeJob, BASE_TIME as T0 } from "../../../testkit/src/store-factories.js";
import type { JobRecord } from "../../src/domain/records.js";
import { createEngine } from "../../src/engine/create-engine.js";
import { type BatchJobOutcome, createJobRunner, type JobHandler } from "../../src/engine/jobs/job-runner.js";
import { storeChainSource } from "../../src/engine/sources/store-sources.js";
import { manualClock, silentLogger, systemTimer } from "../../src/ports/runtime.js";
import { createMemoryStore } from "../../src/store/index.js";

const OWNER = "runner-under-test";
const CONFIG = {
  leaseMs: 60_000,
  concurrency: 16,
  pollIntervalMs: 50,
  maxAttempts: 5,
  backoffBaseMs: 1_000,
  backoffMaxMs: 60_000,
  workerId: OWNER,
};

/** A runner over a fresh store with `handler` for check jobs, and the failures it reported. */
async function runnerWith(handler: JobHandler, jobs: JobRecord[]) {
  const store = createMemoryStore();
  for (const job of jobs) await store.enqueueJob(job);
  const failures: Array<{ id: string; reason: string; final: boolean }> = [];
  const runner = createJobRunner({
    store,
    clock: manualClock(T0 + 1_000),
    timer: systemTimer,
    logger: silentLogger,
    config: CONFIG,
    handlers: { "transfer.check": handler },
    onFailure: (job, reason, final) => failures.push({ id: job.id, reason, final }),
  });
  return { store, runner, failures };
}

const checkJob = (id: string) => makeJob({ id, kind: "transfer.check" });

describe("the job runner with batches", () => {
  it("hands a kind's claimed jobs to runBatch at once and settles each outcome", async () => {
    const batches: string[][] = [];
    const handler: JobHandler = {
      run: async () => {
        throw new Error("run is not expected here");
      },
      async runBatch(jobs): Promise<BatchJobOutcome[]> {
        batches.push(jobs.map((j) => j.id));
        await h.store.completeJob("a", OWNER); // as a batch deletes its jobs in its write
        return [
          { kind: "completed" },
          { kind: "done" },
          { kind: "later", runAt: T0 + 50_000, reason: "not mined yet" },
          { kind: "failed", error: new Error("the ledger read broke") },
        ];
      },
      giveUp: async () => {},
    };
    const h = await runnerWith(handler, ["a", "b", "c", "d"].map(checkJob));
    await h.runner.drain();
    expect(batches).toEqual([["a", "b", "c", "d"]]);
    const left = await h.store.listJobs();
    expect(left.map((j) => j.id).sort()).toEqual(["d", expect.any(String)].sort());
    const later = left.find((j) => j.id !== "d");
    expect(later).toMatchObject({
      runAt: T0 + 50_000,
      attempts: 0,
      leaseOwner: null,
      lastError: "not mined yet",
    });
    expect(left.find((j) => j.id === "d")).toMatchObject({
      runAt: T0 + 2_000,
      leaseOwner: null,
      lastError: "the ledger read broke",
    });
    expect(h.failures).toEqual([{ id: "d", reason: "the ledger read broke", final: false }]);
  });

  it("runs each job on its own when the batch throws, and a lone job through run", async () => {
    const ran: string[] = [];
    const batches: number[] = [];
    const handler: JobHandler = {
      async run(job) {
        ran.push(job.id);
        return { kind: "done" };
      },
      async runBatch(jobs) {
        batches.push(jobs.length);
        throw new Error("the batch's write failed");
      },
      giveUp: async () => {},
    };
    const many = await runnerWith(handler, ["a", "b", "c"].map(checkJob));
    await many.runner.drain();
    expect(batches).toEqual([3]);
    expect(ran.sort()).toEqual(["a", "b", "c"]);
    expect(await many.store.listJobs()).toEqual([]);
    expect(many.failures).toEqual([]);

    ran.length = 0;
    const one = await runnerWith(handler, [checkJob("x")]);
    await one.runner.drain();
    expect(batches).toEqual([3]);
    expect(ran).toEqual(["x"]);
  });
});

describe("bind and check batches", () => {
  it("bind the found, wait for the pending, check the others when one transfer's checks throw", async () => {
    const store = createMemoryStore();
    const fromStore = storeChainSource(store);
    const warnings: string[] = [];
    const engine = createEngine({
      store,
      logger: { ...silentLogger, warn: (_fields, message) => warnings.push(String(message)) },
      clock: manualClock(T0 + 400 * 3_600_000),
      chainSource: {
        lookup: (network, hash) =>
          hash === TX.exchangeDeposit
            ? Promise.resolve({ kind: "pending" })
            : fromStore.lookup(network, hash),
      },
      ledger: {
        ledgerIncoming: (network, token, queries, limit) =>
          queries.some((q) => q.address === W.b)
            ? Promise.reject(new Error("ledger read failed for address b"))
            : store.ledgerIncoming(network, token, queries, limit),
        ledgerOutgoing: (network, token, queries, limit) =>
          store.ledgerOutgoing(network, token, queries, limit),
      },
    });
    await loadWorld(engine);
    const failures: Array<{ kind: string; reason: string; final: boolean }> = [];
    engine.events.on("job.failed", (f) => failures.push(f));
    const api = engine.forAccount("acme");
    const register = (tx_hash: string) =>
      api.registerTransfer({ direction: "incoming", network: "ETH", tx_hash, output_address: W.client });
    const deposit = (await register(TX.deposit)).transfer.id;
    const mixer = (await register(TX.mixerDeposit)).transfer.id;
    const pending = (await register(TX.exchangeDeposit)).transfer.id;
    await engine.drain();

    // B's traces fail: the deposit from B stays unchecked; the mixer deposit in the same batch is checked.
    expect(await api.getTransfer(mixer)).toMatchObject({ tx_status: "bound", risk_level: "medium" });
    expect(await api.getTransfer(pending)).toMatchObject({ tx_status: "binding" });
    expect(await api.getTransfer(deposit)).toMatchObject({ tx_status: "bound", risk_level: "undefined" });
    expect(failures).toEqual([
      expect.objectContaining({
        kind: "transfer.check",
        final: false,
        reason: expect.stringMatching(/address b/),
      }),
    ]);
    // Handled inside the batches: no batch fell back to one run per job. The bind pass ran the
    // deposit's checks, which threw, so it bound it alone and queued a check job that failed.
    expect(warnings).toEqual(["checks failed while binding; a check job will retry them", "job failed"]);
    const jobs = await store.listJobs();
    expect(jobs.map((j) => [j.kind, j.subjectId]).sort()).toEqual(
      [
        ["transfer.bind", pending],
        ["transfer.check", deposit],
      ].sort(),
    );
  });
});
